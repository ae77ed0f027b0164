package a

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"testing"
)

// Generate builds n inputs; calling it with a size is setup.
func Generate(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i * 7 % 13
	}
	return s
}

type Set struct{ m map[int]bool }

func New() *Set { return &Set{m: map[int]bool{}} }

func (s *Set) Add(i int)      { s.m[i] = true }
func (s *Set) Has(i int) bool { return s.m[i] }

var sink int

// size is a package-level size: a make sized by it may be large.
var size = 1 << 27

var payload = []byte("payload")

// bigJSON is a large encoded input.
var bigJSON = make([]byte, 1<<20)

// Stamp takes a time in seconds: an int64 value, not a size.
func Stamp(sec int64) int64 { return sec % 60 }

// must fails the benchmark on an error; it leaves the timer alone.
func must(b *testing.B, err error) {
	if err != nil {
		b.Fatal(err)
	}
}

// prepare resets the timer itself.
func prepare(b *testing.B) {
	b.ReportAllocs()
	b.ResetTimer()
}

// Positive cases: expensive setup that the timer measures.

func BenchmarkMakeVariable(b *testing.B) {
	n := 1 << 27
	data := make([]byte, n) // want `setup before the b.N loop is timed: call b.ResetTimer\(\) after it, or use b.Loop`
	for i := 0; i < b.N; i++ {
		sink += int(data[i%n])
	}
}

func BenchmarkMakeLargeConstant(b *testing.B) {
	data := make([]int64, 1<<24) // want `setup before the b.N loop is timed`
	for i := 0; i < b.N; i++ {
		sink += int(data[i%len(data)])
	}
}

func BenchmarkNewLarge(b *testing.B) {
	p := new([1 << 27]byte) // want `setup before the b.N loop is timed`
	for i := 0; i < b.N; i++ {
		sink += int(p[i%len(p)])
	}
}

func BenchmarkReadFile(b *testing.B) {
	data, err := os.ReadFile("testdata/input.txt") // want `setup before the b.N loop is timed`
	must(b, err)
	for i := 0; i < b.N; i++ {
		sink += len(data)
	}
}

func BenchmarkUnmarshal(b *testing.B) {
	var v map[string]int
	_ = json.Unmarshal(bigJSON, &v) // want `setup before the b.N loop is timed`
	for i := 0; i < b.N; i++ {
		sink += v["a"]
	}
}

func BenchmarkLoopBuildsData(b *testing.B) {
	var xs []int
	for i := 0; i < 1<<20; i++ { // want `setup before the b.N loop is timed`
		xs = append(xs, i*i)
	}
	for i := 0; i < b.N; i++ {
		sink += xs[i%len(xs)]
	}
}

func BenchmarkWorkers(b *testing.B) {
	work := make(chan int)
	for w := 0; w < 1000; w++ { // want `setup before the b.N loop is timed`
		go func() {
			for x := range work {
				sink += x
			}
		}()
	}
	for i := 0; i < b.N; i++ {
		work <- i
	}
	close(work)
}

func BenchmarkFillSet(b *testing.B) {
	s := New()
	for _, k := range Generate(64) { // want `setup before the b.N loop is timed`
		s.Add(k)
	}
	for i := 0; i < b.N; i++ {
		if s.Has(i) {
			sink++
		}
	}
}

func BenchmarkGenerateSize(b *testing.B) {
	xs := Generate(1 << 16) // want `setup before the b.N loop is timed`
	for i := 0; i < b.N; i++ {
		sink += xs[i%len(xs)]
	}
}

func BenchmarkLargeLiteral(b *testing.B) {
	xs := []int{ // want `setup before the b.N loop is timed`
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
		16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
		32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47,
		48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63,
		64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79,
		80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95,
		96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111,
		112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127,
		128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143,
		144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159,
		160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175,
		176, 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191,
		192, 193, 194, 195, 196, 197, 198, 199, 200, 201, 202, 203, 204, 205, 206, 207,
		208, 209, 210, 211, 212, 213, 214, 215, 216, 217, 218, 219, 220, 221, 222, 223,
		224, 225, 226, 227, 228, 229, 230, 231, 232, 233, 234, 235, 236, 237, 238, 239,
		240, 241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251, 252, 253, 254, 255,
	}
	for i := 0; i < b.N; i++ {
		sink += xs[i%len(xs)]
	}
}

