// Package compare detects changes between two result sets: for every
// benchmark present in both, the ratio new/old of a centre statistic with a
// bootstrap confidence interval, and a verdict.
//
// A verdict is one of four, decided by the interval and a relevance
// threshold t (3% by default, the bound the papers behind mbench use):
//
//	slower, faster   the interval excludes 1 and the estimate moves by more than t
//	no change        the whole interval lies inside [1−t, 1+t]
//	inconclusive     anything else
//
// (better and worse for metrics other than time, higher and lower when the
// better direction is unknown). An interval that straddles the threshold
// cannot tell a relevant change from none, so the data are inconclusive, never
// "no change"; Row.Resolution then says how small a change they could have
// shown. A side with too few samples for an interval gets its own
// inconclusive verdict, TooFew.
//
// Allocation counts are exact — a benchmark that allocates the same on every
// iteration reports the same integer — so for allocs/op the threshold is 0:
// every change the interval shows is reported, and identical counts are
// "no change" with the interval [1, 1].
//
// The interval respects how the data were taken: when both sides have
// several forks (processes), a hierarchical bootstrap resamples forks and
// then iterations within forks, so that the variance between processes
// carries its weight; when a side comes from a single process, as plain
// `go test -bench -count N` output does, successive iterations are not
// independent (a machine's level shifts last seconds), so a moving-block
// bootstrap over consecutive iterations is used, and the result says that
// the interval cannot see variance between processes.
//
// A side gathered from several instances (machines; runs that share a
// label, each recording its Coord.Instance) gets instances as the outermost
// level: stats.NestedRatio resamples instances, then forks within each, then
// iterations within each fork, and widens the interval to Student's t over
// the instances when they differ by more than their forks' noise, so that a
// level shift between machines shows as a wider interval, not as a change.
// Such rows have the method "nested" and count their measurements as
// instances×forks×iterations. Data from one instance are compared exactly
// as before.
package compare

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/stats"
	"golang.org/x/perf/benchunit"
)

// Options control a comparison. Start from DefaultOptions.
type Options struct {
	// Metric is the unit compared, e.g. "sec/op", "B/op"; "ns/op" and other
	// untidy spellings are accepted.
	Metric string
	// Stat is the centre compared: mean or median.
	Stat stats.Stat
	// Alpha is one minus the confidence level of the interval. The
	// versions of an interleaved session are compared at the error rate
	// of one of the session's looks (LookAlpha), the rate its decisions
	// were taken at, unless AlphaSet says Alpha was chosen.
	Alpha    float64
	AlphaSet bool
	// Threshold is the smallest relative change that matters, e.g. 0.03.
	// It does not apply to allocs/op, whose counts are exact: Compare uses
	// 0 for them.
	Threshold float64
	// Replicates is the number of bootstrap replicates.
	Replicates int
	// Seed makes the bootstrap reproducible.
	Seed uint64
}

// DefaultOptions are the defaults of `mbench compare`.
var DefaultOptions = Options{
	Metric:     "sec/op",
	Stat:       stats.StatMean,
	Alpha:      0.01,
	Threshold:  0.03,
	Replicates: 10000,
	Seed:       1,
}

// MinReplicates is the fewest bootstrap replicates Compare accepts: with
// fewer, the 0.5% tails of a 99% interval hold no replicate.
const MinReplicates = 100

// Validate reports the first option out of range. Its message begins with
// the option's name as mbench's flags spell it ("alpha", "threshold",
// "reps"), so that a command can name the flag at fault. The conditions are
// negated so that NaN, which fails every comparison, is rejected too; an
// infinite threshold would make every change irrelevant and so silently
// turn off a regression gate.
func (o *Options) Validate() error {
	switch {
	case !(o.Alpha > 0 && o.Alpha < 1):
		return fmt.Errorf("alpha %v: want a number between 0 and 1, e.g. 0.01", o.Alpha)
	case !(o.Threshold >= 0) || math.IsInf(o.Threshold, 0):
		return fmt.Errorf("threshold %v: want a finite non-negative fraction, e.g. 0.03", o.Threshold)
	case o.Replicates < MinReplicates || o.Replicates > stats.MaxReplicates:
		return fmt.Errorf("reps %d: want between %d and %d bootstrap replicates", o.Replicates, MinReplicates, stats.MaxReplicates)
	}
	return nil
}

