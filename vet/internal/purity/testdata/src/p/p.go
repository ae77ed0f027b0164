// Package p has one function for each rule of the purity summary.
package p

import (
	"fmt"
	"math"
)

var (
	g   int
	tbl = [2]int{1, 2}
)

func Add(x, y int) int { return x + y } // want Add:"^pure, foldable$"

func Hyp(x, y float64) float64 { return math.Sqrt(x*x + y*y) } // want Hyp:"^pure, foldable$"

func Via(x int) int { return Add(x, 1) * 2 } // want Via:"^pure, foldable$"

func Sum(n int) int { // want Sum:"^pure$"
	s := 0
	for i := 0; i < n; i++ {
		s += i
	}
	return s
}

func Global() int { return g } // want Global:"^pure$"

func Table(i int) int { return tbl[i&1] } // want Table:"^pure$"

func Local(x int) int { // want Local:"^pure, foldable$"
	var a [2]int
	a[0] = x
	p := &a
	return p[0] + a[1]
}

type P struct{ x int }

func NewP(x int) *P { return &P{x} } // want NewP:"^pure, foldable$"

func (p *P) Get() int { return p.x } // want Get:"^pure, foldable$"

func Checked(x int) int { // want Checked:"^pure, foldable$"
	if x < 0 {
		panic("negative")
	}
	return x
}

func Generic[T int | float64](a, b T) T { return a*b + a } // want Generic:"^pure, foldable$"

// Mid is within the budget, but three inlined copies of it are not.
func Mid(x int) int { // want Mid:"^pure, foldable$"
	a := x*3 + 1
	b := a*5 + x - 7
	c := b*a + a*x - b
	return a + b + c
}

func Top(x int) int { return Mid(x) + Mid(x+1) + Mid(x+2) }

// No summary for any of the following.

func (p *P) Set(x int) int {
	p.x = x
	return x
}

func SetGlobal(x int) int {
	g = x
	return x
}

func Send(c chan int, x int) int {
	c <- x
	return x
}

func Recv(c chan int) int { return <-c }

func Closure(x int) int {
	f := func() int { return x }
	return f()
}

func Map(m map[int]int, k int) int { return m[k] }

func Concat(a, b string) string { return a + b }

func Bytes(s string) []byte { return []byte(s) }

func Append(s []int, x int) []int { return append(s, x) }

func Make(n int) []int { return make([]int, n) }

func Iface(x int) any { return x }

type Shape interface{ Area() float64 }

func Invoke(s Shape) float64 { return s.Area() }

func Dynamic(f func() int) int { return f() }

func Print(x int) int {
	fmt.Println(x)
	return x
}

//go:noinline
func Noinline(x int) int { return x }

func Recursive(n int) int {
	if n < 2 {
		return n
	}
	return Recursive(n-1) + Recursive(n-2)
}

func NoResult(x int) { _ = x }

func Deferred(x int) (r int) {
	defer func() { r++ }()
	return x
}
