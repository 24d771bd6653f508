const test = require('node:test')
const assert = require('node:assert')

test('a works', () => {
  assert.strictEqual('a'.length, 1)
})
