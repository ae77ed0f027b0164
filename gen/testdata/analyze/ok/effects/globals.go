package effects

import (
	"sort"
	"strings"
	"unicode"
)

var table = []int{3, 1, 2}

var sb strings.Builder

// GlobalRead reads package-level tables through calls that only read
// them.
func GlobalRead(s string) int {
	n := 0
	//mbench:bench GlobalRead
	for _, r := range s {
		if unicode.Is(unicode.Latin, r) {
			n += sumOf(table)
		}
	}
	return n
}

// GlobalSort sorts a package-level slice.
func GlobalSort() {
	//mbench:bench GlobalSort
	sort.Ints(table)
}

// GlobalMethod calls a method with a pointer receiver on a
// package-level variable.
func GlobalMethod(s string) {
	//mbench:bench GlobalMethod
	sb.WriteString(s)
}

// GlobalWriter passes a package-level slice to a function of the
// package that writes it.
func GlobalWriter() {
	//mbench:bench GlobalWriter
	zero(table)
}

// Addr reads a uintptr, an address the recorder refuses.
func Addr(p uintptr) uintptr {
	q := p
	//mbench:bench Addr
	q += 8
	return q
}

type guard struct{ err error }

func (g *guard) catch() {
	if r := recover(); r != nil {
		g.err = nil
	}
}

// Guarded defers a method of the package that recovers.
func Guarded(xs []int) int {
	var g guard
	defer g.catch()
	n := 0
	//mbench:bench Guarded
	for _, x := range xs {
		n += 100 / x
	}
	return n
}

var kept []int

func keep(xs []int) { kept = xs }

func count(xs []int, n int) int {
	if n == 0 {
		return 0
	}
	return len(xs) + count(xs, n-1)
}

// Escape passes a to a function that keeps it (a may be changed later)
// and b to a recursive function that only reads it.
func Escape(a, b []int) int {
	n := 0
	//mbench:bench Escape
	{
		keep(a)
		n = count(b, 3)
	}
	return n
}

// Shadowed breaks out of the loop around the segment where its output n
// is shadowed.
func Shadowed(rows [][]int) int {
	n := 0
outer:
	for _, row := range rows {
		//mbench:bench Shadowed
		for _, x := range row {
			n += x
			if x < 0 {
				n := -x
				if n > 9 {
					break outer
				}
			}
		}
	}
	return n
}
