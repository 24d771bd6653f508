module example.com/nested/benchmark

go 1.22

require example.com/not/reachable v1.0.0
