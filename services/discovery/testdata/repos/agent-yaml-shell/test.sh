#!/bin/sh
# Checks the greeting build.sh wrote; prints a generic summary line.
passed=0 failed=0
if [ "$(cat out/greeting.txt)" = "hello" ]; then passed=$((passed+1)); else echo "greeting: want hello"; failed=$((failed+1)); fi
if [ -s build.sh ]; then passed=$((passed+1)); else failed=$((failed+1)); fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
