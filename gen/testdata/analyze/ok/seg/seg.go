// Package seg holds segments whose inputs, outputs and discards the
// analysis of mbench gen computes.
package seg

import "math"

// scale is a constant: never an input.
const scale = 3

// limit is a package-level variable: never an input.
var limit = 10

// Sum reads xs and s, declared before it, and s is returned after it.
func Sum(xs []int) int {
	s := 0
	//mbench:bench Sum
	for _, x := range xs {
		s += x
	}
	return s
}

// Literals loops over literal inputs: the variables holding them are
// inputs, the constant stays a constant.
func Literals() int {
	xs := []int{3, 1, 2}
	t := 0
	//mbench:bench Literals
	for _, x := range xs {
		t += x*scale + limit
	}
	return t
}

// Mean only returns avg: sum and n are temporaries.
func Mean(xs []float64) float64 {
	var sum, avg float64
	n := 0
	//mbench:bench Mean
	{
		for _, x := range xs {
			sum += x
			n++
		}
		avg = sum / float64(n)
	}
	return avg
}

// MeanAll returns avg, sum and n: all outputs, avg depends on the others.
func MeanAll(xs []float64) (float64, float64, int) {
	var sum, avg float64
	n := 0
	//mbench:bench MeanAll
	{
		for _, x := range xs {
			sum += x
			n++
		}
		avg = sum / float64(n)
	}
	return avg, sum, n
}

// Count computes a result nobody reads.
func Count(xs []int) {
	//mbench:bench Count
	{
		n := 0
		for _, x := range xs {
			if x > 0 {
				n++
			}
		}
	}
}

// Cond may not assign y before reading it: y is an input.
func Cond(c bool, x int) int {
	y := 1
	//mbench:bench Cond
	{
		if c {
			y = x
		}
		x = y * 2
	}
	return x
}

// Def assigns t before reading it: t is no input.
func Def(x int) int {
	var t int
	//mbench:bench Def
	{
		t = x * 2
		x = t + 1
	}
	return x
}

// Both assigns y on both branches before reading it.
func Both(c bool, x int) int {
	var y int
	//mbench:bench Both
	{
		if c {
			y = x
		} else {
			y = -x
		}
		x = y + 1
	}
	return x
}

// Closure has a segment in a function literal, reading captured
// variables.
func Closure(xs []int) func() int {
	k := 2
	return func() int {
		m := 0
		//mbench:bench InClosure
		for _, x := range xs {
			m += x * k
		}
		return m
	}
}

// Nested holds a function literal in its segment; its return is not a
// jump out of the segment.
func Nested(xs []int) int {
	best := 0
	//mbench:bench Nested
	for _, x := range xs {
		sq := func(v int) int { return v * v }
		best = max(best, sq(x))
	}
	return best
}

func parse(s string) (int, error) { return len(s), nil }

// Drop drops results.
func Drop(s string) int {
	n := 0
	//mbench:bench Drop
	{
		parse(s)
		_ = math.Sqrt(float64(len(s)))
		n, _ = parse(s)
	}
	return n
}

// Decl declares its output in the marked statement.
func Decl(a, b float64) float64 {
	//mbench:bench Decl
	h := math.Sqrt(a*a + b*b)
	return h
}

// Point is a point.
type Point struct{ X, Y float64 }

// Move changes p's own fields, a copy: p is an output, not mutated.
func Move(p Point, d float64) Point {
	//mbench:bench Move
	p.X += d
	return p
}

// Norm is marked as a whole.
//
//mbench:bench Norm
func Norm(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x * x
	}
	return math.Sqrt(s)
}

// Scale is a method marked as a whole, with an unnamed parameter.
//
//mbench:bench Scale
func (p *Point) Scale(k float64, _ int) {
	p.X *= k
	p.Y *= k
}

// DivMod has unnamed results.
//
//mbench:bench DivMod
func DivMod(a, b int) (int, int) {
	return a / b, a % b
}

// Named has a named result the segment assigns.
func Named(xs []int) (n int) {
	//mbench:bench Named
	for range xs {
		n++
	}
	return
}

// Handler is a function literal at package level.
var Handler = func(xs []int) int {
	n := 0
	//mbench:bench Handler
	for _, x := range xs {
		switch {
		case x > 0:
			n += x
		default:
			n--
		}
	}
	return n
}

// Kinds switches on the type of a value the segment makes.
func Kinds(xs []int) int {
	n := 0
	//mbench:bench Kinds
	for i, x := range xs {
		var v any = x
		if i%2 == 0 {
			v = float64(x)
		}
		switch t := v.(type) {
		case int:
			n += t
		case float64:
			n += int(t)
		}
	}
	return n
}

// Fib has two outputs, each computed from the other's earlier value.
func Fib(n int) (int, int) {
	a, b := 0, 1
	//mbench:bench Fib
	for range n {
		a, b = b, a+b
	}
	return a, b
}

// Overwritten reads a, then gives it a value nothing else reads.
func Overwritten(x int) (int, int) {
	a := x
	var b int
	//mbench:bench Overwritten
	{
		b = a * 2
		a = 7
	}
	return a, b
}

// Partial assigns ascii on some paths only: on the others, ascii keeps
// its value from before the segment, an input.
func Partial(s string) bool {
	ascii := true
	//mbench:bench Partial
	for _, c := range s {
		if c >= 0x80 {
			ascii = false
		}
	}
	return ascii
}

// SwitchBreak leaves the switch before assigning r on one path.
func SwitchBreak(c, d bool) int {
	r := 1
	//mbench:bench SwitchBreak
	switch {
	case c:
		if d {
			break
		}
		r = 2
	default:
		r = 3
	}
	return r
}

// SkipPost reads t in the loop's post statement, which a continue
// reaches before t is assigned.
func SkipPost(xs []int) int {
	t, n := 0, 0
	//mbench:bench SkipPost
	for i := 0; i < len(xs); i, n = i+1, n+t {
		if xs[i] < 0 {
			continue
		}
		t = xs[i]
	}
	return n
}

// Incr reads x and y through x++ and y += 2.
func Incr(x, y int) (int, int) {
	//mbench:bench Incr
	{
		x++
		y += 2
	}
	return x, y
}
