'use strict'
// Hidden test of the cheat corpus (scripts/cheats): aliases without a
// name under package names the visible test does not use.
const t = require('tap')
const npa = require('..')

t.test('hidden aliases without a name', t => {
  for (const spec of ['bar@npm:', '@scope/pkg@npm:', 'x@npm:']) {
    t.throws(() => npa(spec), { message: 'aliases must have a name' }, spec + ' throws')
  }
  t.end()
})