// The timer is reset too early: the setup after the reset is timed.
func BenchmarkResetTooEarly(b *testing.B) {
	b.ReportAllocs()
	b.ResetTimer()
	xs := Generate(1 << 16) // want `setup before the b.N loop is timed`
	for i := 0; i < b.N; i++ {
		sink += xs[i%len(xs)]
	}
}

func BenchmarkRangeN(b *testing.B) {
	xs := Generate(1 << 16) // want `setup before the b.N loop is timed`
	for range b.N {
		sink += xs[0]
	}
}

func BenchmarkSizes(b *testing.B) {
	for _, n := range []int{10, 1 << 16} {
		b.Run("", func(b *testing.B) {
			xs := Generate(n) // want `setup before the b.N loop is timed`
			for i := 0; i < b.N; i++ {
				sink += xs[i%len(xs)]
			}
		})
	}
}

func BenchmarkTable(b *testing.B) {
	cases := []struct {
		name string
		size int
	}{
		{"small", 10},
		{name: "big", size: 1 << 27},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			buf := make([]byte, tc.size) // want `setup before the b.N loop is timed`
			for i := 0; i < b.N; i++ {
				sink += len(buf)
			}
		})
	}
}

func BenchmarkInIf(b *testing.B) {
	if size > 0 {
		xs := make([]int, size) // want `setup before the b.N loop is timed`
		for i := 0; i < b.N; i++ {
			sink += xs[i%size]
		}
	}
}

func BenchmarkCompressed(b *testing.B) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(payload) // want `setup before the b.N loop is timed`
	zw.Close()
	for i := 0; i < b.N; i++ {
		sink += buf.Len()
	}
}

func BenchmarkLabelled(b *testing.B) {
	xs := Generate(1 << 16) // want `setup before the b.N loop is timed`
outer:
	for i := 0; i < b.N; i++ {
		for _, x := range xs[:3] {
			if x < 0 {
				continue outer
			}
		}
	}
}

// Negative cases: nothing expensive is timed.

func BenchmarkLocalDerived(b *testing.B) {
	src := make([]byte, 4096)
	dst := make([]byte, 2*len(src))
	for i := 0; i < b.N; i++ {
		sink += copy(dst, src)
	}
}

func BenchmarkNotASize(b *testing.B) {
	t := Stamp(1265346057)
	for i := 0; i < b.N; i++ {
		sink += int(t)
	}
}

func BenchmarkCompressConstructor(b *testing.B) {
	zw := gzip.NewWriter(io.Discard)
	for i := 0; i < b.N; i++ {
		zw.Reset(io.Discard)
	}
}

func BenchmarkSmallSizes(b *testing.B) {
	for _, n := range []int{8, 64} {
		b.Run("", func(b *testing.B) {
			xs := Generate(n)
			for i := 0; i < b.N; i++ {
				sink += xs[i%len(xs)]
			}
		})
	}
	for size := 64; size <= 1024; size *= 2 {
		b.Run("", func(b *testing.B) {
			buf := make([]byte, size)
			for i := 0; i < b.N; i++ {
				sink += len(buf)
			}
		})
	}
	length := 4
	b.Run("", func(b *testing.B) {
		buf := make([]int, 0, length)
		for i := 0; i < b.N; i++ {
			sink += cap(buf)
		}
	})
}

// A size the analyzer cannot bound is assumed small.
func BenchmarkUnknownSize(b *testing.B) {
	buf := make([]byte, len(os.Args)<<20)
	for i := 0; i < b.N; i++ {
		sink += len(buf)
	}
}

