package a

import (
	"math/rand"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"testing"
	"time"
)

var sink int

func random(n int) []int {
	r := rand.New(rand.NewSource(1))
	xs := make([]int, n)
	for i := range xs {
		xs[i] = r.Intn(1000)
	}
	return xs
}

type byValue []int

func (s byValue) Len() int           { return len(s) }
func (s byValue) Less(i, j int) bool { return s[i] < s[j] }
func (s byValue) Swap(i, j int)      { s[i], s[j] = s[j], s[i] }

var global = random(1000)

// BubbleSort sorts xs in place.
func BubbleSort(xs []int) {
	for i := range xs {
		for j := 1; j < len(xs)-i; j++ {
			if xs[j] < xs[j-1] {
				xs[j], xs[j-1] = xs[j-1], xs[j]
			}
		}
	}
}

// SortedCopy returns a sorted copy of xs, which it leaves alone.
func SortedCopy(xs []int) []int {
	ys := slices.Clone(xs)
	slices.Sort(ys)
	return ys
}

// Positive cases.

func BenchmarkSortInts(b *testing.B) {
	xs := random(1000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sort.Ints(xs) // want `xs is sorted in place in every iteration: after the first, the benchmark sorts sorted data; copy it first \(copy\(work, xs\)\) inside the loop`
	}
}

func BenchmarkSlicesSortLoop(b *testing.B) {
	xs := random(1000)
	for b.Loop() {
		slices.Sort(xs) // want `xs is sorted in place in every iteration`
		sink += xs[0]
	}
}

func BenchmarkSortSlice(b *testing.B) {
	people := random(100)
	for range b.N {
		sort.Slice(people, func(i, j int) bool { return people[i] < people[j] }) // want `people is sorted in place`
	}
}

func BenchmarkSortSort(b *testing.B) {
	xs := random(100)
	for i := 0; i < b.N; i++ {
		sort.Sort(sort.Reverse(byValue(xs))) // want `xs is sorted in place`
	}
}

func BenchmarkSortGlobal(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sort.Ints(global) // want `global is sorted in place`
		if !sort.IntsAreSorted(global) {
			b.Fatal("not sorted")
		}
	}
}

func BenchmarkSubSort(b *testing.B) {
	xs := random(100)
	b.Run("sub", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			slices.SortFunc(xs, func(a, b int) int { return a - b }) // want `xs is sorted in place`
		}
	})
}

func BenchmarkBubbleSort(b *testing.B) {
	xs := random(100)
	for i := 0; i < b.N; i++ {
		BubbleSort(xs) // want `xs is sorted in place`
	}
}

type node struct{ next *node }

func BenchmarkAppendGrowth(b *testing.B) {
	var out []*node
	for i := 0; i < b.N; i++ {
		out = append(out, &node{}) // want `out grows in every iteration and is never reset: later iterations append to a bigger slice on a bigger heap; reset it \(out = out\[:0\]\) inside the loop`
	}
	sink = len(out)
}

func BenchmarkAppendCaptured(b *testing.B) {
	for _, size := range []int{10, 1000} {
		out := make([]int, 0, size)
		b.Run(strconv.Itoa(size), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				out = append(out, i) // want `out grows in every iteration`
			}
		})
	}
}

var ints []int

func BenchmarkAppendPackageLevel(b *testing.B) {
	for i := 0; i < b.N; i++ {
		ints = append(ints, i) // want `ints grows in every iteration`
	}
}

func BenchmarkAppendLoop(b *testing.B) {
	var out []string
	for b.Loop() {
		out = append(out, "x") // want `out grows in every iteration`
	}
}

func BenchmarkMapGrowth(b *testing.B) {
	m := make(map[string]int)
	for i := 0; i < b.N; i++ {
		m[strconv.Itoa(i)] = i // want `m gains a key in every iteration and is never cleared: later iterations insert into a bigger map; delete the key or clear\(m\) inside the loop`
	}
}

func BenchmarkMapIncrement(b *testing.B) {
	m := map[int]int{}
	for i := range b.N {
		m[i*2]++ // want `m gains a key in every iteration`
	}
}

// Negative cases.

func BenchmarkCopyThenSort(b *testing.B) {
	xs := random(1000)
	work := make([]int, len(xs))
	for i := 0; i < b.N; i++ {
		copy(work, xs)
		sort.Ints(work)
	}
}

