// Package emit holds the segments of the generator's golden test: each
// kind of payload the generator writes.
package emit

import (
	"math"
	"sort"
	str "strings"
)

// Stack is a stack of ints.
type Stack struct{ items []int }

// Push adds x on top.
//
//mbench:bench Push
func (s *Stack) Push(x int) { s.items = append(s.items, x) }

// Mean is the arithmetic mean of xs.
//
//mbench:bench Mean
func Mean(xs ...float64) float64 {
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

func checksum(data []byte) uint32 {
	var h uint32 = 2166136261
	for _, c := range data {
		h = (h ^ uint32(c)) * 16777619
	}
	return h
}

func divmod(a, b int) (int, int) { return a / b, a % b }

// Work runs each kind of segment once.
func Work(data []byte, xs []int, words []string) (int, string) {
	//mbench:bench Dropped
	checksum(data)

	n := 30
	sum := 0
	//mbench:bench Literal
	for i := 0; i < n; i++ {
		sum += i * i
	}

	//mbench:bench Sort
	sort.Ints(xs)

	//mbench:bench Join
	joined := str.Join(words, ",")

	//mbench:bench Blank
	if len(xs) > 1 {
		q, _ := divmod(xs[0], xs[1])
		_ = math.Abs(float64(q))
	}
	return sum, joined
}
