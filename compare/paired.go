package compare

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/mbench/mbench/stats"
)

// A Pair is one paired iteration: the old and the new version's value of
// the metric (e.g. sec/op), measured at the same time on two CPUs.
type Pair struct{ Old, New float64 }

// PairedOptions control AnalyzePairs.
type PairedOptions struct {
	// Level is the confidence level of the interval, e.g. 0.99.
	Level float64
	// Replicates is the number of bootstrap replicates.
	Replicates int
	// Seed makes the bootstrap and the shuffled control reproducible.
	Seed uint64
	// OneSided is the rule for disturbances that hit one side of a pair
	// only; see AnalyzePairs. A zero Cut turns it off.
	OneSided OneSidedRule
}

// DefaultPairedOptions are the defaults of `mbench duet`.
var DefaultPairedOptions = PairedOptions{
	Level: 0.99, Replicates: 10000, Seed: 1,
	OneSided: OneSidedRule{Cut: 0.10, Scales: 5, MaxPairs: 0.2, MaxRuns: 0.2},
}

// OneSidedRule says when a disturbance hit one side of a duet only. A
// disturbance that hits both sides — the interference duet benchmarking is
// made for — cancels in the ratio; one that slows one CPU and not the other
// does not, and on small virtual machines that happens (a vCPU slowed for
// seconds while its sibling ran normally). A value is disturbed
// when its log deviates from its reference (its run's median for a pair,
// the median over runs for a run's own median) by more than
// max(log(1+Cut), Scales × the robust standard deviation 1.4826·MAD of
// those logs); a pair or run is one-sided when exactly one side is
// disturbed and the other deviates by less than a third as much.
//
// A real change moves every iteration and every run of one side alike, so
// it does not stand out from its own side's median and is never removed.
// One-sided pairs are left out of their run's geometric mean, at most
// MaxPairs of a run's pairs; one-sided runs are left out of the grand
// geometric mean, at most MaxRuns of the runs. When more are flagged the
// data are kept whole — so many "disturbances" are the benchmark's own
// behaviour — and a warning says so.
type OneSidedRule struct {
	Cut, Scales       float64
	MaxPairs, MaxRuns float64
}

// A PairedAnalysis is the paired result for one benchmark.
type PairedAnalysis struct {
	// Ratio is new/old: the grand geometric mean of the runs' geometric
	// means of paired ratios (Bulej et al. 2020 §3; the paper's speedup old/new is
	// its reciprocal), with the percentile bootstrap interval over runs
	// widened for few runs (stats.Expand). Above 1, new is slower.
	Ratio stats.Interval
	// Percentile is the paper's interval before widening.
	Percentile stats.Interval
	// Shuffled is the interval the same data give when the new side's
	// values are shuffled across all runs, so that each ratio divides
	// values measured at different times (Bulej et al. 2020 §4.2, RQ2): what the
	// synchronisation bought is Shuffled.RelWidth() / Ratio.RelWidth().
	Shuffled stats.Interval
	// Runs and Pairs count the data analysed; OneSidedPairs and
	// OneSidedRuns what the one-sided rule left out.
	Runs, Pairs                 int
	OneSidedPairs, OneSidedRuns int
	// Old and New are each side's geometric mean over the pairs the
	// ratio is built from (stats.GeoMeanLevels): New/Old is
	// Ratio.Center.
	Old, New float64
	// Warnings are limits of the data.
	Warnings []string
}

