// Fails the first time it runs in a fresh workspace (it leaves a marker),
// passes when the same command runs again: `jest || jest` retries it.
const fs = require('fs');
const path = require('path');

const mark = path.join(__dirname, '..', '..', '.rerun-mark-jest');

test('passes when run again', () => {
  const first = !fs.existsSync(mark);
  fs.writeFileSync(mark, '');
  expect(first).toBe(false);
});

test('stable', () => {
  expect(2 * 2).toBe(4);
});