func BenchmarkStopTimerRefill(b *testing.B) {
	var xs []int
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		xs = random(1000)
		b.StartTimer()
		sort.Ints(xs)
	}
}

func BenchmarkShuffle(b *testing.B) {
	xs := random(1000)
	for i := 0; i < b.N; i++ {
		rand.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
		sort.Ints(xs)
	}
}

func BenchmarkSortInner(b *testing.B) {
	for i := 0; i < b.N; i++ {
		xs := random(100)
		sort.Ints(xs)
	}
}

func BenchmarkSortedOnPurpose(b *testing.B) {
	xs := random(1000)
	sort.Ints(xs)
	for i := 0; i < b.N; i++ {
		sort.Ints(xs)
	}
}

func BenchmarkAscendingFill(b *testing.B) {
	xs := make([]int, 1000)
	for i := range xs {
		xs[i] = i
	}
	for i := 0; i < b.N; i++ {
		sort.Ints(xs)
	}
}

func BenchmarkSortedLiteral(b *testing.B) {
	xs := []int{1, 2, 3, 5, 8}
	for i := 0; i < b.N; i++ {
		sort.Ints(xs)
	}
}

func BenchmarkSortedCopy(b *testing.B) {
	xs := random(100)
	for i := 0; i < b.N; i++ {
		sink += SortedCopy(xs)[0]
	}
}

func BenchmarkSortCall(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sort.Ints(random(100))
	}
}

func BenchmarkAppendReset(b *testing.B) {
	var out []int
	for i := 0; i < b.N; i++ {
		out = out[:0]
		for j := 0; j < 10; j++ {
			out = append(out, j)
		}
	}
}

func BenchmarkAppendResetOnOverflow(b *testing.B) {
	var out []int
	for i := 0; i < b.N; i++ {
		out = append(out, i)
		if len(out) > 1000 {
			out = nil
		}
	}
}

type point struct {
	x, y int
	ok   [2]bool
}

func BenchmarkAppendAmortized(b *testing.B) {
	var out []int
	var pts []point
	for i := 0; i < b.N; i++ {
		out = append(out, i*i)
		pts = append(pts, point{x: i})
	}
	sink = len(out) + len(pts)
}

func BenchmarkAppendPresized(b *testing.B) {
	out := make([]int, 0, b.N)
	for i := 0; i < b.N; i++ {
		out = append(out, i)
	}
}

func BenchmarkAppendInner(b *testing.B) {
	for i := 0; i < b.N; i++ {
		var out []int
		out = append(out, i)
		sink += len(out)
	}
}

func BenchmarkMapDelete(b *testing.B) {
	m := make(map[int]int)
	for i := 0; i < b.N; i++ {
		m[i] = i
		delete(m, i)
	}
}

func BenchmarkMapClear(b *testing.B) {
	m := make(map[int]int)
	for i := 0; i < b.N; i++ {
		m[i] = i
		if len(m) > 100 {
			clear(m)
		}
	}
}

func BenchmarkMapCycling(b *testing.B) {
	m := make(map[int]int)
	for i := 0; i < b.N; i++ {
		m[i%100] = i
		m[i&0xff]++
	}
}

func BenchmarkMapConstantKey(b *testing.B) {
	m := make(map[string]int)
	for i := 0; i < b.N; i++ {
		m["k"] = i
	}
}

func BenchmarkMapBLoop(b *testing.B) {
	m := make(map[int]int)
	k := 0
	for b.Loop() {
		m[k&7] = k
		k++
	}
}

func BenchmarkMapPresized(b *testing.B) {
	m := make(map[int]int, b.N)
	for i := 0; i < b.N; i++ {
		m[i] = i
	}
}

func BenchmarkClosure(b *testing.B) {
	var out []int
	for i := 0; i < b.N; i++ {
		func() { out = append(out, i) }()
	}
}

// makeSorted returns n values in order.
func makeSorted(n int) []int {
	xs := random(n)
	sort.Ints(xs)
	return xs
}

func BenchmarkMadeSorted(b *testing.B) {
	xs := makeSorted(1000)
	for i := 0; i < b.N; i++ {
		sort.Ints(xs)
	}
}

func BenchmarkRecordPauses(b *testing.B) {
	var pauses []uint64
	var ms runtime.MemStats
	for i := 0; i < b.N; i++ {
		runtime.GC()
		runtime.ReadMemStats(&ms)
		pauses = append(pauses, ms.PauseNs[(ms.NumGC+255)%256])
	}
}

