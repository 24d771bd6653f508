const test = require('node:test')
const assert = require('node:assert')
const { sub } = require('..')

test('subtracts', () => {
  assert.strictEqual(sub(5, 3), 2)
})

test('subtracts zero', () => {
  assert.strictEqual(sub(5, 0), 5)
})
