'use strict';
const test = require('ava');

test('upper', t => {
	t.is('a'.toUpperCase(), 'A');
});

test('deep equal', t => {
	const got = {a: 1, b: process.env.CASE === 'fail' ? [1, 3] : [1, 2]};
	t.deepEqual(got, {a: 1, b: [1, 2]});
});

test('late', async t => {
	if (process.env.CASE === 'throw') {
		setTimeout(() => {
			throw new Error('thrown later');
		}, 0);
	}

	await new Promise(resolve => {
		if (process.env.CASE === 'hang') {
			setInterval(() => {}, 1000);
		} else {
			setTimeout(resolve, 100);
		}
	});
	t.pass();
});
