'use strict'

// clamp keeps n within [lo, hi]; CASE=fail returns lo for values above hi.
exports.clamp = (n, lo, hi) => {
  if (n < lo) {
    return lo
  }
  if (n > hi) {
    return process.env.CASE === 'fail' ? lo : hi
  }
  return n
}

exports.parse = (s) => {
  const [a, b] = s.split('..').map(Number)
  if (Number.isNaN(a) || Number.isNaN(b)) {
    throw new TypeError(`not a range: ${s}`)
  }
  return { lo: a, hi: b }
}
