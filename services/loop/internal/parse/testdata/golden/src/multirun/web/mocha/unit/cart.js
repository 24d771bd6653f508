const assert = require('assert');
const { add } = require('../../src/cart');

describe('add', function () {
  it('appends an item', function () {
    assert.strictEqual(add([], { price: 1, qty: 1 }).length, 1);
  });
  it('keeps the old items', function () {
    assert.strictEqual(add([{ price: 2, qty: 1 }], { price: 1, qty: 1 })[0].price, 2);
  });
  it.skip('merges equal items', function () {});
});
