package benchmark

import "testing"

func BenchmarkNothing(b *testing.B) {}
