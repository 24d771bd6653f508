'use strict';
const test = require('ava');
const {add, average} = require('../src/calc.js');

test('adds', t => {
	t.is(add(2, 2), 4);
});

test('adds with a log', t => {
	t.log('adding 1 and 2');
	t.is(add(1, 2), 3, 'one and two');
});

test('averages', t => {
	t.is(average([2, 4]), 3);
});

test('averages nothing', t => {
	t.throws(() => average([]), {message: 'average of empty list'});
});

test('loads', t => {
	const list = process.env.CASE === 'fail' ? [] : [1];
	t.is(average(list), 1);
});

test.skip('skipped', t => {
	t.fail();
});

test.todo('divides');

test.failing('known bug', t => {
	t.is(add(0.1, 0.2), 0.3);
});
