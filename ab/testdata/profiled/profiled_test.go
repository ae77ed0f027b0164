// Package profiled has the benchmarks the ab package's profiling tests
// compare. Built with the tag "slower" it is the new version: validate
// does three times its work (a change of known place), and
// PROFILED_EXIT=1 makes the new version's BenchmarkExit exit once
// b.N > 1.
package profiled

import (
	"os"
	"testing"
)

var sink uint64

//go:noinline
func parse(n int) uint64 {
	x := uint64(n)
	for i := 0; i < n*900; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

//go:noinline
func validate(n int) uint64 {
	x := uint64(n)
	for i := 0; i < n*validateFactor*900; i++ {
		x ^= x<<13 ^ x>>7
	}
	return x
}

func BenchmarkProcess(b *testing.B) {
	for range b.N {
		sink += parse(3) + validate(1)
	}
}

func BenchmarkExit(b *testing.B) {
	if b.N > 1 && exitLater && os.Getenv("PROFILED_EXIT") == "1" {
		os.Exit(3)
	}
	for range b.N {
		sink += parse(1)
	}
}
