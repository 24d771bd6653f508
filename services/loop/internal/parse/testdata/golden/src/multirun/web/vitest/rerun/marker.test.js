// Fails the first time it runs in a fresh workspace (it leaves a marker),
// passes when the same command runs again: `vitest run || vitest run`.
import { test, expect } from 'vitest';
import fs from 'fs';
import path from 'path';

const mark = path.join(__dirname, '..', '..', '.rerun-mark-vitest');

test('passes when run again', () => {
  const first = !fs.existsSync(mark);
  fs.writeFileSync(mark, '');
  expect(first).toBe(false);
});

test('stable', () => {
  expect(2 * 2).toBe(4);
});
