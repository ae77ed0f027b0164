// Package a is the code under test: pure and impure functions.
package a

import (
	"fmt"
	"math"
	"strings"
	"unsafe"
)

var (
	global []int
	table  = [4]int{1, 2, 3, 4}
)

func Add(x, y int) int { return x + y }

func Square(x float64) float64 { return x * x }

func Hypot(x, y float64) float64 { return math.Sqrt(Square(x) + Square(y)) }

func SumTo(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i
	}
	return s
}

func Lookup(i int) int { return table[i&3] }

func DivMod(a, b int) (int, int) { return a / b, a % b }

func Double(x int) int {
	if x < 0 {
		panic("negative")
	}
	return 2 * x
}

func Swap[T any](a, b T) (T, T) { return b, a }

type Point struct{ X, Y float64 }

func (p Point) Norm() float64 { return math.Sqrt(p.X*p.X + p.Y*p.Y) }

// Scale writes through its receiver.
func (p *Point) Scale(k float64) *Point {
	p.X *= k
	p.Y *= k
	return p
}

type Celsius float64

func (c Celsius) Fahrenheit() float64 { return float64(c)*9/5 + 32 }

type Shape interface{ Area() float64 }

type Square2 struct{ Side float64 }

func (s Square2) Area() float64 { return s.Side * s.Side }

// Impure, or calls that survive: none of these may be reported.

func Record(x int) int {
	global = append(global, x)
	return x
}

func Print(x int) int {
	fmt.Println(x)
	return x
}

func Set(p *int, v int) int {
	*p = v
	return v
}

func Concat(a, b string) string { return a + b }

func Upper(s string) string { return strings.ToUpper(s) }

func Count(m map[string]int, k string) int { return m[k] }

//go:noinline
func Opaque(x int) int { return x * 3 }

func Fib(n int) int {
	if n < 2 {
		return n
	}
	return Fib(n-1) + Fib(n-2)
}

// Big is pure but too large to inline.
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

// Loops that accumulate into the result: the loop body is deleted.

func popcntSlice(s []uint64) (cnt uint64) {
	for _, x := range s {
		cnt += x & 1
	}
	return cnt
}

type Bits struct{ words []uint64 }

// Count is BitSet.Count of bits-and-blooms/bitset: the accumulating loop is in a callee.
func (s *Bits) Count() uint {
	if s != nil && s.words != nil {
		return uint(popcntSlice(s.words))
	}
	return 0
}

// ParseDigits is parseIntOverflows of buger/jsonparser bytes_test.go: the
// digit check stays, the v = 10*v + c accumulation is deleted.
func ParseDigits(b []byte) (v int64, ok bool) {
	for _, c := range b {
		if c >= '0' && c <= '9' {
			v = 10*v + int64(c-'0')
		} else {
			return 0, false
		}
	}
	return v, true
}

// Calls that survive dead-code elimination: the loop's work is its control
// flow, or the body compares strings through the runtime.

// TokenEnd is tokenEnd of buger/jsonparser parser.go: a search loop.
func TokenEnd(data []byte) int {
	for i, c := range data {
		if c != ' ' && c != ',' && c != '}' {
			continue
		}
		return i
	}
	return len(data)
}

// Intersects is intersectsSparseBitArray of Workiva bitarray: an early
// return false.
func (s *Bits) Intersects(o *Bits) bool {
	for i := range s.words {
		if i < len(o.words) && s.words[i]&o.words[i] != 0 {
			return true
		}
	}
	return false
}

// Estimate is cmSketch.Estimate of dgraph-io/ristretto: a minimum through
// if.
func Estimate(rows *[4][]byte, h uint64) int64 {
	m := byte(255)
	for i := range rows {
		if val := rows[i][h&7]; val < m {
			m = val
		}
	}
	return int64(m)
}

// EqualStr is equalStr of buger/jsonparser bytes_unsafe.go: == on two
// non-constant strings calls runtime.memequal.
func EqualStr(b *[]byte, s string) bool { return *(*string)(unsafe.Pointer(b)) == s }

func SameStr(a, b string) bool { return a == b }

// A trip counter only adds a constant each trip: the walk of
// count_raw_tape in minio/simdjson-go ndjson_test.go, whose next index is
// loaded from the tape, stays when count is dead.
func CountTape(tape []uint64) (count int) {
	for idx := uint64(0); idx < uint64(len(tape)); count++ {
		idx = tape[idx] & 0xffffff
	}
	return
}

