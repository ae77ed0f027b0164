package crosscheck

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mbench/mbench/vet/driftstate"
)

// TestCheckSize runs two benchmarks at several b.N: one whose work per op
// grows with b.N (confirmed) and one whose work per op is fixed (not
// confirmed).
func TestCheckSize(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs benchmarks")
	}
	src := `package sz

import "testing"

var sink int

// BenchmarkGrows does b.N/100 units of work per op.
func BenchmarkGrows(b *testing.B) {
	for i := 0; i < b.N; i++ {
		for j := 0; j < b.N/100+1; j++ {
			sink += j
		}
	}
}

// BenchmarkFixed does 50,000 units of work per op: long enough that
// every run spans many scheduler time slices, so that other load on the
// machine slows all b.N alike.
func BenchmarkFixed(b *testing.B) {
	for i := 0; i < b.N; i++ {
		for j := 0; j < 50000; j++ {
			sink += j
		}
	}
}

// BenchmarkSortsSorted insertion-sorts the same slice in every
// iteration: the first sort, of shuffled data, is quadratic, the later
// ones, of sorted data, linear, so ns/op falls as b.N grows.
func BenchmarkSortsSorted(b *testing.B) {
	xs := make([]int, 10000)
	for i := range xs {
		xs[i] = (i * 7919) % len(xs)
	}
	for i := 0; i < b.N; i++ {
		for j := 1; j < len(xs); j++ {
			for k := j; k > 0 && xs[k-1] > xs[k]; k-- {
				xs[k-1], xs[k] = xs[k], xs[k-1]
			}
		}
	}
}
`
	file := writeModule(t, "sz", src)
	at := func(s string) int { return strings.Index(src, s) }
	findings := []Finding{
		{Analyzer: "bnsize", File: file, Offset: at("b.N/100+1")},
		{Analyzer: "driftstate", File: file, Offset: at("j < 50000;")},
		{Analyzer: "driftstate", Category: driftstate.CategorySorted, File: file, Offset: at("k > 0 &&")},
		{Analyzer: "driftstate", File: file, Offset: at("k > 0 &&")},
	}
	opts := DefaultOptions
	opts.SizeTime = 20 * time.Millisecond
	verdicts, err := Check(context.Background(), findings, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range verdicts {
		t.Logf("%s: %s (%s)", v.Benchmark, v.Outcome, v.Reason)
	}
	if v := verdicts[0]; v.Outcome != Confirmed || v.Benchmark != "BenchmarkGrows" || !(v.Protected > 2*v.Original) {
		t.Errorf("growing work: %s (%s), %g then %g s/op", v.Outcome, v.Reason, v.Original, v.Protected)
	}
	// Fixed work must not be confirmed, but whether it is depends on the
	// load other processes make while it runs (a 6x slowdown of one b.N
	// has been seen on a shared 2-core machine), so the test only checks
	// that it was measured; docs/eval/vet.md has the false-positive rate.
	if v := verdicts[1]; v.Benchmark != "BenchmarkFixed" || v.Original <= 0 {
		t.Errorf("fixed work: %s (%s), %g then %g s/op", v.Outcome, v.Reason, v.Original, v.Protected)
	}
	// Sorting sorted data makes ns/op fall with b.N: that confirms a
	// finding about sorting, not one about growth.
	if v := verdicts[2]; v.Outcome != Confirmed || !(v.Protected < v.Original/2) {
		t.Errorf("sorting sorted data: %s (%s), %g then %g s/op", v.Outcome, v.Reason, v.Original, v.Protected)
	}
	if v := verdicts[3]; v.Outcome == Confirmed {
		t.Errorf("falling ns/op confirmed a growth finding: %s", v.Reason)
	}
}
