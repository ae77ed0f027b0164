// Package c is the code under test for constfold.
package c

import (
	"math"
	"reflect"
	"strconv"
	"testing"
)

var (
	global []int
	table  = [4]int{1, 2, 3, 4}
)

func Add(x, y int) int { return x + y }

// Mix costs a multiplication and an addition.
func Mix(x, y int) int { return x*31 + y }

// BFloat16ToFloat32 is a shift and a bit cast (ClickHouse/ch-go).
func BFloat16ToFloat32(v uint16) float32 { return math.Float32frombits(uint32(v) << 16) }

func Scale(x float64, k float64) float64 { return x * k }

type Celsius float64

func (c Celsius) Fahrenheit() float64 { return float64(c)*9/5 + 32 }

// Not foldable: a loop, a package-level variable, an effect, no
// arguments, too large, or not inlinable.

func SumTo(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i
	}
	return s
}

func Lookup(i int) int { return table[i&3] }

func Record(x int) int {
	global = append(global, x)
	return x
}

func Answer() int { return 42 }

// Equal is an assertion helper: it compares through reflection and reports
// to the test, so it does not fold.
func Equal(tb testing.TB, want, got any) {
	if !reflect.DeepEqual(want, got) {
		tb.Errorf("got %v, want %v", got, want)
	}
}

// Unbox takes an interface and folds.
func Unbox(x any) int {
	if v, ok := x.(int); ok {
		return v + 1
	}
	return 0
}

func Format(x int) string { return strconv.Itoa(x) }

//go:noinline
func Opaque(x int) int { return x * 3 }

func Big(x int) int {
	a := x*3 + 1
	b := a*5 + x - 7
	c := b*a + a*x - b
	d := c*c + b*b + a*a + x*x
	e := d - c + b - a + x
	f := e*e - d*d + c*c - b*b
	g := f + e + d + c + b + a
	h := g*2 + f*3 + e*4 + d*5
	return h + g + f + e + d + c + b + a
}

// Constructors that return a fresh heap object are not foldable: newTree
// and constructSingleDimensionInterval of Workiva augmentedtree
// (atree_test.go:280, :299), newImmutableRangeTree of Workiva rangetree
// (immutable_test.go:149, :168).

type tree struct {
	dims  int
	count int
}

func newTree(dims int) *tree { return &tree{dims: dims} }

func (t *tree) Len() int { return t.count }

type dimension struct{ low, high int }

type mockInterval struct{ dims []*dimension }

func constructSingleDimensionInterval(low, high, id int) *mockInterval {
	return &mockInterval{[]*dimension{{low, high + id}}}
}

type immutableRangeTree struct{ number uint64 }

func newImmutableRangeTree(n uint64) *immutableRangeTree {
	return &immutableRangeTree{number: n}
}

// A value result that holds a fresh pointer is not a constant either.

type handle struct{ t *tree }

func newHandle(dims int) handle { return handle{t: &tree{dims: dims}} }

// A trivial constructor, a single return of a composite literal of its
// parameters (newip4i_v4 of go4.org/netipx netipx_test.go), is setup: its
// folding saves stores, not computation. One that computes is reported.

type ip4 struct{ b [4]byte }

func newIP4(a, b, c, d byte) ip4 { return ip4{b: [4]byte{a, b, c, d}} }

func newIP4Shifted(a, b, c, d byte) ip4 { return ip4{[4]byte{a<<1 | 1, b, c, d}} }

type pair struct{ x, y int }

func mkPair(x int) pair {
	return pair{x: x, y: 1}
}

// Callees that compute nothing: a conversion between types of the same
// representation (ToInteger of dop251/goja) and a selection.

type valueInt int64

func (i valueInt) ToInteger() int64 { return int64(i) }

func First(a, b int) int { return a }