// A Verdict is the outcome for one benchmark.
type Verdict int

const (
	// NoChange means the whole interval lies within the threshold: any
	// change there may be is too small to matter.
	NoChange Verdict = iota
	// Better and Worse are changes in the direction of improvement or
	// regression of the metric (faster and slower for time): the interval
	// excludes 1 and the estimate moves by more than the threshold.
	Better
	Worse
	// Higher and Lower are changes in a metric whose better direction is
	// unknown.
	Higher
	Lower
	// TooFew means a side has too few samples for the requested
	// confidence; it is inconclusive with a reason of its own.
	TooFew
	// Inconclusive means the interval is neither clear of 1 by more than
	// the threshold nor inside it: the data cannot tell a relevant change
	// from none. Row.Resolution says what they could have told.
	Inconclusive
)

// Word returns the verdict as the output shows it, for a metric whose
// direction of improvement is bench.DefaultBetter's: time (and
// throughput) says slower and faster; memory, allocations and other
// metrics say more and less. Result.Word knows the direction of metrics
// that a run declares.
func (v Verdict) Word(unit string) string {
	return v.word(unit, bench.DefaultBetter(unit))
}

// Word returns the verdict v as Verdict.Word does, for the result's
// metric and its direction of improvement.
func (r *Result) Word(v Verdict) string { return v.word(r.Metric, r.Better) }

