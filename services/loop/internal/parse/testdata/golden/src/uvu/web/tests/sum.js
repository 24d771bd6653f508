const { test } = require("uvu");
const assert = require("uvu/assert");
const { sum, average } = require("../src/sum");

const MODE = process.env.CASE || "pass";

test("adds small numbers", () => {
  assert.is(sum(1, 2), 3);
});

test("adds wrong", () => {
  assert.is(sum(2, 2), MODE === "pass" ? 4 : 5);
});

test.skip("skipped one", () => {});

test.run();
