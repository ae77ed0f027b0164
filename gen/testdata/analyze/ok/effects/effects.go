// Package effects holds segments that change state, and segments that
// get no benchmark.
package effects

import (
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"time"
	"unsafe"
)

// Point is a point.
type Point struct{ X, Y int }

// counter has unexported fields, in the segment's own package.
type counter struct{ n int }

var (
	total int
	cache = map[string]int{}
	last  *Point
)

// SortInPlace sorts its input in place: the smart-reset case of AutoJMH.
func SortInPlace(xs []int) int {
	//mbench:bench SortInPlace
	sort.Ints(xs)
	return xs[0]
}

// SlicesSort sorts with package slices.
func SlicesSort(xs []string) string {
	//mbench:bench SlicesSort
	slices.Sort(xs)
	return xs[0]
}

// Store writes elements of its input.
func Store(xs []int) {
	//mbench:bench Store
	for i := range xs {
		xs[i] *= 2
	}
}

// Fill fills a map.
func Fill(m map[string]int, keys []string) {
	//mbench:bench Fill
	for i, k := range keys {
		m[k] = i
	}
}

// Through stores through a pointer.
func Through(p *Point, d int) {
	//mbench:bench Through
	p.X += d
}

// Alias stores through a copy of the slice header.
func Alias(xs []int) {
	//mbench:bench Alias
	{
		ys := xs[1:]
		ys[0] = 7
	}
}

// RangePtr changes the points its input refers to.
func RangePtr(ps []*Point) {
	//mbench:bench RangePtr
	for _, p := range ps {
		p.Y++
	}
}

func sumOf(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

func zero(xs []int) {
	for i := range xs {
		xs[i] = 0
	}
}

func indirect(xs []int) int {
	zero(xs)
	return len(xs)
}

// Calls passes its inputs to functions of the package that read (a),
// write (b) or call a writer (c), and to one of the standard library
// that only reads (d).
func Calls(a, b, c, d []int) int {
	n := 0
	//mbench:bench Calls
	{
		n = sumOf(a)
		zero(b)
		n += indirect(c)
		if slices.Contains(d, 3) {
			n++
		}
	}
	return n
}

// Append appends to its input's backing array.
func Append(xs []int) []int {
	//mbench:bench Append
	xs = append(xs, 1)
	return xs
}

// Array changes an array value, its own copy.
func Array(a [3]int) [3]int {
	//mbench:bench Array
	a[0] = 1
	return a
}

// Own reads a struct of its package with unexported fields.
func Own(c counter) int {
	n := 0
	//mbench:bench Own
	n = c.n * 2
	return n
}

// Return returns from inside the segment.
func Return(xs []int) int {
	//mbench:bench Return
	for _, x := range xs {
		if x < 0 {
			return -1
		}
	}
	return 0
}

// BreakOuter breaks out to an outer label: a case AutoJMH rejects.
func BreakOuter(rows [][]int) int {
	n := 0
outer:
	for _, row := range rows {
		//mbench:bench BreakOuter
		for _, x := range row {
			if x == 0 {
				break outer
			}
			n++
		}
	}
	return n
}

// BreakInner breaks out of a loop inside the segment only.
func BreakInner(rows [][]int) int {
	n := 0
	//mbench:bench BreakInner
	for _, row := range rows {
	inner:
		for _, x := range row {
			switch {
			case x == 0:
				break inner
			case x < 0:
				continue
			}
			n++
		}
	}
	return n
}

// Continue continues the loop around the segment.
func Continue(xs []int) int {
	n := 0
	for _, x := range xs {
		//mbench:bench Continue
		if x < 0 {
			continue
		}
		n++
	}
	return n
}

// Goto jumps to a label outside the segment.
func Goto(xs []int) int {
	n := 0
	//mbench:bench Goto
	for _, x := range xs {
		if x < 0 {
			goto done
		}
		n++
	}
done:
	return n
}

// Safe recovers the panics of its segment.
func Safe(xs []int, i int) (v int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	//mbench:bench Safe
	v = xs[i]
	return v, nil
}

// Chan reads a channel's length.
func Chan(ch chan int) int {
	n := 0
	//mbench:bench Chan
	n = len(ch) + 1
	return n
}

// Func calls a function input.
func Func(f func(int) int, x int) int {
	y := 0
	//mbench:bench Func
	y = f(x) + 1
	return y
}

// Reader reads from an interface.
func Reader(r io.Reader, buf []byte) int {
	n := 0
	//mbench:bench Reader
	n, _ = r.Read(buf)
	return n
}

// File reads a file's name.
func File(f *os.File) int {
	n := 0
	//mbench:bench File
	n = len(f.Name())
	return n
}

// Times holds a struct of another package with unexported fields.
type Times struct{ At []time.Time }

// Time reads times.
func Time(ts Times) int64 {
	var s int64
	//mbench:bench Time
	for _, t := range ts.At {
		s += t.Unix()
	}
	return s
}

// Generic is generic.
func Generic[T int | float64](xs []T) T {
	var s T
	//mbench:bench Generic
	for _, x := range xs {
		s += x
	}
	return s
}

// WholeGeneric is generic.
//
//mbench:bench WholeGeneric
func WholeGeneric[T any](x T) T { return x }

// Global adds to a package-level variable.
func Global(xs []int) {
	//mbench:bench Global
	for _, x := range xs {
		total += x
	}
}

// GlobalMap fills a package-level map.
func GlobalMap(k string) {
	//mbench:bench GlobalMap
	cache[k] = len(k)
}

// GlobalAlias stores through a pointer read from a package-level
// variable.
func GlobalAlias() {
	//mbench:bench GlobalAlias
	{
		p := last
		p.X = 1
	}
}

// Go starts a goroutine.
func Go(xs []int) {
	//mbench:bench Go
	go sumOf(xs)
}

// Defer defers a call.
//
//mbench:bench Defer
func Defer(xs []int) {
	defer zero(xs)
}

// Send sends on a channel.
func Send(ch chan int, x int) {
	//mbench:bench Send
	ch <- x
}

// Parse returns an error: an interface the recorder cannot rebuild.
//
//mbench:bench Parse
func Parse(s string) (int, error) {
	if s == "" {
		return 0, fmt.Errorf("empty")
	}
	return len(s), nil
}

// Receive receives from a channel.
func Receive(ch chan int) int {
	n := 0
	//mbench:bench Receive
	n = <-ch
	return n
}

// Select selects.
func Select(a, b chan int) int {
	n := 0
	//mbench:bench Select
	select {
	case n = <-a:
	case n = <-b:
	}
	return n
}

// Raw reads through an unsafe.Pointer.
func Raw(p unsafe.Pointer) int {
	n := 0
	//mbench:bench Raw
	n = *(*int)(p)
	return n
}

// Errs counts the non-nil errors of a slice: errors inside another value
// stay unrecordable.
func Errs(errs []error) int {
	n := 0
	//mbench:bench Errs
	for _, err := range errs {
		if err != nil {
			n++
		}
	}
	return n
}

// Stringer reads an interface other than error.
func Stringer(s fmt.Stringer, err error) int {
	n := 0
	//mbench:bench Stringer
	if err == nil {
		n = len(s.String())
	}
	return n
}
