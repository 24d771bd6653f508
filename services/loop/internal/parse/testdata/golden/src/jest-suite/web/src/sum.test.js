const { sum, average } = require("./sum");

const MODE = process.env.CASE || "pass";

describe("sum", () => {
  test("adds small numbers", () => {
    expect(sum(1, 2)).toBe(3);
  });

  test("adds wrong", () => {
    expect(sum(2, 2)).toBe(MODE === "pass" ? 4 : 5);
  });

  test.skip("skipped one", () => {});
});

describe("average", () => {
  test("of values", () => {
    expect(average([1, 2, 3])).toBe(2);
  });

  test("of nothing", () => {
    const xs = MODE === "pass" ? [4] : [];
    expect(average(xs)).toBe(4);
  });
});
