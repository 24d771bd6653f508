import { describe, test, expect } from 'vitest';
import cart from '../../src/cart.js';

describe('add', () => {
  test('appends an item', () => {
    expect(cart.add([], { price: 1, qty: 1 })).toHaveLength(1);
  });
  test('keeps the old items', () => {
    expect(cart.add([{ price: 2, qty: 1 }], { price: 1, qty: 1 })[0].price).toBe(2);
  });
  test.skip('merges equal items', () => {});
});
