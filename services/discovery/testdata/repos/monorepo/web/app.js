"use strict";
module.exports = { title: () => "shop" };
