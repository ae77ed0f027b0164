package vetgolden

import (
	"sort"
	"testing"
)

var (
	input uint64 = 12345
	sink  uint64
	isink int
)

// BenchmarkDead discards Mix's result (deadresult).
func BenchmarkDead(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Mix(input)
	}
}

// BenchmarkConst calls Mix with a constant (constfold).
func BenchmarkConst(b *testing.B) {
	for b.Loop() {
		sink += Mix(42)
	}
}

// BenchmarkTimer stops the timer around a short operation (stoptimer).
func BenchmarkTimer(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		q := &Queue{}
		q.Push(i)
		b.StartTimer()
		isink += q.Pop()
	}
}

// BenchmarkSize uses b.N as the problem size (bnsize).
func BenchmarkSize(b *testing.B) {
	isink = Fib(b.N)
}

// BenchmarkSorted sorts the same slice in every iteration (driftstate).
func BenchmarkSorted(b *testing.B) {
	xs := []int{5, 3, 8, 1, 9, 2}
	for i := 0; i < b.N; i++ {
		sort.Ints(xs)
	}
}

// BenchmarkKept has nothing to report.
func BenchmarkKept(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += Mix(input)
	}
}
