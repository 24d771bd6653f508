"use strict";

const test = require("node:test");
const assert = require("node:assert");
const { shout } = require("../index.js");

test("shout upper-cases and adds a bang", () => {
  assert.strictEqual(shout("hi"), "HI!");
});