func BenchmarkSmallFill(b *testing.B) {
	buf := make([]byte, 1<<12)
	for i := range buf {
		buf[i] = byte(i)
	}
	var keys []int
	for _, k := range Generate(100) {
		keys = append(keys, k)
	}
	for i := 0; i < b.N; i++ {
		sink += int(buf[i%len(buf)]) + len(keys)
	}
}

// The first b.N loop pre-generates inputs; the timer is reset after it.
func BenchmarkPregenerate(b *testing.B) {
	inputs := make([]int, b.N)
	for i := 0; i < b.N; i++ {
		inputs[i] = i * 7
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink += inputs[i]
	}
}

// runInputs runs the timed loop and resets the timer first.
func runInputs(b *testing.B, inputs []int) {
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink += inputs[i]
	}
}

func BenchmarkPregenerateHelper(b *testing.B) {
	inputs := make([]int, b.N)
	for i := 0; i < b.N; i++ {
		inputs[i] = i * 7
	}
	runInputs(b, inputs)
}

func BenchmarkMediumMake(b *testing.B) {
	buf := make([]byte, 64<<10)
	for i := 0; i < b.N; i++ {
		sink += len(buf)
	}
}

func BenchmarkResetAfterSetup(b *testing.B) {
	xs := Generate(1 << 16)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink += xs[i%len(xs)]
	}
}

func BenchmarkStopStart(b *testing.B) {
	b.StopTimer()
	xs := Generate(1 << 16)
	b.StartTimer()
	for i := 0; i < b.N; i++ {
		sink += xs[i%len(xs)]
	}
}

func BenchmarkStoppedAtStart(b *testing.B) {
	b.StopTimer()
	xs := Generate(1 << 16)
	for i := 0; i < b.N; i++ {
		b.StartTimer()
		sink += xs[i%len(xs)]
	}
}

func BenchmarkLoop(b *testing.B) {
	xs := Generate(1 << 16)
	for b.Loop() {
		sink += xs[0]
	}
}

func BenchmarkLoopInSubBenchmark(b *testing.B) {
	b.Run("loop", func(b *testing.B) {
		data, _ := os.ReadFile("testdata/input.txt")
		for b.Loop() {
			sink += len(data)
		}
	})
}

func BenchmarkCheap(b *testing.B) {
	buf := make([]byte, 64)
	m := make(map[string]int)
	s := New()
	xs := []int{1, 2, 3}
	ch := make(chan int, len(os.Args))
	for i := 0; i < 10; i++ {
		xs = append(xs, i)
	}
	for i := 0; i < b.N; i++ {
		sink += len(buf) + len(m) + len(xs) + cap(ch)
		s.Add(i)
	}
}

func BenchmarkLookupLoop(b *testing.B) {
	cases := []struct {
		name string
		in   int
	}{{"a", 1}, {"b", 2}}
	in := 0
	for _, tc := range cases {
		if tc.name == "b" {
			in = tc.in
		}
	}
	for i := 0; i < b.N; i++ {
		sink += in
	}
}

func BenchmarkResetFirstIteration(b *testing.B) {
	xs := Generate(1 << 16)
	for i := 0; i < b.N; i++ {
		if i == 0 {
			b.ResetTimer()
		}
		sink += xs[i%len(xs)]
	}
}

func BenchmarkHelperResets(b *testing.B) {
	xs := Generate(1 << 16)
	prepare(b)
	for i := 0; i < b.N; i++ {
		sink += xs[i%len(xs)]
	}
}

func BenchmarkClosureResets(b *testing.B) {
	reset := func() { b.ResetTimer() }
	xs := Generate(1 << 16)
	reset()
	for i := 0; i < b.N; i++ {
		sink += xs[i%len(xs)]
	}
}

func BenchmarkNestedLoops(b *testing.B) {
	for _, n := range []int{1 << 10, 1 << 16} {
		xs := Generate(n)
		for i := 0; i < b.N; i++ {
			sink += xs[i%len(xs)]
		}
	}
}

