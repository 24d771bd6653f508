use strict;
use warnings;
use Test::More tests => 3;
use Calc;

BAIL_OUT('no database to test against') if ($ENV{CASE} // '') eq 'bail';

ok(1, 'starts');
my @r = Calc::parse_range(($ENV{CASE} // '') eq 'die' ? 'a..b' : '1..2');
is(scalar @r, 2, 'two bounds');
ok(1, 'finishes');
