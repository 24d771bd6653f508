'use strict';

const test = require('tape');

test('strings', function (t) {
  t.plan(3);
  t.equal('a'.repeat(3), 'aaa');
  t.ok('abc'.includes('b'), 'includes');
  t.skip('skipped assertion');
});
