const { add, checkout } = require('../../src/cart');

describe('checkout', () => {
  test('totals the cart', () => {
    const items = add(add([], { price: 3, qty: 2 }), { price: 4, qty: 1 });
    expect(checkout(items).total).toBe(10);
  });
  test('rejects an empty cart', () => {
    expect(() => checkout([])).toThrow('empty cart');
  });
});
