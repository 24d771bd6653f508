package Calc;

use strict;
use warnings;

# CASE=fail breaks add and range; CASE=die makes t/die.t die mid-run.
my $broken = ($ENV{CASE} // '') eq 'fail';

sub add {
    my ($a, $b) = @_;
    return $broken ? $a + $b + 1 : $a + $b;
}

sub is_even {
    my ($n) = @_;
    return $n % 2 == 0;
}

sub range {
    my ($lo, $hi) = @_;
    return $broken ? ($lo .. $hi - 1) : ($lo .. $hi);
}

sub parse_range {
    my ($s) = @_;
    die "not a range: $s" unless $s =~ /^(\d+)\.\.(\d+)$/;
    return ($1, $2);
}

1;
