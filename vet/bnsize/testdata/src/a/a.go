package a

import (
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
)

var sink int

// Fib's cost grows exponentially with n: n is a problem size.
func Fib(n int) int {
	if n < 2 {
		return n
	}
	return Fib(n-1) + Fib(n-2)
}

// Sum loops over its input, not over a count.
func Sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

func Parse(s string) int { return strings.Count(s, "a") }

// Repeat runs an operation n times: n is a loop count.
func Repeat(n int) { // want Repeat:`loopCount\[0\]`
	for i := 0; i < n; i++ {
		sink += i
	}
}

// RepeatVia passes its count on to Repeat.
func RepeatVia(n int) { Repeat(n) } // want RepeatVia:`loopCount\[0\]`

// Fill writes every element.
func Fill(p []byte) {
	for i := range p {
		p[i] = byte(i)
	}
}

type Ring struct{ buf []int }

func NewRing(size int) *Ring { return &Ring{buf: make([]int, 0, size)} }
func (r *Ring) Push(x int)   { r.buf = append(r.buf, x) }
func SumTo(n int) int        { return n * (n - 1) / 2 }
func Lookup(k int) int       { return k & 7 }

func run(b *testing.B, n int) { Repeat(n) } // want run:`loopCount\[1\]`

type Hasher struct{ n int }

func (h *Hasher) Write(p []byte) { h.n += len(p) }

// Builder reserves room before appends, as arrow's builders do.
type Builder struct{ vals []bool }

func (bl *Builder) Reserve(n int) {
	if n > cap(bl.vals)-len(bl.vals) {
		bl.vals = append(make([]bool, 0, len(bl.vals)+n), bl.vals...)
	}
}
func (bl *Builder) Append(v ...bool) { bl.vals = append(bl.vals, v...) }

// Writer writes into a buffer it was given.
type Writer struct {
	buf []byte
	pos int
}

func NewWriter(buf []byte) *Writer { return &Writer{buf: buf} }
func Buffer(buf []byte) []byte     { return buf[:len(buf):len(buf)] }
func (w *Writer) WriteByte(c byte) { w.buf[w.pos] = c; w.pos++ }
func (w *Writer) Reset(size int)   { w.buf, w.pos = make([]byte, size), 0 }

// Arena and List stand in for pebble's arenaskl: a list that the
// benchmark's writes fill, in an arena sized for them.
type Arena struct{ buf []byte }
type List struct {
	arena *Arena
	keys  []int
}

func NewArena(size int) *Arena { return &Arena{buf: make([]byte, size)} }
func NewList(a *Arena) *List   { return &List{arena: a} }
func (l *List) Insert(k int)   { l.keys = append(l.keys, k) }

// Positive cases: b.N sizes the work.

func BenchmarkFib(b *testing.B) {
	sink = Fib(b.N) // want `b.N used as a problem size: the work per op then grows with b.N and ns/op means nothing; fix the size and loop b.N times`
}

// In a b.Loop benchmark the message says what b.N is there.
func BenchmarkLoopThenFib(b *testing.B) {
	for b.Loop() {
		sink++
	}
	sink = Fib(b.N) // want `b.N used as a problem size in a b.Loop benchmark: b.N is the iteration count the testing package chooses \(0 inside the loop\), not a size; give the problem a fixed size`
}

func BenchmarkFibHalf(b *testing.B) {
	sink = Fib(b.N / 2) // want `b.N used as a problem size`
}

func BenchmarkVariable(b *testing.B) {
	n := b.N * 10
	m := n + 1
	sink = Fib(m) // want `b.N used as a problem size`
}

func BenchmarkConversion(b *testing.B) {
	sink = Fib(int(int64(b.N) << 1)) // want `b.N used as a problem size`
}

func BenchmarkMakeSort(b *testing.B) {
	data := make([]int, b.N) // want `b.N used as a problem size`
	for i := range data {
		data[i] = b.N - i
	}
	b.ResetTimer()
	sort.Ints(data)
}

func BenchmarkMakeSlicesSort(b *testing.B) {
	var xs = make([]float64, 0, b.N) // want `b.N used as a problem size`
	for i := 0; i < b.N; i++ {
		xs = append(xs, float64(-i))
	}
	slices.Sort(xs)
}

func BenchmarkMakeSum(b *testing.B) {
	data := make([]int, b.N) // want `b.N used as a problem size`
	for i := range data {
		data[i] = i
	}
	b.ResetTimer()
	sink = Sum(data[:])
}

func BenchmarkRepeatString(b *testing.B) {
	s := strings.Repeat("a", b.N) // want `b.N used as a problem size`
	b.ResetTimer()
	sink = Parse(s)
}

func BenchmarkMakeArgument(b *testing.B) {
	sink = Sum(make([]int, b.N)) // want `b.N used as a problem size`
}

func BenchmarkMethod(b *testing.B) {
	var h Hasher
	h.Write(make([]byte, b.N)) // want `b.N used as a problem size`
	sink = h.n
}

