const assert = require('assert');
const { add, checkout } = require('../../src/cart');

describe('checkout', function () {
  it('totals the cart', function () {
    const items = add(add([], { price: 3, qty: 2 }), { price: 4, qty: 1 });
    assert.strictEqual(checkout(items).total, 10);
  });
  it('rejects an empty cart', function () {
    assert.throws(() => checkout([]), /empty cart/);
  });
});
