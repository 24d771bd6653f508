"use strict";

function shout(s) {
  return String(s).toUpperCase() + "!";
}

module.exports = { shout };
