const { average } = require("./sum");

function report(values) {
  return "mean=" + average(values);
}

console.log(report([]));
