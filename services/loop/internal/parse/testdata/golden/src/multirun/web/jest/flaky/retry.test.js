// The first attempt fails; jest.retryTimes runs it again in the same
// process, where it passes: one test, counted once.
jest.retryTimes(2, { logErrorsBeforeRetry: true });

let attempts = 0;

test('passes on the second attempt', () => {
  attempts++;
  expect(attempts).toBe(2);
});

test('always passes', () => {
  expect(1 + 1).toBe(2);
});
