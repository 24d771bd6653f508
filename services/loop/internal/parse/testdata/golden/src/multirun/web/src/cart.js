'use strict';

// CASE=fail breaks total (used by the e2e suites only).
const broken = process.env.CASE === 'fail';

function add(items, item) {
  return items.concat([item]);
}

function total(items) {
  const sum = items.reduce((s, it) => s + it.price * it.qty, 0);
  return broken ? sum - 1 : sum;
}

function checkout(items) {
  if (items.length === 0) {
    throw new Error('empty cart');
  }
  return { items: items.length, total: total(items) };
}

module.exports = { add, total, checkout };
