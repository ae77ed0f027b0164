package a

import (
	"errors"
	"runtime"
	"sort"
	"testing"
)

var sink int

// Queue is a short-operation type: Push and Pop take a few nanoseconds.
type Queue struct{ items []int }

func NewQueue() *Queue        { return &Queue{} }                                // want NewQueue:"short"
func (q *Queue) Push(x int)   { q.items = append(q.items, x) }                   // want Push:"short"
func (q *Queue) Pop() (x int) { x, q.items = q.items[0], q.items[1:]; return x } // want Pop:"short"

func op(x int) int { return x * 31 } // want op:"short"

// Positive cases: the timer is stopped and started around a short
// operation on every iteration.

func BenchmarkPop(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer() // want `b.StopTimer/b.StartTimer inside the loop cost more than short operations: prepare inputs before the loop, or in batches`
		q := NewQueue()
		q.Push(i)
		b.StartTimer()
		sink += q.Pop()
	}
}

func BenchmarkStartFirst(b *testing.B) {
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		b.StartTimer()
		sink += op(i)
		b.StopTimer() // want `b.StopTimer/b.StartTimer inside the loop`
	}
}

func BenchmarkRangeN(b *testing.B) {
	for range b.N {
		b.StopTimer() // want `b.StopTimer/b.StartTimer inside the loop`
		x := op(3)
		b.StartTimer()
		sink += op(x)
	}
}

func BenchmarkBLoop(b *testing.B) {
	for b.Loop() {
		b.StopTimer() // want `b.StopTimer/b.StartTimer inside the loop`
		x := op(3)
		b.StartTimer()
		sink += op(x)
	}
}

func BenchmarkSub(b *testing.B) {
	b.Run("sub", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			b.StopTimer() // want `b.StopTimer/b.StartTimer inside the loop`
			x := op(i)
			b.StartTimer()
			sink += op(x)
		}
	})
}

// Nothing is timed but the timer calls themselves.
func BenchmarkEmpty(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer() // want `b.StopTimer/b.StartTimer inside the loop`
		sink += op(i)
		b.StartTimer()
	}
}

// Negative cases.

// The timer calls run once per batch.
func BenchmarkBatchCondition(b *testing.B) {
	q := NewQueue()
	for i := 0; i < b.N; i++ {
		if i%1000 == 0 {
			b.StopTimer()
			for j := 0; j < 1000; j++ {
				q.Push(j)
			}
			b.StartTimer()
		}
		sink += q.Pop()
	}
}

// The timed part loops over a batch prepared untimed.
func BenchmarkBatchLoop(b *testing.B) {
	const batch = 1000
	q := NewQueue()
	for i := 0; i < b.N; i += batch {
		b.StopTimer()
		q.Push(i)
		b.StartTimer()
		for j := 0; j < batch; j++ {
			sink += op(j)
		}
	}
}

// Only b.StartTimer in the loop: a no-op while the timer runs.
func BenchmarkOnlyStart(b *testing.B) {
	b.StopTimer()
	x := op(1)
	for i := 0; i < b.N; i++ {
		b.StartTimer()
		sink += op(x)
	}
}

// Timer calls around setup outside the loop.
func BenchmarkOutside(b *testing.B) {
	b.StopTimer()
	x := op(1)
	b.StartTimer()
	for i := 0; i < b.N; i++ {
		sink += op(x)
	}
}

// Timer calls in a closure are not statements of the loop body.
func BenchmarkClosure(b *testing.B) {
	pause := func(f func()) {
		b.StopTimer()
		f()
		b.StartTimer()
	}
	for i := 0; i < b.N; i++ {
		pause(func() { sink = 0 })
		sink += op(i)
	}
}

func reset(xs []int) {
	for i := range xs {
		xs[i] = len(xs) - i
	}
}

// The timed part sorts a data set: the sort takes far longer than the
// timer calls.
func BenchmarkSortDataSet(b *testing.B) {
	xs := make([]int, 1000)
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		reset(xs)
		b.StartTimer()
		sort.Ints(xs)
	}
}

// The untimed part rebuilds a data set element by element.
func BenchmarkUntimedLoop(b *testing.B) {
	q := NewQueue()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		for j := 0; j < 100; j++ {
			q.Push(j)
		}
		b.StartTimer()
		sink += q.Pop()
	}
}

// The untimed part restores a data set by copy, as package sort's own
// benchmarks do.
func BenchmarkCopyRestore(b *testing.B) {
	unsorted := make([]int, 1<<10)
	data := make([]int, len(unsorted))
	q := NewQueue()
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		copy(data, unsorted)
		q.Push(data[0])
		b.StartTimer()
		sink += q.Pop()
		b.StopTimer()
	}
}

func apply(x int) error { // want apply:"short"
	if x < 0 {
		return errors.New("negative")
	}
	return nil
}

// The timed part calls a function with an error result.
func BenchmarkTimedError(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		x := op(i)
		b.StartTimer()
		if err := apply(x); err != nil {
			b.Fatal(err)
		}
	}
}

func parse(x int) (int, error) { return x, nil } // want parse:"short"

// The untimed part parses or reads its input: the input is likely large.
func BenchmarkUntimedError(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		x, err := parse(i)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		sink += op(x)
	}
}

// The timed part collects garbage: milliseconds.
func BenchmarkTimedGC(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		x := op(i)
		b.StartTimer()
		runtime.GC()
		sink += x
	}
}

// spin loops: not provably short.
func spin(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i
	}
	return s
}

func BenchmarkTimedLoopingCall(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		x := op(i)
		b.StartTimer()
		sink += spin(x)
	}
}

type Op interface{ Do(int) int }

type double struct{}

func (double) Do(x int) int { return 2 * x } // want Do:"short"

// The timed call goes through an interface: its cost is unknown.
func BenchmarkTimedInterface(b *testing.B) {
	var o Op = double{}
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		x := op(i)
		b.StartTimer()
		sink += o.Do(x)
	}
}

// In a pb.Next loop the timer calls are reported whatever the operation
// costs: they stop the one timer that all goroutines share.
func BenchmarkParallelTimer(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		s := 0
		for pb.Next() {
			b.StopTimer() // want `b.StopTimer/b.StartTimer in a pb.Next loop stop and start the one timer of all goroutines: prepare inputs before b.RunParallel`
			xs := []int{3, 1, 2}
			b.StartTimer()
			sort.Ints(xs)
			s += xs[0]
		}
		if s < 0 {
			b.Error(s)
		}
	})
}

// Setup untimed before b.RunParallel, and a pb.Next loop without timer
// calls: nothing to report.
func BenchmarkParallelSetup(b *testing.B) {
	b.StopTimer()
	q := NewQueue()
	q.Push(1)
	b.StartTimer()
	b.RunParallel(func(pb *testing.PB) {
		s := 0
		for pb.Next() {
			s += op(s)
		}
		if s < 0 {
			b.Error(s)
		}
	})
}
