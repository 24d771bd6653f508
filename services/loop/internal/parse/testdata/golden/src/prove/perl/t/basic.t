use strict;
use warnings;
use Test::More tests => 4;
use Calc;

is(Calc::add(1, 2), 3, 'adds');
is(Calc::add(-1, 1), 0, 'negatives cancel');
ok(Calc::is_even(4), 'four is even');
is_deeply([Calc::range(1, 3)], [1, 2, 3], 'range');
