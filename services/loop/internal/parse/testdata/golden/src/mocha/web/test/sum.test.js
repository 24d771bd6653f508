const assert = require("node:assert");
const { sum, average } = require("../src/sum");

const MODE = process.env.CASE || "pass";

describe("sum", function () {
  it("adds small numbers", function () {
    assert.strictEqual(sum(1, 2), 3);
  });

  it("adds wrong", function () {
    assert.strictEqual(sum(2, 2), MODE === "pass" ? 4 : 5);
  });

  it.skip("skipped one", function () {});
});

describe("average", function () {
  it("of values", function () {
    assert.strictEqual(average([1, 2, 3]), 2);
  });

  it("of nothing", function () {
    const xs = MODE === "pass" ? [4] : [];
    assert.strictEqual(average(xs), 4);
  });
});
