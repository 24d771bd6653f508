// The bug the fixture keeps on purpose: sub adds.
exports.sub = (a, b) => a + b
