import test from 'node:test'
import assert from 'node:assert'

test('pnpm app', () => {
  assert.ok(true)
})
