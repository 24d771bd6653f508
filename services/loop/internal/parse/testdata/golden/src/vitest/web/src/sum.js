export function sum(a, b) {
  return a + b;
}

export function average(xs) {
  if (xs.length === 0) {
    throw new Error("average of empty list");
  }
  return xs.reduce(sum, 0) / xs.length;
}