func (v Verdict) word(unit string, better int) string {
	speed := strings.HasSuffix(unit, "sec/op") || better > 0 && strings.HasSuffix(unit, "/s")
	switch v {
	case NoChange:
		return "no change"
	case Better, Worse:
		switch {
		case speed:
			return map[Verdict]string{Better: "faster", Worse: "slower"}[v]
		case (v == Better) == (better > 0):
			return "more"
		}
		return "less"
	case Higher:
		return "more"
	case Lower:
		return "less"
	case TooFew:
		return "too few samples"
	case Inconclusive:
		return "inconclusive"
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// A Side summarises one benchmark on one side of the comparison.
type Side struct {
	Center    float64 // mean or median, as Options.Stat says
	N         int     // measurement iterations
	Forks     int     // processes they came from
	Instances int     // machines the processes ran on (Coord.Instance); 1 for one
}

// A Row is the comparison of one benchmark.
type Row struct {
	Key      bench.Key
	Old, New Side
	// Ratio is new/old of the centres, with its confidence interval.
	Ratio stats.Interval
	// Method names how the interval was computed: "nested" (instances,
	// then forks, then iterations), "hierarchical" (forks, then
	// iterations), "block" (moving blocks of consecutive iterations) or ""
	// when there was no interval.
	Method  string
	Verdict Verdict
	// Resolution is the smallest relative change the data could have
	// shown: the larger distance from the ratio to an end of its interval,
	// relative to the ratio. Changes within ±Resolution cannot be told
	// from noise, so an Inconclusive row with a Resolution of 0.07 under a
	// threshold of 0.03 needs a narrower interval, not a second look at the
	// estimate. It is NaN without an interval and +Inf when the interval
	// is unbounded.
	Resolution float64
	// Note explains a TooFew verdict or another limit of this row.
	Note string
	// Shuffled is, for a duet, the interval the same data give with the
	// pairing shuffled across runs: what the synchronisation bought.
	Shuffled stats.Interval
}

// Change returns the relative change new/old - 1.
func (r *Row) Change() float64 { return r.Ratio.Center - 1 }

// A Result is a whole comparison.
type Result struct {
	OldLabel, NewLabel string
	Metric             string
	Stat               stats.Stat
	Level              float64
	Threshold          float64
	// Better is +1 when higher values of the metric are better, -1 when
	// lower ones are, and 0 when unknown.
	Better int
	Rows   []Row
	// OnlyOld and OnlyNew list benchmarks measured on one side only.
	OnlyOld, OnlyNew []bench.Key
	// Geomean is the geometric mean over all rows with a centre on both
	// sides, and the ratio of the two: the suite's overall change. It has
	// no interval.
	Geomean struct {
		Old, New, Ratio float64
		N               int
	}
	// Warnings are problems of the data that limit the conclusions.
	Warnings []string
	// Paired is set when the two sides were measured paired in time: the
	// halves of a duet (see Paired), whose rows compare paired iterations
	// and whose Row.Old and Row.New centres are geometric means, or the
	// versions of an interleaved session (see Interleaved), whose rows
	// compare the processes of each round.
	Paired bool
	// Interleaved is set for the versions of an interleaved session;
	// Turns too when its rounds took turns (bench.SettingPairing).
	Interleaved, Turns bool
	// Centers says what Row.Old.Center and Row.New.Center are: the Stat
	// of every iteration ("mean", "median"), or, for paired data, the
	// figures the paired ratio is built from, so that New.Center /
	// Old.Center is Ratio.Center: CentersRounds, CentersTurns or
	// CentersDuet. (A row that could not be paired, as its note says,
	// shows means.)
	Centers string
}

// The values of Result.Centers for paired data.
const (
	// CentersRounds: the geometric mean over rounds of each version's
	// process mean (stats.RoundLevels).
	CentersRounds = "geomean-of-round-means"
	// CentersTurns: the geometric mean over rounds of each version's
	// values in the round's median pair by ratio (stats.TurnLevels).
	CentersTurns = "geomean-of-median-pairs"
	// CentersDuet: the geometric mean over runs of each side's paired
	// iterations (stats.GeoMeanLevels).
	CentersDuet = "geomean-of-pairs"
)

// Regressions returns the rows whose verdict is Worse.
func (r *Result) Regressions() []Row {
	var out []Row
	for _, row := range r.Rows {
		if row.Verdict == Worse {
			out = append(out, row)
		}
	}
	return out
}

// Regressed names the benchmarks that got worse in any of results, once each,
// with the metrics they got worse in: "pkg.Name-8 (sec/op, B/op)".
func Regressed(results ...*Result) []string {
	var keys []bench.Key
	metrics := make(map[bench.Key][]string)
	for _, res := range results {
		for _, row := range res.Regressions() {
			if metrics[row.Key] == nil {
				keys = append(keys, row.Key)
			}
			metrics[row.Key] = append(metrics[row.Key], res.Metric)
		}
	}
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = fmt.Sprintf("%s (%s)", k, strings.Join(metrics[k], ", "))
	}
	return names
}

// MinSamples returns the fewest samples a side needs for a two-sided
// interval at confidence 1-alpha: with n samples, a percentile interval
// cannot be narrower than the range of the data with probability about
// 2·0.5^n, so n must be at least log2(2/alpha) — 6 at 95% and 8 at 99%, the
// same bounds benchstat applies to its order-statistic intervals.
func MinSamples(alpha float64) int {
	return int(math.Ceil(math.Log2(2 / alpha)))
}

// Compare compares the runs old and new. Errors are for requests that cannot
// be answered (options that do not Validate, an unknown metric, no benchmark
// in common); limits of the data
// are in Result.Warnings and Row.Note.
func Compare(old, new *bench.Run, opts Options) (*Result, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if err := oneVersion(old, new); err != nil {
		return nil, err
	}
	if a, ok := LookAlpha(old); ok && !opts.AlphaSet && Interleaved(old, new) {
		opts.Alpha = a
	}
	_, unit := benchunit.Tidy(1, opts.Metric)
	if unit == "allocs/op" {
		opts.Threshold = 0
	}
	res := &Result{
		OldLabel: old.Label, NewLabel: new.Label,
		Metric: unit, Stat: opts.Stat, Level: 1 - opts.Alpha, Threshold: opts.Threshold,
	}
	inOld, inNew := slices.Contains(old.UnitsUsed(), unit), slices.Contains(new.UnitsUsed(), unit)
	if !inOld || !inNew {
		return nil, missingMetric(unit, old, new, inOld, inNew)
	}
	res.Better = old.Better(unit)
	if b := new.Better(unit); res.Better == 0 {
		res.Better = b
	} else if b != 0 && b != res.Better {
		res.Warnings = append(res.Warnings, fmt.Sprintf("the inputs disagree on whether higher %s is better; using %s's metadata", unit, old.Label))
	}

	if w := bench.PlatformWarning(old, new); w != "" {
		res.Warnings = append(res.Warnings, w)
	}

	// Rows are in the order the benchmarks first appear in the inputs,
	// old then new, as benchstat orders them (or in the order of the
	// source a stored run recorded, see bench.Run.Keys): the order the
	// benchmarks were written and run in, which puts sub-benchmarks of
	// sizes 15, 40, 512, 1kB in that order, where sorting names would not.
	olds, news := old.Samples(unit), new.Samples(unit)
	for _, k := range old.Keys() {
		switch {
		case olds[k] == nil:
		case news[k] != nil:
			res.Rows = append(res.Rows, Row{Key: k})
		default:
			res.OnlyOld = append(res.OnlyOld, k)
		}
	}
	for _, k := range new.Keys() {
		if news[k] != nil && olds[k] == nil {
			res.OnlyNew = append(res.OnlyNew, k)
		}
	}
	if len(res.Rows) == 0 {
		return nil, fmt.Errorf("%s and %s have no benchmark in common (%d and %d benchmarks with %s)",
			old.Label, new.Label, len(olds), len(news), unit)
	}

	boot := stats.Bootstrap{Level: 1 - opts.Alpha, Replicates: opts.Replicates}
	minN := MinSamples(opts.Alpha)
	paired := Paired(old, new)
	rounds := Interleaved(old, new)
	turns := rounds && old.Settings[bench.SettingPairing] == bench.PairingTurns
	res.Paired, res.Interleaved, res.Turns = paired || rounds, rounds, turns
	switch res.Centers = opts.Stat.String(); {
	case turns:
		res.Centers = CentersTurns
	case rounds:
		res.Centers = CentersRounds
	case paired:
		res.Centers = CentersDuet
	}
	var wg sync.WaitGroup
	work := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range work {
				row := &res.Rows[i]
				switch {
				case paired:
					pairedRow(row, olds[row.Key], news[row.Key], opts, res.Better)
				case rounds:
					roundsRow(row, olds[row.Key], news[row.Key], opts, boot, res.Better, turns)
				default:
					compareRow(row, olds[row.Key], news[row.Key], opts, boot, minN, res.Better)
				}
			}
		})
	}
	for i := range res.Rows {
		work <- i
	}
	close(work)
	wg.Wait()

	noForks := map[string]bool{}
	var logSum [3]float64
	for _, row := range res.Rows {
		if row.Old.Forks < 2 && !res.Paired {
			noForks[old.Label] = true
		}
		if row.New.Forks < 2 && !res.Paired {
			noForks[new.Label] = true
		}
		if row.Old.Center > 0 && row.New.Center > 0 {
			logSum[0] += math.Log(row.Old.Center)
			logSum[1] += math.Log(row.New.Center)
			res.Geomean.N++
		}
	}
	if n := float64(res.Geomean.N); n > 0 {
		res.Geomean.Old = math.Exp(logSum[0] / n)
		res.Geomean.New = math.Exp(logSum[1] / n)
		res.Geomean.Ratio = res.Geomean.New / res.Geomean.Old
	}
	if w := shiftWarning(res); w != "" && !res.Paired {
		res.Warnings = append(res.Warnings, w)
	}
	var single []string
	for _, label := range []string{old.Label, new.Label} {
		if noForks[label] {
			single = append(single, label)
		}
	}
	if len(single) > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf(
			"%s: results from a single process (no fork structure), as `go test -count N` gives; "+
				"intervals resample blocks of consecutive iterations but cannot see how much results vary "+
				"between processes, so they may be too narrow (`mbench run` measures several forks)",
			strings.Join(single, " and ")))
	}
	if n := len(res.OnlyOld) + len(res.OnlyNew); n > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%d benchmarks are measured on one side only and not compared (listed below the table)", n))
	}
	return res, nil
}

