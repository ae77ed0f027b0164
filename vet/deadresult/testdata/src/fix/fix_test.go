package fix

import "testing"

var sink int

func BenchmarkRewrite(b *testing.B) {
	x := 3
	for i := 0; i < b.N; i++ {
		Twice(x) // want `result of fix.Twice is never used`
		Twice(x) // want `result of fix.Twice is never used`
	}
	b.ReportMetric(float64(b.N), "iterations")
}

func BenchmarkRange(b *testing.B) {
	for range b.N {
		Twice(4) // want `result of fix.Twice is never used`
	}
}

func BenchmarkContinue(b *testing.B) {
	x := 3
	for i := 0; i < b.N; i++ {
		for j := 0; j < 2; j++ {
			if j == 1 {
				break
			}
		}
		if x > 2 {
			continue
		}
		Twice(x) // want `result of fix.Twice is never used`
	}
}

// No b.Loop rewrite below: each loop differs from b.Loop in a way that
// matters. Each result is kept alive by a package-level sink instead.

func BenchmarkCounterUsed(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Twice(i)     // want `result of fix.Twice is never used`
		Twice(i + 1) // want `result of fix.Twice is never used`
	}
}

func BenchmarkResetTimer(b *testing.B) {
	x := Twice(3)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Twice(x) // want `result of fix.Twice is never used`
	}
}

func BenchmarkNBefore(b *testing.B) {
	buf := make([]int, b.N)
	for i := 0; i < b.N; i++ {
		Twice(3) // want `result of fix.Twice is never used`
	}
	sink = len(buf)
}

func BenchmarkHelper(b *testing.B) {
	setup(b)
	for i := 0; i < b.N; i++ {
		Twice(3) // want `result of fix.Twice is never used`
	}
}

func setup(b *testing.B) { b.Helper() }

func BenchmarkBreak(b *testing.B) {
	x := 3
	for i := 0; i < b.N; i++ {
		Twice(x) // want `result of fix.Twice is never used`
		if x > 2 {
			break
		}
	}
}

func BenchmarkTwoLoops(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Twice(3) // want `result of fix.Twice is never used`
	}
	for i := 0; i < b.N; i++ {
		sink = Twice(3)
	}
}

func BenchmarkNested(b *testing.B) {
	if sink >= 0 {
		for i := 0; i < b.N; i++ {
			Twice(3) // want `result of fix.Twice is never used`
		}
	}
}

func BenchmarkBlank(b *testing.B) {
	for i := 0; i < b.N; i++ {
		_ = Mirror(Point{i, 2}) // want `result of fix.Mirror is never used`
	}
}

// Several results: a sink for each result whose type the file can name.
func BenchmarkTwoResults(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Split(i)        // want `result of fix.Split is never used`
		_, _ = Split(i) // want `result of fix.Split is never used`
		_, _ = Dur(i)   // want `result of fix.Dur is never used`
	}
}

// Generic callees: each sink has the type of the call, not T.
func BenchmarkGeneric(b *testing.B) {
	p := Pair[float64]{1, 2}
	for i := 0; i < b.N; i++ {
		p.Sum()   // want `result of Pair.Sum is never used`
		Add(i, 2) // want `result of fix.Add is never used`
	}
}

// A generic benchmark helper: its result has the helper's type
// parameter, which no package-level sink can name, so there is no fix.
func benchAdd[T ~int | ~float64](b *testing.B) {
	for i := 0; i < b.N; i++ {
		Add(T(i), 2) // want `result of fix.Add is never used`
	}
}

func BenchmarkAddHelper(b *testing.B) { benchAdd[int](b) }

// A pb.Next loop gets no fix: every goroutine would store into the sink.
func BenchmarkParallel(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		x := 3
		for pb.Next() {
			Twice(x) // want `result of fix.Twice is never used`
		}
	})
}
