const { suite } = require("uvu");
const assert = require("uvu/assert");
const { average } = require("../src/sum");

const MODE = process.env.CASE || "pass";
const Average = suite("average");

Average("of values", () => {
  assert.equal(average([1, 2, 3]), 2);
});

Average("of nothing", () => {
  const xs = MODE === "pass" ? [4] : [];
  assert.is(average(xs), 4);
});

Average.run();