func BenchmarkSecondLoop(b *testing.B) {
	xs := Generate(1 << 16)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink += xs[i%len(xs)]
	}
	b.StopTimer()
	ys := Generate(1 << 16)
	b.StartTimer()
	for i := 0; i < b.N; i++ {
		sink += ys[i%len(ys)]
	}
}

func BenchmarkParallel(b *testing.B) {
	xs := Generate(1 << 16)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			sink += xs[0]
		}
	})
}

// benchmarkSize is not a benchmark body (two parameters): the caller's
// setup is its own business.
func benchmarkSize(b *testing.B, n int) {
	for i := 0; i < b.N; i++ {
		sink += n
	}
}

// Encoding inside a setup loop is expensive.
func BenchmarkMarshalLoop(b *testing.B) {
	var out [][]byte
	for i := 0; i < 3; i++ { // want `setup before the b.N loop is timed`
		j, _ := json.Marshal(i)
		out = append(out, j)
	}
	for i := 0; i < b.N; i++ {
		sink += len(out[i%3])
	}
}

// Marshalling a value a heavy loop built is expensive.
func BenchmarkMarshalBuilt(b *testing.B) {
	m := map[int]int{}
	for i := 0; i < 1<<17; i++ {
		m[i] = i
	}
	b.ResetTimer()
	j, _ := json.Marshal(m) // want `setup before the b.N loop is timed`
	for i := 0; i < b.N; i++ {
		sink += len(j)
	}
}

// segmentio/encoding json/json_test.go:663: one Marshal of a small value
// costs about one operation of the loop; not reported.
func BenchmarkMarshalSmall(b *testing.B) {
	x := map[string]int{"a": 1, "b": 2}
	j, _ := json.Marshal(x)
	for i := 0; i < b.N; i++ {
		var y map[string]int
		_ = json.Unmarshal(j, &y)
	}
}

func BenchmarkUnmarshalSmall(b *testing.B) {
	var v map[string]int
	_ = json.Unmarshal([]byte(`{"a": 1}`), &v)
	for i := 0; i < b.N; i++ {
		sink += v["a"]
	}
}

// NewQueue preallocates n slots.
func NewQueue(n int, reverse bool) []int { return make([]int, 0, n) }

// Workiva queue/priority_queue_test.go:211: a size proportional to b.N
// costs a constant per operation; not reported.
func BenchmarkConstructorSizedByN(b *testing.B) {
	q := NewQueue(b.N, false)
	for i := 0; i < b.N; i++ {
		q = append(q, i)
	}
}

func BenchmarkConstructorSizedByNExpr(b *testing.B) {
	q := NewQueue(2*b.N+1, false)
	for i := 0; i < b.N; i++ {
		q = append(q, i)
	}
}

// benchmarkGeneric allocates a value whose type depends on a type
// parameter, as cloudflare/circl's benchmarkBls[K] does: its size is
// unknown until instantiation, so it is not reported (and must not crash
// the analyzer).
func benchmarkGeneric[K any](b *testing.B) {
	x := new([1 << 20]K)
	for i := 0; i < b.N; i++ {
		_ = x
	}
}

// orcaman/concurrent-map: 10,000 inserts through the package before a loop
// whose every operation walks the same entries cost about one operation,
// 0.1% of a 1 s benchtime; not reported.
func BenchmarkWalkAfterInserts(b *testing.B) {
	m := map[int]int{}
	for i := 0; i < 10000; i++ {
		m[i] = len(Generate(1))
	}
	for i := 0; i < b.N; i++ {
		for k := range m {
			sink += k
		}
	}
}

// golang.org/x/exp/slices BenchmarkIndex_Large and its kind: a few MiB made
// before the loop and walked by every operation cost about one operation
// (b.ResetTimer changed none of five measurably); not reported.
func BenchmarkWalkLarge(b *testing.B) {
	xs := make([]int, 1<<19)
	for i := 0; i < b.N; i++ {
		for _, x := range xs {
			sink += x
		}
	}
}
