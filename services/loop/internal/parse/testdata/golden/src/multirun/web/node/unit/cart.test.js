const test = require('node:test');
const assert = require('node:assert');
const { add } = require('../../src/cart');

test('add appends an item', () => {
  assert.strictEqual(add([], { price: 1, qty: 1 }).length, 1);
});
test('add keeps the old items', () => {
  assert.strictEqual(add([{ price: 2, qty: 1 }], { price: 1, qty: 1 })[0].price, 2);
});
test('add merges equal items', { skip: 'not yet' }, () => {});
