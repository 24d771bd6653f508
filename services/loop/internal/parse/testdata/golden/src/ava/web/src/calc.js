'use strict';

function add(a, b) {
	return process.env.CASE === 'fail' ? a + b + 1 : a + b;
}

function average(xs) {
	if (xs.length === 0) {
		throw new Error('average of empty list');
	}

	return xs.reduce(add, 0) / xs.length;
}

module.exports = {add, average};