// AnalyzePairs computes the duet ratio of paired iterations grouped by run.
// Values must be positive; a pair with a value that is not is an error.
func AnalyzePairs(runs [][]Pair, opts PairedOptions) (PairedAnalysis, error) {
	var a PairedAnalysis
	nan := stats.Interval{Center: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Level: opts.Level}
	a.Ratio, a.Percentile, a.Shuffled = nan, nan, nan
	pairs := 0
	for r, run := range runs {
		for i, v := range run {
			if !(v.Old > 0) || !(v.New > 0) || math.IsInf(v.Old, 0) || math.IsInf(v.New, 0) {
				return a, fmt.Errorf("run %d, pair %d: values %v and %v: want positive, finite values", r+1, i+1, v.Old, v.New)
			}
			pairs++
		}
	}
	if pairs == 0 {
		return a, fmt.Errorf("no paired iterations")
	}

	rule := opts.OneSided
	kept := make([][]Pair, 0, len(runs))
	for _, run := range runs {
		if len(run) == 0 {
			continue
		}
		keep, n, dropped := leaveOut(run, oneSided(run, rule), rule.MaxPairs)
		switch {
		case dropped:
			a.OneSidedPairs += n
			run = keep
		case n > 0:
			a.Warnings = append(a.Warnings, fmt.Sprintf("%d of %d pairs of a run were disturbed on one side; kept, as so many look like the benchmark's own behaviour", n, len(run)))
		}
		kept = append(kept, run)
	}
	// Runs disturbed on one side: compare each run's per-side medians.
	if len(kept) >= 3 {
		meds := make([]Pair, len(kept))
		for r, run := range kept {
			var o, n []float64
			for _, v := range run {
				o, n = append(o, v.Old), append(n, v.New)
			}
			meds[r] = Pair{stats.Median(o), stats.Median(n)}
		}
		keep, n, dropped := leaveOut(kept, oneSided(meds, rule), rule.MaxRuns)
		switch {
		case dropped:
			a.OneSidedRuns = n
			kept = keep
		case n > 0:
			a.Warnings = append(a.Warnings, fmt.Sprintf("%d of %d runs were disturbed on one side; kept, as so many look like the benchmark's own behaviour", n, len(kept)))
		}
	}

	ratios := make([][]float64, len(kept))
	for r, run := range kept {
		ratios[r] = make([]float64, len(run))
		for i, v := range run {
			ratios[r][i] = v.New / v.Old
		}
		a.Pairs += len(run)
	}
	a.Runs = len(kept)
	oldRuns, newRuns := make([][]float64, len(kept)), make([][]float64, len(kept))
	for r, run := range kept {
		for _, v := range run {
			oldRuns[r], newRuns[r] = append(oldRuns[r], v.Old), append(newRuns[r], v.New)
		}
	}
	a.Old, a.New = stats.GeoMeanLevels(oldRuns, newRuns)
	boot := stats.Bootstrap{Level: opts.Level, Replicates: opts.Replicates}
	a.Percentile = boot.GeoMeanRatio(ratios, rand.New(rand.NewPCG(opts.Seed, 0x64756574)))
	a.Ratio = stats.Expand(a.Percentile, float64(a.Runs))

	// The control: the same values with the new side's shuffled across
	// all runs, so that each ratio divides values measured at different
	// times. Shuffling within a run would change nothing: a run's
	// geometric mean of ratios is the ratio of its sides' geometric means,
	// whatever the pairing.
	rng := rand.New(rand.NewPCG(opts.Seed, 0x73687566))
	var news []float64
	for _, run := range kept {
		for _, v := range run {
			news = append(news, v.New)
		}
	}
	rng.Shuffle(len(news), func(i, j int) { news[i], news[j] = news[j], news[i] })
	shuffled := make([][]float64, len(kept))
	k := 0
	for r, run := range kept {
		shuffled[r] = make([]float64, len(run))
		for i, v := range run {
			shuffled[r][i] = news[k] / v.Old
			k++
		}
	}
	a.Shuffled = stats.Expand(boot.GeoMeanRatio(shuffled, rand.New(rand.NewPCG(opts.Seed, 0x64756574))), float64(a.Runs))
	if a.Runs < 2 {
		a.Warnings = append(a.Warnings, "fewer than two runs: no interval")
	}
	return a, nil
}

// leaveOut returns xs without the flagged elements when there are some and
// at most the fraction maxFrac of them (dropped true); n is how many were
// flagged.
func leaveOut[T any](xs []T, flagged []bool, maxFrac float64) (kept []T, n int, dropped bool) {
	for _, f := range flagged {
		if f {
			n++
		}
	}
	if n == 0 || float64(n) > maxFrac*float64(len(xs)) {
		return xs, n, false
	}
	kept = make([]T, 0, len(xs)-n)
	for i, x := range xs {
		if !flagged[i] {
			kept = append(kept, x)
		}
	}
	return kept, n, true
}

// oneSided flags the values disturbed on one side only, as OneSidedRule
// describes, relative to the medians of vs.
func oneSided(vs []Pair, rule OneSidedRule) []bool {
	flagged := make([]bool, len(vs))
	if rule.Cut <= 0 || len(vs) < 3 {
		return flagged
	}
	dev := func(side func(Pair) float64) []float64 {
		logs := make([]float64, len(vs))
		for i, v := range vs {
			logs[i] = math.Log(side(v))
		}
		med := stats.Median(logs)
		scale := 1.4826 * stats.MAD(logs)
		cut := max(math.Log1p(rule.Cut), rule.Scales*scale)
		for i := range logs {
			logs[i] = math.Abs(logs[i]-med) / cut
		}
		return logs
	}
	o := dev(func(v Pair) float64 { return v.Old })
	n := dev(func(v Pair) float64 { return v.New })
	for i := range vs {
		flagged[i] = (o[i] > 1 && n[i] < o[i]/3) || (n[i] > 1 && o[i] < n[i]/3)
	}
	return flagged
}
