// Package fixture has marked segments for the tests of mbench gen's
// recording.
package fixture

import (
	"errors"
	"sort"
	"strconv"
)

// Sum adds xs.
func Sum(xs []int) int {
	total := 0
	//mbench:bench SumLoop
	for _, x := range xs {
		total += x
	}
	return total
}

// Median sorts xs in place and returns its middle element.
//
//mbench:bench Median
func Median(xs []float64) float64 {
	sort.Float64s(xs)
	return xs[len(xs)/2]
}

type point struct {
	x, y float64
	name string
}

// scale is a method with an unnamed result and a blank parameter.
//
//mbench:bench Scale
func (p point) scale(k float64, _ string) point {
	return point{p.x * k, p.y * k, p.name}
}

// Triangle is never called by the tests.
func Triangle(n int) int {
	r := 0
	//mbench:bench Never
	for i := 0; i < n; i++ {
		r += i
	}
	return r
}

// Apply calls f on each element, through a function literal holding a
// segment.
func Apply(xs []int) []int {
	double := func(x int) int {
		y := 0
		//mbench:bench InLiteral
		y = x * 2
		return y
	}
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = double(x)
	}
	return out
}

// Positives counts the positive elements of xs, a result nobody reads,
// declared inside the marked block.
func Positives(xs []int) {
	//mbench:bench Positives
	{
		n := 0
		for _, x := range xs {
			if x > 0 {
				n++
			}
		}
	}
}

// Atoi parses s; the tests give it numbers and words. A set whose error
// is not nil cannot be recorded.
//
//mbench:bench Atoi
func Atoi(s string) (int, error) {
	return strconv.Atoi(s)
}

// Check fails on every value the tests give it.
func Check(n int) error {
	var err error
	//mbench:bench Check
	if n < 0 {
		err = errors.New("negative")
	}
	return err
}
