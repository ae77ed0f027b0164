// Package suite is a small example benchmark suite for mbench: a few
// familiar ways to do the same job, fast and slow, so that a first run shows
// what mbench reports.
package suite

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// ConcatPlus joins n numbers with the + operator, reallocating each time.
func ConcatPlus(n int) string {
	s := ""
	for i := range n {
		s += strconv.Itoa(i) + ","
	}
	return s
}

// ConcatBuilder joins n numbers with a strings.Builder, grown once to
// the length of the result.
func ConcatBuilder(n int) string {
	var b strings.Builder
	size := 0
	for i := range n {
		size += len(strconv.Itoa(i)) + 1
	}
	b.Grow(size)
	for i := range n {
		b.WriteString(strconv.Itoa(i))
		b.WriteByte(',')
	}
	return b.String()
}

// Record is a small structure to encode.
type Record struct {
	ID    int               `json:"id"`
	Name  string            `json:"name"`
	Tags  []string          `json:"tags"`
	Attrs map[string]string `json:"attrs"`
}

// Encode marshals r to JSON.
func Encode(r *Record) ([]byte, error) { return json.Marshal(r) }

// SortCopy sorts a copy of xs.
func SortCopy(xs []int) []int {
	ys := slices.Clone(xs)
	slices.Sort(ys)
	return ys
}

// ContainsLinear reports whether x is in xs by scanning it.
func ContainsLinear(xs []int, x int) bool { return slices.Contains(xs, x) }

// ContainsMap reports whether x is a key of m.
func ContainsMap(m map[int]struct{}, x int) bool {
	_, ok := m[x]
	return ok
}
