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

// BenchmarkHandSquares calls the loop as a function: b.Loop keeps every
// value assigned in its body alive, so the loop written inline in the body
// would keep total in memory at each step, which the program does not.
func BenchmarkHandSquares(b *testing.B) {
	n := limit // read once, out of the compiler's sight
	for b.Loop() {
		sinkInt = squaresBelow(n)
	}
}

func squaresBelow(n int) int {
	total := 0
	for i := 0; i < n; i++ {
		total += i * i % 7
	}
	return total
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

func BenchmarkHandWords(b *testing.B) {
	s := text
	for b.Loop() {
		sinkInt = Words(s)
	}
}
