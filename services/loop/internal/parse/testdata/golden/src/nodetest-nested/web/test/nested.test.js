const test = require("node:test");
const { describe, it } = require("node:test");
const assert = require("node:assert");
const { sum } = require("../src/sum");

const MODE = process.env.CASE || "pass";

// Subtests inside a test: each level prints its own `ok` in TAP.
test("sum table", async (t) => {
  await t.test("small", () => {
    assert.strictEqual(sum(1, 2), 3);
  });
  await t.test("signs", async (t) => {
    await t.test("negative", () => {
      assert.strictEqual(sum(-1, -2), MODE === "pass" ? -3 : 3);
    });
    await t.test("mixed", () => {
      assert.strictEqual(sum(-1, 2), 1);
    });
  });
});

describe("suite", () => {
  describe("inner suite", () => {
    it("deep test", () => {
      assert.ok(true);
    });
  });
  it("todo one", { todo: "later" }, () => {});
});

test("top level", () => {
  assert.strictEqual(sum(0, 0), 0);
});
