import test from 'ava';
import calc from '../src/calc.js';

test('adds in a module', t => {
	t.is(calc.add(3, 4), 7);
});
