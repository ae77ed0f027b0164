// Package loops holds loops for mbench gen -all-loops.
package loops

var table [4]int

func init() {
	for i := range table {
		table[i] = i
	}
}

// T has methods with loops.
type T struct{ xs []int }

// Sum has nested loops.
func (t *T) Sum() int {
	s := 0
	for _, x := range t.xs {
		for i := 0; i < x; i++ {
			s++
		}
	}
	return s
}

// G is generic.
type G[E any] struct{ es []E }

// Len counts.
func (g G[E]) Len() int {
	n := 0
	for range g.es {
		n++
	}
	return n
}

// Lit has a loop in a function literal.
func Lit(xs []int) func() int {
	return func() int {
		m := 0
		for _, x := range xs {
			m = max(m, x)
		}
		return m
	}
}
