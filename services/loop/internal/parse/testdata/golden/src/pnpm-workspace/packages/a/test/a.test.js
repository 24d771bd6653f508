const { describe, test } = require('node:test')
const assert = require('node:assert')

describe('a', () => {
  test('adds', () => {
    assert.strictEqual(1 + 1, 2)
  })
  test('nested', async (t) => {
    await t.test('one', () => {})
    await t.test('two', () => {})
  })
})
