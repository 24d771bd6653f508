'use strict'

const t = require('tap')
const { clamp } = require('../src/range')

t.test('clamp', t => {
  t.test('inside', t => {
    t.equal(clamp(5, 0, 10), 5)
    t.equal(clamp(0, 0, 10), 0, 'at the low end')
    t.end()
  })
  t.test('outside', t => {
    t.equal(clamp(-1, 0, 10), 0, 'below')
    t.equal(clamp(11, 0, 10), 10, 'above')
    t.end()
  })
  t.end()
})

t.test('clamp on floats', { skip: 'floats are not supported yet' }, t => {
  t.equal(clamp(0.5, 0, 1), 0.5)
  t.end()
})

t.todo('clamp on bigints')
