// Package listings holds segments like the listings of Rodriguez-Cancio,
// Combemale & Baudry, "Automatic Microbenchmark Generation to Prevent Dead
// Code Elimination and Constant Folding" (ASE 2016): a result nobody
// reads, a loop over literal inputs, an in-place sort, a loop that breaks
// out to an outer label, a segment the tests never reach and a whole
// function; and one that allocates, so that tests can compare the
// allocations of generated and hand-written benchmarks. mbench gen's
// end-to-end test generates their benchmarks.
package listings

import (
	"sort"
	"strings"
)

// checksum is FNV-1a of data.
func checksum(data []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range data {
		h = (h ^ uint32(c)) * 16777619
	}
	return h
}

// Validate checks data and returns its length. The checksum it computes
// is read by nobody: a benchmark of the call alone is dead code.
func Validate(data []byte) int {
	//mbench:bench Unread
	checksum(data)
	return len(data)
}

// Squares sums i*i mod 7 below a limit the program writes as a literal:
// a benchmark with the literal folds.
func Squares() int {
	n := 1000
	total := 0
	//mbench:bench Squares
	for i := 0; i < n; i++ {
		total += i * i % 7
	}
	return total
}

// Median sorts xs in place and returns its middle element: a benchmark
// that does not restore xs sorts a sorted slice from its second call on.
func Median(xs []float64) float64 {
	//mbench:bench SortInPlace
	sort.Float64s(xs)
	return xs[len(xs)/2]
}

// Find returns the row and column of the first target in grid, or -1, -1.
// The inner loop breaks out to the outer label: its benchmark reports
// whether it did.
func Find(grid [][]int, target int) (int, int) {
	r, c := -1, -1
outer:
	for i, row := range grid {
		//mbench:bench Inner
		for j, v := range row {
			if v == target {
				r, c = i, j
				break outer
			}
		}
	}
	return r, c
}

// Total sums xs; no test calls it.
func Total(xs []int) int {
	s := 0
	//mbench:bench Unreached
	for _, x := range xs {
		s += x
	}
	return s
}

// Fib returns the n-th Fibonacci number.
//
//mbench:bench Fib
func Fib(n int) int {
	a, b := 0, 1
	for i := 0; i < n; i++ {
		a, b = b, a+b
	}
	return a
}

// Words returns how many words s has. strings.Fields allocates the slice
// it returns, so the generated and the hand-written benchmark, run on the
// same text, must report the same allocations per op: a benchmark that
// skipped the work, or ran it on other input, would not.
func Words(s string) int {
	//mbench:bench Words
	fields := strings.Fields(s)
	return len(fields)
}