func BenchmarkReserveUnused(b *testing.B) {
	var bl Builder
	bl.Reserve(b.N) // want `b.N used as a problem size`
	sink = cap(bl.vals)
}

func BenchmarkWriterUnused(b *testing.B) {
	buf := make([]byte, b.N) // want `b.N used as a problem size`
	w := NewWriter(buf)
	sink = len(w.buf)
}

// A number through nested constructors: the list the loop fills grows
// with b.N (pebble internal/arenaskl BenchmarkReadWrite).
func BenchmarkArena(b *testing.B) {
	l := NewList(NewArena((b.N + 2) * 64)) // want `b.N used as a problem size`
	for i := 0; i < b.N; i++ {
		l.Insert(i)
	}
}

func BenchmarkSub(b *testing.B) {
	b.Run("fib", func(b *testing.B) {
		sink = Fib(b.N) // want `b.N used as a problem size`
	})
}

// Negative cases: b.N counts iterations.

func BenchmarkLoopCondition(b *testing.B) {
	n := b.N
	for i := 0; i < n; i++ {
		sink += Fib(10)
	}
}

func BenchmarkRangeN(b *testing.B) {
	for range b.N {
		sink += Fib(10)
	}
}

func BenchmarkMetrics(b *testing.B) {
	b.SetBytes(1024)
	for i := 0; i < b.N; i++ {
		sink += Fib(10)
	}
	b.ReportMetric(float64(sink)/float64(b.N), "calls/op")
}

func BenchmarkPregenerate(b *testing.B) {
	inputs := make([]int, b.N)
	for i := range inputs {
		inputs[i] = i * 7 % 20
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink += Fib(inputs[i])
	}
}

func BenchmarkFillThenRange(b *testing.B) {
	data := make([]byte, b.N)
	Fill(data)
	b.ResetTimer()
	for _, c := range data {
		sink += int(c)
	}
}

func BenchmarkComparison(b *testing.B) {
	if b.N > 1000 {
		sink++
	}
	want := SumTo(b.N)
	got := 0
	for i := 0; i < b.N; i++ {
		got += i
	}
	if got != want {
		b.Fatal("wrong sum")
	}
}

func BenchmarkLoopCount(b *testing.B) {
	Repeat(b.N)
	RepeatVia(b.N * 2)
}

func BenchmarkDriver(b *testing.B) {
	run(b, b.N)
}

func BenchmarkPresized(b *testing.B) {
	r := NewRing(b.N)
	for i := 0; i < b.N; i++ {
		r.Push(i)
	}
}

func BenchmarkReserve(b *testing.B) {
	values := []bool{true, false, true}
	var bl Builder
	bl.Reserve(len(values) * b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bl.Append(values...)
	}
}

func BenchmarkWriterOverBuffer(b *testing.B) {
	buf := make([]byte, b.N)
	w := NewWriter(Buffer(buf))
	for i := 0; i < b.N; i++ {
		w.WriteByte(1)
	}
}

func BenchmarkWriterReset(b *testing.B) {
	w := NewWriter(nil)
	w.Reset(b.N)
	for i := 0; i < b.N; i++ {
		w.WriteByte(byte(i))
	}
}

func BenchmarkMasked(b *testing.B) {
	sink = Fib(b.N % 20)
	sink = Fib(b.N & 15)
}

func BenchmarkStandardLibrary(b *testing.B) {
	var wg sync.WaitGroup
	wg.Add(b.N)
	done := make(chan int, b.N)
	for i := 0; i < b.N; i++ {
		go func() { done <- i; wg.Done() }()
	}
	wg.Wait()
}

func BenchmarkInLoop(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += Lookup(b.N - i)
	}
}

func BenchmarkBLoop(b *testing.B) {
	for b.Loop() {
		sink += Fib(20)
	}
	b.ReportMetric(float64(sink)/float64(b.N), "calls/op")
}

func BenchmarkFuncValue(b *testing.B) {
	f := Fib
	sink = f(b.N)
}

func BenchmarkReassigned(b *testing.B) {
	n := b.N
	n = 20
	sink = Fib(n)
}

// Logf prints its arguments: b.N there is a value, not a size.
func Logf(format string, args ...any) {}

func BenchmarkPrinted(b *testing.B) {
	Logf("n=%d", b.N)
	for i := 0; i < b.N; i++ {
		sink += i
	}
}

// Under RunParallel, each goroutine's body is checked like a benchmark's:
// outside its pb.Next loop, b.N there sizes the work of every goroutine.
func BenchmarkParallelSize(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		Fib(b.N) // want `b.N used as a problem size`
		s := 0
		for pb.Next() {
			s += Lookup(s)
		}
		if s < 0 {
			b.Error(s)
		}
	})
}

// An input per goroutine, consumed by its pb.Next loop: not a size.
func BenchmarkParallelInputs(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		keys := make([]int, b.N)
		i, s := 0, 0
		for pb.Next() {
			s += Lookup(keys[i%len(keys)])
			i++
		}
		if s < 0 {
			b.Error(s)
		}
	})
}
