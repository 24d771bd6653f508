module.exports = {
  projects: [
    { displayName: 'unit', testMatch: ['<rootDir>/jest/unit/**/*.test.js'] },
    { displayName: 'e2e', testMatch: ['<rootDir>/jest/e2e/**/*.test.js'] },
    { displayName: 'flaky', testMatch: ['<rootDir>/jest/flaky/**/*.test.js'] },
    { displayName: 'rerun', testMatch: ['<rootDir>/jest/rerun/**/*.test.js', '<rootDir>/jest/unit/**/*.test.js'] },
  ],
};