// oneVersion checks that each side holds one version: a side that pooled
// the two versions of a session (or of a run of two labelled binaries)
// would average what was measured apart, so it is an error naming them.
func oneVersion(sides ...*bench.Run) error {
	for _, r := range sides {
		if vs := r.Versions(); len(vs) > 1 {
			return fmt.Errorf("%s holds %d versions, %s: one side of a comparison may not pool them; compare them with each other by giving %s alone",
				r.Label, len(vs), quoteList(vs), r.Label)
		}
	}
	return nil
}

// quoteList lists names, each quoted: "a" and "b", or "a", "b" and "c".
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// compareRow fills in one row. Its random source depends only on the seed
// and the benchmark, so results do not depend on scheduling.
func compareRow(row *Row, o, n *bench.Sample, opts Options, boot stats.Bootstrap, minN, better int) {
	oAll, nAll := o.All(), n.All()
	oi, ni := o.Instances(), n.Instances()
	row.Old = Side{Center: opts.Stat.Of(oAll), N: len(oAll), Forks: len(o.Forks), Instances: len(oi)}
	row.New = Side{Center: opts.Stat.Of(nAll), N: len(nAll), Forks: len(n.Forks), Instances: len(ni)}
	row.Ratio = stats.Interval{Center: row.New.Center / row.Old.Center, Lo: math.NaN(), Hi: math.NaN(), Level: boot.Level}
	row.Resolution = math.NaN()
	if row.Old.N < minN || row.New.N < minN {
		row.Verdict = TooFew
		row.Note = fmt.Sprintf("need at least %d samples per side for a %s%% interval; have %d and %d",
			minN, Percent(boot.Level), row.Old.N, row.New.N)
		return
	}
	if row.Old.Center == 0 {
		zeroRow(row, oAll, nAll, opts.Stat, better)
		return
	}
	h := fnv.New64a()
	h.Write([]byte(row.Key.String()))
	r := rand.New(rand.NewPCG(opts.Seed, h.Sum64()))
	// Percentile intervals over few independent units are too narrow;
	// stats.ExpandDF widens them to a Student-t interval whose degrees of
	// freedom come from the spread of each side's unit means (forks, or
	// blocks of consecutive iterations), combined as Welch does. Data
	// from several instances are resampled by instance first, and
	// NestedRatio widens by the instances' degrees of freedom itself.
	switch {
	case len(oi) > 1 || len(ni) > 1:
		row.Method = "nested"
		row.Ratio = boot.NestedRatio(ni, oi, opts.Stat, r)
	case o.HasForks() && n.HasForks():
		row.Method = "hierarchical"
		row.Ratio = boot.HierarchicalRatio(n.Forks, o.Forks, opts.Stat, r)
		units := float64(min(len(o.Forks), len(n.Forks)))
		row.Ratio = stats.ExpandDF(row.Ratio, units, stats.WelchDF(logMeans(o.Forks), logMeans(n.Forks)))
	default:
		row.Method = "block"
		row.Ratio = boot.BlockRatio(nAll, oAll, opts.Stat, r)
		ob, nb := blockMeans(oAll), blockMeans(nAll)
		units := float64(min(len(ob), len(nb)))
		row.Ratio = stats.ExpandDF(row.Ratio, units, stats.WelchDF(logMeans(ob), logMeans(nb)))
	}
	row.Verdict, row.Resolution = verdict(row.Ratio, opts.Threshold, better)
}

