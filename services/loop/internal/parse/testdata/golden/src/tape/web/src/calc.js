'use strict';

// CASE=fail breaks add and merge; CASE=throw makes parseRange throw outside
// any assertion (tape has no handler: the process dies mid-run).
const mode = process.env.CASE || 'pass';

function add(a, b) {
  return mode === 'fail' ? a + b + 1 : a + b;
}

function parseRange(s) {
  const m = /^(\d+)\.\.(\d+)$/.exec(s);
  if (!m) {
    throw new TypeError('not a range: ' + s);
  }
  return [Number(m[1]), Number(m[2])];
}

function merge(a, b) {
  const out = Object.assign({}, a, b);
  if (mode === 'fail') {
    out.tags = (a.tags || []).slice();
  } else {
    out.tags = (a.tags || []).concat(b.tags || []);
  }
  return out;
}

function load(name, cb) {
  setImmediate(function () {
    if (mode === 'fail' && name === 'missing') {
      cb(new Error('cannot load ' + name));
      return;
    }
    cb(null, { name: name });
  });
}

module.exports = { add, parseRange, merge, load };
