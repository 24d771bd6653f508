const test = require('node:test')
const assert = require('node:assert')

test('b joins', () => {
  const want = process.env.CASE === 'fail' ? 'a-b' : 'a,b'
  assert.strictEqual(['a', 'b'].join(), want)
})

test('b splits', () => {
  assert.deepStrictEqual('a,b'.split(','), ['a', 'b'])
})
