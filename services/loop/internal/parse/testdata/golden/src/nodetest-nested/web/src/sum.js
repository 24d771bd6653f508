function sum(a, b) {
  return a + b;
}

function average(xs) {
  if (xs.length === 0) {
    throw new Error("average of empty list");
  }
  return xs.reduce(sum, 0) / xs.length;
}

module.exports = { sum, average };
