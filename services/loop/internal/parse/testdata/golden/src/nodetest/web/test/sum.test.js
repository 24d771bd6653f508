const { describe, it } = require("node:test");
const assert = require("node:assert");
const { sum, average } = require("../src/sum");

const MODE = process.env.CASE || "pass";

describe("sum", () => {
  it("adds small numbers", () => {
    assert.strictEqual(sum(1, 2), 3);
  });

  it("adds wrong", () => {
    assert.strictEqual(sum(2, 2), MODE === "pass" ? 4 : 5);
  });

  it("skipped one", { skip: "not here" }, () => {});
});

describe("average", () => {
  it("of values", () => {
    assert.strictEqual(average([1, 2, 3]), 2);
  });

  it("of nothing", () => {
    const xs = MODE === "pass" ? [4] : [];
    assert.strictEqual(average(xs), 4);
  });
});
