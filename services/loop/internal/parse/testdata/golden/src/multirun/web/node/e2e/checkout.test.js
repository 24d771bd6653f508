const test = require('node:test');
const assert = require('node:assert');
const { add, checkout } = require('../../src/cart');

test('checkout totals the cart', () => {
  const items = add(add([], { price: 3, qty: 2 }), { price: 4, qty: 1 });
  assert.strictEqual(checkout(items).total, 10);
});
test('checkout rejects an empty cart', () => {
  assert.throws(() => checkout([]), /empty cart/);
});
