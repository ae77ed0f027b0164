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

func Global() int { return g } // want Global:"^pure, selects$"

func Table(i int) int { return tbl[i&1] } // want Table:"^pure$"

func Local(x int) int { // want Local:"^pure, foldable$"
	var a [2]int
	a[0] = x
	p := &a
	return p[0] + a[1]
}

type P struct{ x int }

func NewP(x int) *P { return &P{x} } // want NewP:"^pure$"

func (p *P) Get() int { return p.x } // want Get:"^pure, foldable, selects$"

// Checked may panic, an effect: no fact.
func Checked(x int) int {
	if x < 0 {
		panic("negative")
	}
	return x
}

// Comparison with a constant string is inlined; a loop that accumulates
// into its result, directly or through a callee, is removable.

func IsKey(s string) bool { return s == "key" } // want IsKey:"^pure, foldable$"

func Total(xs []uint64) int { // want Total:"^pure$"
	if xs == nil {
		return 0
	}
	return int(popcnt(xs))
}

func popcnt(xs []uint64) (n uint64) { // want popcnt:"^pure$"
	for _, x := range xs {
		n += x & 1
	}
	return n
}

// A composite literal that does not escape may still fold; one that
// escapes is a fresh heap object, not a constant (newTree(1) in Workiva
// augmentedtree/atree_test.go:280).

func Fresh(x int) int { // want Fresh:"^pure, foldable$"
	p := &P{x}
	return p.x
}

type W struct{ p *P }

func Wrap(x int) W { return W{p: &P{x}} } // want Wrap:"^pure$"

// A loop whose work is its control flow keeps its loads and branches:
// a search (tokenEnd in buger/jsonparser), an early exit
// (intersectsSparseBitArray in Workiva bitarray), a minimum through if
// (cmSketch.Estimate in dgraph-io/ristretto).

func Search(data []byte) int { // want Search:"^pure, loop without accumulator$"
	for i, c := range data {
		if c == ',' || c == '}' {
			return i
		}
	}
	return len(data)
}

func Disjoint(a, b []uint64) bool { // want Disjoint:"^pure, loop without accumulator$"
	for i := range a {
		if a[i]&b[i] != 0 {
			return false
		}
	}
	return true
}

func MinOf(rows *[4]byte) int64 { // want MinOf:"^pure, loop without accumulator$"
	m := byte(255)
	for i := range rows {
		if v := rows[i]; v < m {
			m = v
		}
	}
	return int64(m)
}

func CallsSearch(data []byte) int { return Search(data) + 1 } // want CallsSearch:"^pure, loop without accumulator$"

func Generic[T int | float64](a, b T) T { return a*b + a } // want Generic:"^pure, foldable$"

// A trip counter is not accumulated work: a walk whose next index is
// loaded in the loop (count_raw_tape in minio/simdjson-go) keeps its loads
// and branches. A counter bumped under a condition is work.

func Walk(tape []uint64) (n int) { // want Walk:"^pure, loop without accumulator$"
	for i := uint64(0); i < uint64(len(tape)); n++ {
		i = tape[i] & 0xff
	}
	return
}

func CountIf(xs []uint64) (n int) { // want CountIf:"^pure$"
	for _, x := range xs {
		if x&1 != 0 {
			n++
		}
	}
	return n
}

// A value tested in a branch and returned, with an allocation on the other
// arm (End in PuerkitoBio/goquery filter.go), keeps its load and branch.
// Returning nil instead, or an untested load, does not.

type Sel struct {
	nodes []*P
	prev  *Sel
}

func newSel() *Sel { return &Sel{} } // want newSel:"^pure$"

func (s *Sel) End() *Sel { // want End:"^pure, returns checked value$"
	if s.prev != nil {
		return s.prev
	}
	return newSel()
}

func (s *Sel) Prev() *Sel { // want Prev:"^pure$"
	if s.prev != nil {
		return s.prev
	}
	return nil
}

