'use strict'

const t = require('tap')
const { parse } = require('../../src/range')

t.test('parse', t => {
  t.same(parse('1..3'), { lo: 1, hi: 3 })
  t.throws(() => parse('x..y'), TypeError)
  t.end()
})

t.test('parse from the environment', t => {
  parse(process.env.CASE === 'fail' ? 'a..b' : '0..1')
  t.pass('parsed')
  t.end()
})