// zeroRow fills in a row whose old centre is 0, where a ratio is undefined.
// Zero on both sides is no change when every value is zero (0 B/op before
// and after). Otherwise the change is of unbounded relative size, so any
// threshold is exceeded, and the question is only whether there is one: it
// is reported when the two sides do not overlap at all, every new value
// above (or below) every old one. Under no change the m+n values are
// exchangeable and such a separation has probability 2/C(m+n, n); Compare
// has checked that both sides have at least MinSamples(alpha) = k values,
// and C(m+n, n) ≥ C(2k, k) ≥ 2^k ≥ 2/alpha, so the rule is a test at
// level alpha (an exact Mann–Whitney test with no overlap). Anything else
// is inconclusive with an unbounded resolution.
func zeroRow(row *Row, o, n []float64, stat stats.Stat, better int) {
	level := row.Ratio.Level
	if row.New.Center == 0 && allZero(o) && allZero(n) {
		row.Ratio = stats.Interval{Center: 1, Lo: 1, Hi: 1, Level: level}
		row.Resolution = 0
		row.Verdict = NoChange
		return
	}
	row.Note = fmt.Sprintf("old %s is 0; the change is not a ratio", stat)
	row.Resolution = math.Inf(1)
	row.Verdict = Inconclusive
	switch {
	case slices.Min(n) > slices.Max(o):
		row.Verdict = direction(true, better)
		row.Note += ", and every new value is above every old one"
	case slices.Max(n) < slices.Min(o):
		row.Verdict = direction(false, better)
		row.Note += ", and every new value is below every old one"
	}
}