func (s *Sel) Get(i int) *P { // want Get:"^pure$"
	if i < 0 {
		i += len(s.nodes)
	}
	return s.nodes[i]
}

// A single return of a composite literal of the parameters is a trivial
// constructor (newip4i_v4 in go4.org/netipx netipx_test.go).

type ip4 struct {
	b    [4]byte
	zone int
}

func IP4(a, b, c, d byte) ip4 { return ip4{b: [4]byte{a, b, c, d}} } // want IP4:"^pure, foldable, literal$"

func IP4Zone(a byte) ip4 { return ip4{[4]byte{a, 0, 0, 1}, -1} } // want IP4Zone:"^pure, foldable, literal$"

func IP4Shift(a byte) ip4 { return ip4{b: [4]byte{a << 1}} } // want IP4Shift:"^pure, foldable$"

// Accessors select without computing (Value of clipperhouse/uax29's
// iterators), as do functions that return a constant or a package-level
// variable (GormDataType of golang-module/carbon, UintptrBits of
// modernc.org/mathutil).

type Iter struct {
	data       []byte
	start, pos int
	err        *P
	ok         bool
}

func (it *Iter) Value() []byte { return it.data[it.start:it.pos] } // want Value:"^pure, selects$"

func (it *Iter) First() byte { return it.Value()[0] } // want First:"^pure, selects$"

func (it *Iter) Len() int { return len(it.data) } // want Len:"^pure, foldable, selects$"

func (it *Iter) OK() int { // want OK:"^pure, foldable, selects$"
	if it.ok {
		return it.pos
	}
	return it.start
}

func (it *Iter) Checked() int { // want Checked:"^pure, foldable$"
	if it.err != nil {
		return 0
	}
	return it.pos
}

func (it *Iter) Rest() []byte { return it.data[it.pos+1:] } // want Rest:"^pure$"

func (it *Iter) Kind() string { return "iter" } // want Kind:"^pure, foldable, selects$"

// A lookup at a computed index only loads, but does not select: it is
// the work of Log2Byte of modernc.org/mathutil (return log2[b]).
func TableAt(i int) int { return tbl[i] } // want TableAt:"^pure, loads$"

// A lookup through another lookup, at a field's index (GetStripedOffsets
// of k6), loads too.
func (it *Iter) At() byte { return it.data[it.pos] } // want At:"^pure, foldable, loads$"

func (it *Iter) AtAgain() byte { return it.At() } // want AtAgain:"^pure, foldable, loads$"

// Arithmetic on the index is computation.
func TableNext(i int) int { return tbl[i+1] } // want TableNext:"^pure$"

func TableHead() int { return tbl[0] } // want TableHead:"^pure, selects$"

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

// Comparing two non-constant strings calls runtime.memequal or
// runtime.cmpstring (equalStr in buger/jsonparser bytes_unsafe.go).
func EqualStr(a, b string) bool { return a == b }

func LessStr(a, b string) bool { return a < b }

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

type Pair struct{ A, B int }

func (p Pair) First() int { return p.A } // want First:"^pure, foldable, selects$"

// Constants chosen by a switch that the compiler lowers to a binary
// search keep their comparisons when the result is dead (AttrKeyForTag
// of DataDog/dd-trace-go); a short integer switch is deleted whole, and
// so is a switch whose results are computed.

func TagKey(tag string) (int, bool) { // want TagKey:"^pure, foldable, switch$"
	switch tag {
	case "env":
		return 1, true
	case "version":
		return 2, true
	}
	return 0, false
}

func Level(x int) int { // want Level:"^pure, foldable$"
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

func Opcode(x int) int { // want Opcode:"^pure, foldable, switch$"
	switch x {
	case 1, 7:
		return 10
	case 9, 15:
		return 20
	}
	return 0
}

func Scaled(tag string, x int) int { // want Scaled:"^pure, foldable$"
	switch tag {
	case "double":
		return 2 * x
	case "triple":
		return 3 * x
	}
	return x
}
