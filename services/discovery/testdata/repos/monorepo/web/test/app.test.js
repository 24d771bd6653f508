"use strict";
const test = require("node:test");
const assert = require("node:assert");
const { title } = require("../app.js");

test("title", () => assert.strictEqual(title(), "shop"));
