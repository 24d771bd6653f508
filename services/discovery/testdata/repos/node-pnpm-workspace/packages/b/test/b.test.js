const test = require('node:test')
const assert = require('node:assert')

test('b works', () => {
  assert.strictEqual('b'.length, 1)
})
