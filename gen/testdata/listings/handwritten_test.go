package listings

import (
	"sort"
	"testing"
)

// The benchmarks below are what a careful engineer writes by hand for the
// marked segments, on the inputs the tests use: results consumed, inputs
// out of the compiler's sight, state restored before each call.

var (
	sinkU32 uint32
	sinkInt int
	limit   = 1000
	fibN    = 30
)

func BenchmarkHandUnread(b *testing.B) {
	for b.Loop() {
		sinkU32 = checksum(data)
	}
}

func BenchmarkHandSquares(b *testing.B) {
	for b.Loop() {
		total := 0
		for i := 0; i < limit; i++ {
			total += i * i % 7
		}
		sinkInt = total
	}
}

func BenchmarkHandSortInPlace(b *testing.B) {
	xs := make([]float64, len(floats))
	for b.Loop() {
		copy(xs, floats)
		sort.Float64s(xs)
	}
}

func BenchmarkHandFib(b *testing.B) {
	for b.Loop() {
		sinkInt = Fib(fibN)
	}
}
