import { describe, test, expect } from 'vitest';
import cart from '../../src/cart.js';

describe('checkout', () => {
  test('totals the cart', () => {
    const items = cart.add(cart.add([], { price: 3, qty: 2 }), { price: 4, qty: 1 });
    expect(cart.checkout(items).total).toBe(10);
  });
  test('rejects an empty cart', () => {
    expect(() => cart.checkout([])).toThrow('empty cart');
  });
});
