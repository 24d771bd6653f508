#!/bin/sh
# A tiny hand-rolled test runner, as projects without a framework have.
pass=0; fail=0
check() { if [ "$2" = "$3" ]; then echo "ok   $1"; pass=$((pass+1)); else echo "FAIL $1: got $2, want $3"; fail=$((fail+1)); fi; }
check upper "$(echo abc | tr a-z A-Z)" ABC
check length "$(printf abcd | wc -c)" 4
check sum "$((2+2))" 5
echo "result: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