// allZero reports whether every value of x is 0.
func allZero(x []float64) bool {
	for _, v := range x {
		if v != 0 {
			return false
		}
	}
	return true
}

// Bounds of the machine-wide shift warning: at least shiftMinRows
// benchmarks, shiftShare of them moving the same way, and the geometric
// mean moving by more than half the threshold.
const (
	shiftMinRows = 5
	shiftShare   = 0.8
)

// shiftWarning recognises the pattern a shift of the whole machine between
// two runs leaves: nearly every benchmark moves the same way by a similar
// amount, as two consecutive runs of the same binary on a shared machine
// do (docs/eval/run.md). The data cannot tell such a shift from a change that
// slows everything, so this only warns; verdicts stand. The two halves of a
// duet ran at the same time, and those of an interleaved session in the
// same round, so a shift of the machine hits both and cancels in the paired
// ratios: Compare does not ask for this warning then, and a session that
// moves every benchmark has found a change that affects everything.
func shiftWarning(res *Result) string {
	up, down, n := 0, 0, 0
	for _, row := range res.Rows {
		if row.Old.Center <= 0 || row.New.Center <= 0 {
			continue
		}
		n++
		switch c := row.Change(); {
		case c > 0:
			up++
		case c < 0:
			down++
		}
	}
	same := max(up, down)
	if n < shiftMinRows || float64(same) < shiftShare*float64(n) || math.Abs(res.Geomean.Ratio-1) <= res.Threshold/2 {
		return ""
	}
	return fmt.Sprintf("%d of %d benchmarks moved the same way (geomean %s): a shift of the whole machine between the runs "+
		"looks like this as much as a change that affects everything; measure old and new interleaved, or again, before trusting the verdicts",
		same, n, pct(res.Geomean.Ratio-1, true))
}

// logMeans returns the logarithm of the mean of each group.
func logMeans(groups [][]float64) []float64 {
	out := make([]float64, len(groups))
	for i, g := range groups {
		out[i] = math.Log(stats.Mean(g))
	}
	return out
}

// blockMeans splits a sequence into consecutive blocks of
// stats.BlockLength values (the last block takes the remainder), the units
// whose means carry the sequence's dependence.
func blockMeans(x []float64) [][]float64 {
	l := stats.BlockLength(len(x))
	var out [][]float64
	for i := 0; i+l <= len(x); i += l {
		end := i + l
		if len(x)-end < l {
			end = len(x)
		}
		out = append(out, x[i:end])
	}
	return out
}

// verdict applies the rule of the package comment to a ratio new/old and
// returns the interval's resolution with it.
func verdict(ratio stats.Interval, threshold float64, better int) (Verdict, float64) {
	res := resolution(ratio)
	// The threshold gets a relative tolerance of 1e-9 so that a change of
	// exactly the threshold, which float arithmetic may put a hair above it,
	// is not reported, and an interval ending exactly at it counts as
	// inside.
	t := threshold * (1 + 1e-9)
	switch {
	case math.IsNaN(ratio.Lo) || math.IsNaN(ratio.Hi):
		return Inconclusive, res
	case !ratio.Contains(1) && math.Abs(ratio.Center-1) > t:
		return direction(ratio.Center > 1, better), res
	case ratio.Lo >= 1-t && ratio.Hi <= 1+t:
		return NoChange, res
	}
	return Inconclusive, res
}