func BenchmarkRecordLatency(b *testing.B) {
	var lat []time.Duration
	for i := 0; i < b.N; i++ {
		start := time.Now()
		sink += i
		lat = append(lat, time.Since(start))
	}
}

func BenchmarkAppendAfterBatch(b *testing.B) {
	var out []int
	for i := 0; i < b.N; i++ {
		s := 0
		for j := 0; j < 1000; j++ {
			s += j
		}
		out = append(out, s)
	}
}

// Dec and NewDec stand in for shopspring/decimal's Decimal and New.
type Dec struct {
	value int64
	exp   int32
}

func NewDec(value int64, exp int32) Dec { return Dec{value, exp} }

type decSlice []Dec

func (s decSlice) Len() int           { return len(s) }
func (s decSlice) Less(i, j int) bool { return s[i].value < s[j].value }
func (s decSlice) Swap(i, j int)      { s[i], s[j] = s[j], s[i] }

// shopspring/decimal decimal_bench_test.go:157: filled in ascending order
// by a constructor of the counter, so sorted before the loop.
func BenchmarkAppendAscendingConstructor(b *testing.B) {
	var decimals decSlice
	for i := 0; i < 10000; i++ {
		decimals = append(decimals, NewDec(int64(i), 0))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sort.Sort(decimals)
	}
}

func BenchmarkAppendAscendingCounter(b *testing.B) {
	var xs []int64
	for i := range 1000 {
		xs = append(xs, int64(i))
	}
	for i := 0; i < b.N; i++ {
		slices.Sort(xs)
	}
}

// Appended values that do not follow the counter are not sorted.
func BenchmarkAppendDescending(b *testing.B) {
	var xs []int
	for i := 0; i < 1000; i++ {
		xs = append(xs, 1000-i)
	}
	for i := 0; i < b.N; i++ {
		sort.Ints(xs) // want `xs is sorted in place`
	}
}

func BenchmarkAppendRandom(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	var decimals decSlice
	for i := 0; i < 1000; i++ {
		decimals = append(decimals, NewDec(r.Int63(), 0))
	}
	for i := 0; i < b.N; i++ {
		sort.Sort(decimals) // want `decimals is sorted in place`
	}
}

// Workiva slice/skip/skip_test.go:385: pre-sized through n := b.N.
func BenchmarkAppendPresizedLocal(b *testing.B) {
	numItems := b.N
	out := make([]int, 0, numItems)
	for i := 0; i < b.N; i++ {
		out = append(out, i)
	}
}

// A local changed after its definition is not b.N any more.
func BenchmarkAppendPresizedReassigned(b *testing.B) {
	n := b.N
	n = 10
	out := make([]any, 0, n)
	for i := 0; i < b.N; i++ {
		out = append(out, i) // want `out grows in every iteration`
	}
}

// Workiva btree/palm/tree_test.go:457: a setup loop before b.ResetTimer
// builds one input per iteration; it is not timed.
func BenchmarkAppendSetupLoop(b *testing.B) {
	var inputs [][]int
	for i := 0; i < b.N; i++ {
		inputs = append(inputs, random(10))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink += inputs[i][0]
	}
}

// The same loop while the timer is stopped.
func BenchmarkAppendStoppedLoop(b *testing.B) {
	var inputs [][]int
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		inputs = append(inputs, random(10))
	}
	b.StartTimer()
	for i := 0; i < b.N; i++ {
		sink += inputs[i][0]
	}
}

// Under RunParallel, each goroutine's pb.Next loop is checked like a b.N
// loop: its own slice, sorted in every iteration, is sorted data after
// the first.
func BenchmarkParallelSort(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		xs := random(100)
		for pb.Next() {
			sort.Ints(xs) // want `xs is sorted in place in every iteration`
		}
	})
}

// A slice of all goroutines that grows without bound.
func BenchmarkParallelGrowth(b *testing.B) {
	var names []string
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			names = append(names, "x") // want `names grows in every iteration`
		}
	})
	sink = len(names)
}

// Copied before sorting, in each goroutine's loop: nothing drifts.
func BenchmarkParallelCopySort(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		xs := random(100)
		work := make([]int, len(xs))
		for pb.Next() {
			copy(work, xs)
			sort.Ints(work)
		}
	})
}
