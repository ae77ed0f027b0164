package crosscheck

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/run"
	"github.com/mbench/mbench/stats"
	"github.com/mbench/mbench/vet/driftstate"
)

// Thresholds of the size check: a benchmark whose ns/op grows by at least
// growRatio when b.N grows by up to sizeFactor confirms a finding that says the
// work per op grows with b.N; one that changes by at most flatRatio
// either way refutes it. The hand checks behind docs/eval/vet.md used the
// same rule on b.N from 10^3 to 10^6.
const (
	sizeFactor = 1000
	growRatio  = 2.0
	flatRatio  = 1.3
	// sizeBudget is the longest a larger run may take by the estimate
	// of the runs before it.
	sizeBudget  = 5 * time.Second
	sizeRepeats = 3
)

// sizeAnalyzers claim that ns/op depends on b.N (b.N as a problem size,
// state that grows over the iterations).
var sizeAnalyzers = map[string]bool{"bnsize": true, "driftstate": true}

// checkSize decides a finding of a size analyzer by running the benchmark
// binary at a small fixed b.N and at ten, a hundred ... up to sizeFactor
// times it (as far as the time budget allows, at least ten times), and
// comparing the median ns/op of each sub-benchmark over sizeRepeats runs
// at each b.N. It sets v.Original
// and v.Protected to the median times at the small and the large b.N of
// the sub-benchmark that changed most.
func checkSize(ctx context.Context, v *Verdict, bin run.Binary, opts Options) error {
	var load loadMeter
	calib, err := runAt(ctx, bin, v.Benchmark, opts.SizeTime.String(), opts.Timeout, nil)
	if err != nil {
		return err
	}
	if len(calib) == 0 {
		return fmt.Errorf("%s printed no result", v.Benchmark)
	}
	// b.N applies to every sub-benchmark, so the slowest bounds the run
	// time. Grow b.N tenfold at a time from a tenth of the calibrated
	// count while the next run, estimated from this one and the growth
	// per op seen so far, fits the budget.
	minN := math.MaxInt
	for _, r := range calib {
		minN = min(minN, r.n)
	}
	// Start at no more than 1,000: a working set that outgrows a cache
	// often does so between 10^3 and 10^5 (goleveldb's reads, in
	// docs/eval/vet.md), which a start near the calibrated count misses.
	small := max(1, min(minN/10, 1000))
	times := map[int]map[string][]float64{}
	slowest := map[int]float64{}
	subs := map[string][]string{}
	record := func(n int, rs []sizeResult) {
		if times[n] == nil {
			times[n] = map[string][]float64{}
		}
		for _, r := range rs {
			subs[r.name] = r.subs
			times[n][r.name] = append(times[n][r.name], r.sec)
			slowest[n] = max(slowest[n], r.sec)
		}
	}
	at := func(n int) error {
		rs, err := runAt(ctx, bin, v.Benchmark, fmt.Sprintf("%dx", n), opts.Timeout, &load)
		if err == nil {
			record(n, rs)
		}
		return err
	}
	if err := at(small); err != nil {
		return err
	}
	large, growth := small, 1.0
	for large*10 <= small*sizeFactor {
		next := large * 10
		if est := slowest[large] * growth * float64(next); est > sizeBudget.Seconds() {
			break
		}
		if err := at(next); err != nil {
			return err
		}
		growth = max(1, slowest[next]/slowest[large])
		large = next
	}
	if large < 10*small {
		v.Outcome = Undetermined
		v.Reason = fmt.Sprintf("too slow to run at two b.N far enough apart (%.3g s/op)", slowest[small])
		return nil
	}
	// Every b.N again, smallest first, so that each has sizeRepeats runs
	// and a median that one disturbed run cannot move.
	for range sizeRepeats - 1 {
		for n := small; n <= large; n *= 10 {
			if err := at(n); err != nil {
				return err
			}
		}
	}
	// best is the ratio large/small of the sub-benchmark that changed
	// most; spread the largest ratio of slowest to fastest median over
	// every b.N run, which must be small for a refutation: a cost that
	// dips and comes back is not flat.
	best, spread := 1.0, 1.0
	names := make([]string, 0, len(times[small]))
	for name := range times[small] {
		if v.Sub == "" || slices.Contains(subs[name], v.Sub) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		a, b := times[small][name], times[large][name]
		if len(a) == 0 || len(b) == 0 {
			continue
		}
		ma, mb := stats.Median(a), stats.Median(b)
		if ma <= 0 {
			continue
		}
		if r := mb / ma; math.Abs(math.Log(r)) > math.Abs(math.Log(best)) || math.IsNaN(v.Original) {
			best, v.Original, v.Protected = r, ma, mb
		}
		lo, hi := math.Inf(1), 0.0
		for _, byName := range times {
			if xs := byName[name]; len(xs) > 0 {
				m := stats.Median(xs)
				lo, hi = min(lo, m), max(hi, m)
			}
		}
		spread = max(spread, hi/lo)
	}
	// Sorting what an earlier iteration sorted makes later iterations
	// cheaper: for that finding a fall confirms too.
	falls := v.Finding.Analyzer == "driftstate" && v.Finding.Category == driftstate.CategorySorted
	// Other load slows the long runs, which share the CPU with it, more
	// than the short ones, which fit in a time slice, so that a
	// fixed-cost benchmark seems to grow with b.N. The bar for a
	// confirmation rises with the CPUs the load kept busy.
	other := load.cpus()
	bar := growRatio * (1 + other)
	busy := ""
	if other >= 0.1 {
		busy = fmt.Sprintf("; other processes kept %.1f CPUs busy meanwhile, so it takes %.2gx to confirm", other, bar)
	}
	switch {
	case math.IsNaN(v.Original):
		v.Outcome, v.Reason = Undetermined, "no sub-benchmark ran at both b.N"
	case best >= bar || best <= 1/growRatio && falls:
		v.Outcome = Confirmed
		v.Reason = fmt.Sprintf("at b.N=%d it takes %.2gx as long per op as at b.N=%d (%.3g ns/op instead of %.3g): ns/op depends on b.N%s", large, best, small, v.Protected*1e9, v.Original*1e9, busy)
	case best <= 1/growRatio:
		v.Outcome = Undetermined
		v.Reason = fmt.Sprintf("at b.N=%d it takes %.2fx as long per op as at b.N=%d: a fixed cost spread over b.N, not work that grows with it", large, best, small)
	case spread <= flatRatio:
		v.Outcome = Refuted
		v.Reason = fmt.Sprintf("from b.N=%d to %d ns/op stays within %.2fx: it does not depend on b.N", small, large, spread)
	default:
		v.Outcome = Undetermined
		v.Reason = fmt.Sprintf("at b.N=%d it takes %.2fx as long per op as at b.N=%d (%.2fx between the fastest and slowest b.N), between the %.1fx that refutes and the %.1fx that confirms%s", large, best, small, spread, flatRatio, bar, busy)
	}
	return nil
}

// A sizeResult is one benchmark line: its name, the elements of its
// sub-benchmark name, b.N and seconds per op.
type sizeResult struct {
	name string
	subs []string
	n    int
	sec  float64
}

// runAt runs the benchmark of bin once with the given -test.benchtime and
// returns its results. A non-nil load measures the other load on the
// machine during the run.
func runAt(ctx context.Context, bin run.Binary, benchmark, benchtime string, timeout time.Duration, load *loadMeter) ([]sizeResult, error) {
	if load != nil {
		defer load.add(load.sample())
	}
	var rs []sizeResult
	spec := run.ForkSpec{Binary: bin, Pattern: "^" + benchmark + "$", BenchTime: benchtime, Count: 1, Timeout: timeout}
	err := run.RunFork(ctx, spec, func(m *bench.Measurement) bool {
		if sec, ok := m.Get("sec/op"); ok {
			rs = append(rs, sizeResult{name: m.Key.String(), subs: strings.Split(m.Key.Name, "/")[1:], n: m.N, sec: sec})
		}
		return true
	})
	return rs, err
}