// resolution returns the larger distance from an interval's centre to its
// ends, relative to the centre: the smallest change the interval could have
// told from none.
func resolution(iv stats.Interval) float64 {
	return max(iv.Center-iv.Lo, iv.Hi-iv.Center) / math.Abs(iv.Center)
}

// direction names a change upwards (up) or downwards for a metric whose
// better direction is better (+1 higher, -1 lower, 0 unknown).
func direction(up bool, better int) Verdict {
	switch {
	case better == 0 && up:
		return Higher
	case better == 0:
		return Lower
	case up == (better > 0):
		return Better
	}
	return Worse
}

func missingMetric(unit string, old, new *bench.Run, inOld, inNew bool) error {
	var where string
	switch {
	case !inOld && !inNew:
		where = "either input"
	case !inOld:
		where = old.Label
	default:
		where = new.Label
	}
	units := old.UnitsUsed()
	for _, u := range new.UnitsUsed() {
		if !slices.Contains(units, u) {
			units = append(units, u)
		}
	}
	slices.SortFunc(units, cmp.Compare)
	return fmt.Errorf("metric %s is not in %s; the inputs have: %v", unit, where, units)
}

// Paired reports whether old and new were measured side by side by `mbench
// duet`: both carry the same bench.SettingDuet, old as side
// bench.DuetSideOld and new as side bench.DuetSideNew. Their iterations are
// then compared pair by pair.
func Paired(old, new *bench.Run) bool {
	id := old.Settings[bench.SettingDuet]
	return id != "" && new.Settings[bench.SettingDuet] == id &&
		old.Settings[bench.SettingDuetSide] == bench.DuetSideOld && new.Settings[bench.SettingDuetSide] == bench.DuetSideNew
}

// pairedRow fills in the row of a duet: the iterations of the two sides
// that share a fork coordinate and an index ran at the same time, and
// AnalyzePairs takes their ratios.
func pairedRow(row *Row, o, n *bench.Sample, opts Options, better int) {
	row.Method = "duet"
	newFork := make(map[bench.ForkID][]float64)
	for i, id := range n.IDs {
		newFork[id] = n.Forks[i]
	}
	var runs [][]Pair
	for i, id := range o.IDs {
		nf := newFork[id]
		var run []Pair
		for j := range min(len(o.Forks[i]), len(nf)) {
			run = append(run, Pair{Old: o.Forks[i][j], New: nf[j]})
		}
		if len(run) > 0 {
			runs = append(runs, run)
		}
	}
	h := fnv.New64a()
	h.Write([]byte(row.Key.String()))
	ao := DefaultPairedOptions
	ao.Level, ao.Replicates, ao.Seed = 1-opts.Alpha, opts.Replicates, opts.Seed^h.Sum64()
	nan := stats.Interval{Center: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Level: ao.Level}
	row.Ratio = nan
	row.Resolution = math.NaN()
	a, err := AnalyzePairs(runs, ao)
	if err != nil {
		row.Verdict = TooFew
		row.Note = err.Error()
		return
	}
	row.Old = Side{Center: a.Old, N: a.Pairs, Forks: a.Runs}
	row.New = Side{Center: a.New, N: a.Pairs, Forks: a.Runs}
	row.Ratio = a.Ratio
	row.Shuffled = a.Shuffled
	var notes []string
	if a.Runs < 2 {
		row.Verdict = TooFew
		row.Resolution = resolution(row.Ratio)
		notes = append(notes, "need at least 2 duet runs for an interval")
	} else {
		row.Verdict, row.Resolution = verdict(row.Ratio, opts.Threshold, better)
		if w := a.Shuffled.RelWidth(); w > 0 && a.Ratio.RelWidth() > 0 {
			notes = append(notes, fmt.Sprintf("unpaired ±%.2f%% (%.1f× wider)", 50*w, w/a.Ratio.RelWidth()))
		}
	}
	if a.OneSidedPairs+a.OneSidedRuns > 0 {
		notes = append(notes, fmt.Sprintf("left out %d pairs and %d runs disturbed on one side", a.OneSidedPairs, a.OneSidedRuns))
	}
	notes = append(notes, a.Warnings...)
	row.Note = strings.Join(notes, "; ")
}