// CountDown counts trips downwards from a constant.
func CountDown(next []int) int {
	n := 0
	for i := 0; i < len(next); i = next[i] {
		n -= 2
	}
	return n
}

// CountOdd bumps its counter under a condition: the test feeds only the
// counter, so the loop body goes.
func CountOdd(xs []uint64) (n int) {
	for _, x := range xs {
		if x&1 != 0 {
			n++
		}
	}
	return n
}

// Weight adds a loaded value each trip: accumulated work, not a count.
func Weight(tape []uint64) (w uint64) {
	for idx := uint64(0); idx < uint64(len(tape)); w += 2 * idx {
		idx = tape[idx] & 0xffffff
	}
	return
}

// Selection is goquery's Selection: End returns the pointer it has just
// nil-checked, and allocates on the other arm; Get returns a load that
// feeds no branch.
type Selection struct {
	Nodes   []*int
	doc     *int
	prevSel *Selection
}

func newEmpty(doc *int) *Selection { return &Selection{nil, doc, nil} }

func (s *Selection) End() *Selection {
	if s.prevSel != nil {
		return s.prevSel
	}
	return newEmpty(s.doc)
}

func (s *Selection) Get(index int) *int {
	if index < 0 {
		index += len(s.Nodes)
	}
	return s.Nodes[index]
}

// OrNil returns the checked pointer or nil: with nothing allocated on the
// other arm, the branch only merges two values and goes with the result.
func (s *Selection) OrNil() *Selection {
	if s.prevSel != nil {
		return s.prevSel
	}
	return nil
}

// Max returns one of the values it compares: the same.
func Max(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// Push allocates on every path: the allocation goes with the result.
func (s *Selection) Push(i int) *Selection {
	return &Selection{s.Nodes[i : i+1], s.doc, s}
}

// Accessors compute nothing: Value is the iterator accessor of
// clipperhouse/uax29 (return iter.data[iter.start:iter.pos]); Name and
// Width return a constant and a package-level variable (GormDataType of
// golang-module/carbon, UintptrBits of modernc.org/mathutil).

type Iter struct {
	data       []byte
	start, pos int
}

func NewIter(data []byte) *Iter { return &Iter{data: data} }

// Next advances the iterator: it writes through its receiver.
func (it *Iter) Next() bool {
	if it.pos >= len(it.data) {
		return false
	}
	it.start = it.pos
	it.pos++
	return true
}

func (it *Iter) Value() []byte { return it.data[it.start:it.pos] }

func (it *Iter) Name() string { return "iter" }

var width = 64

func Width() int { return width }

type Pair struct{ A, B int }

func MakePair(a, b int) Pair { return Pair{a + 1, b} }

func (p Pair) First() int { return p.A }

var log2 = [256]int{1: 0, 2: 1, 4: 2}

// Log2Byte is a table lookup at a computed index (modernc.org/mathutil):
// the lookup is the work.
func Log2Byte(b byte) int { return log2[b] }

// Tuple holds offsets that NewTuple computes (ExecutionTuple of k6).
type Tuple struct {
	offsets [][]int64
	index   int
}

// NewTuple does the work: it is too large to inline and allocates.
func NewTuple(n int) (*Tuple, error) {
	t := &Tuple{offsets: make([][]int64, n), index: n / 2}
	for i := range t.offsets {
		t.offsets[i] = make([]int64, i+1)
		for j := range t.offsets[i] {
			t.offsets[i][j] = int64(i * j)
		}
	}
	return t, nil
}

// Offsets is a lookup at a field's index: it only loads.
func (t *Tuple) Offsets() (int64, []int64) {
	o := t.offsets[t.index]
	return o[0], o[1:]
}

// TagKey is AttrKeyForTag of DataDog/dd-trace-go: constants chosen by a
// string switch, whose comparisons stay when the result is dead.
func TagKey(tag string) (int, bool) {
	switch tag {
	case "env":
		return 1, true
	case "version":
		return 2, true
	case "language":
		return 3, true
	}
	return 0, false
}

// Level's three-case switch is deleted whole when its result is dead.
func Level(x int) int {
	switch x {
	case 1:
		return 10
	case 7:
		return 20
	case 9:
		return 30
	}
	return 0
}

// SmallSet and NewPresorted are istio's smallset: a trivial constructor
// that wraps its parameter computes nothing a dead result could lose.
type SmallSet[T comparable] struct{ items []T }

func NewPresorted[T comparable](items ...T) SmallSet[T] { return SmallSet[T]{items: items} }
