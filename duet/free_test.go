package duet

import (
	"context"
	"testing"
	"time"

	"github.com/mbench/mbench/stats"
)

// TestRunFree pairs a plain binary's iterations by index: the side with
// twice the work per operation shows a ratio of about 2, both sides are
// pinned, and stopping early keeps what was delivered.
func TestRunFree(t *testing.T) {
	_, plain := fixture(t)
	s := spec(plain, "^BenchmarkWork$", 2000, 7, "DUET_SLOW=2")
	var pairs []Pair
	st, err := RunFree(context.Background(), s, func(p Pair) bool {
		pairs = append(pairs, p)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) != 7 || st.Pairs != 7 {
		t.Fatalf("%d pairs (stats %d), want 7", len(pairs), st.Pairs)
	}
	// The sides' CPU times per operation, not their wall times: when go
	// test runs other packages' tests beside this one, they take the CPU
	// from one side at a time.
	var ratios []float64
	for _, p := range pairs {
		o, n := p.Old.Extra["cpu-ns/op"], p.New.Extra["cpu-ns/op"]
		if o <= 0 || n <= 0 {
			t.Fatalf("pair %d: cpu-ns/op old %v, new %v: the metric did not reach Extra", p.Index, p.Old.Extra, p.New.Extra)
		}
		ratios = append(ratios, n/o)
		if p.Old.N != 2000 || p.New.N != 2000 {
			t.Errorf("pair %d: N %d and %d, want 2000", p.Index, p.Old.N, p.New.N)
		}
		if p.Old.Start.IsZero() || p.Old.End.Before(p.Old.Start) {
			t.Errorf("pair %d: old side runs %v to %v", p.Index, p.Old.Start, p.Old.End)
		}
	}
	if r := stats.Median(ratios); r < 1.3 || r > 3.2 {
		t.Errorf("median CPU time ratio %.2f over %v, want about 2", r, ratios)
	}
	t.Logf("CPU time ratios %.2f", ratios)
	t.Logf("free-running skew: median %v (%.2f%%), max %v", st.Skew.Median, 100*st.Skew.MedianFraction, st.Skew.Max)

	pairs = nil
	_, err = RunFree(context.Background(), spec(plain, "^BenchmarkWork$", 300, 50), func(p Pair) bool {
		pairs = append(pairs, p)
		return len(pairs) < 2
	})
	if err != nil || len(pairs) != 2 {
		t.Errorf("stopped after 2 pairs: %d pairs, error %v", len(pairs), err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = RunFree(ctx, spec(plain, "^BenchmarkWork$", 300, 100000), func(Pair) bool { return true })
	if err == nil || time.Since(start) > 10*time.Second {
		t.Errorf("cancelled: error %v after %v", err, time.Since(start))
	}
}
