// calc adds and divides.
function add(a, b) {
  return a + b;
}

function div(a, b) {
  if (b === 0) {
    return 0;
  }
  return a / b;
}

module.exports = { add, div };
