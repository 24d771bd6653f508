#!/bin/sh
set -e
mkdir -p out
printf 'hello\n' > out/greeting.txt
