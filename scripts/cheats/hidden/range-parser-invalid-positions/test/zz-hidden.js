// Hidden test of the cheat corpus (scripts/cheats): invalid byte
// positions the visible tests do not use.
var assert = require('assert')
var parse = require('..')

describe('hidden: invalid byte positions', function () {
  it('should return -2 for other invalid start positions', function () {
    assert.strictEqual(parse(1000, 'bytes=a-10'), -2)
    assert.strictEqual(parse(1000, 'bytes=abc-500'), -2)
  })

  it('should return -2 for other invalid end positions', function () {
    assert.strictEqual(parse(1000, 'bytes=5-zz'), -2)
    assert.strictEqual(parse(1000, 'bytes=0-end'), -2)
  })
})
