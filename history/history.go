// Package history follows benchmarks across stored runs and finds where
// they stepped.
//
// Analyze takes runs in the order they were made (by start time, or by
// commit) and builds, per benchmark, a series with one Point per run that
// measured it: the mean of that run's measurement iterations and its
// confidence interval. Benchmarks are in the order the runs first show
// them, never sorted by name. The series of means is searched for change
// points with E-Divisive means as Apache Otava does it (stats.Divisive:
// windows of 50 runs, Student's t-test at p 0.001, or a permutation test);
// a change is reported only when it is significant and its step, the ratio
// of the mean after to the mean before, up to the neighbouring change
// points, lies beyond ±Threshold. A step needs MinRuns runs on each side,
// so a single outlying run is not taken for two steps, and a step is seen
// once MinRuns runs after it have been made.
//
// # Intervals
//
// A point's interval is the kind `mbench run` reports: the hierarchical
// bootstrap of the mean over forks and then iterations (stats.Hierarchical,
// here with 1,000 replicates), widened for few forks (stats.Expand). A
// history of a whole suite has many points: a replicate costs a uniform
// draw per value, so 1,000 benchmarks over 200 runs would spend
// 1,000 × 200 × 1,000 draws times the values of a run in bootstraps.
// When an analysis holds more than MaxBootstrap points, every point's
// interval is instead Student's t interval over the means of its forks,
// the interval Expand matches the bootstrap to, which costs one pass. A run measured in one process has no
// interval (NaN bounds), since its iterations are not independent.
//
// A change's interval is the percentile bootstrap of the ratio of the mean
// of the points after the step to the mean of those before it (up to the
// neighbouring changes), resampling the runs of each side (1,000
// replicates, stats.Replicates), widened for the number of runs
// (stats.Expand). The runs are the independent units: a run's mean
// carries the variance of its forks and iterations, and resampling within
// runs as well would cost several times as much for a whole suite.
package history

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"runtime"
	"slices"
	"sync"
	"time"

	"golang.org/x/perf/benchunit"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/stats"
)

// A Point is one run's result for one benchmark.
type Point struct {
	Run, Label string
	Time       time.Time
	// Center is the mean of the run's measurement iterations; Lo and Hi
	// bound its confidence interval (NaN when it has none).
	Center, Lo, Hi float64
	// Mark is what a bisection found at the run's commit (the run's
	// bench.SettingBisectMark), "" for none.
	Mark string
}

// A Change is a step in a series.
type Change struct {
	// Index is the point of the first run after the step; Run and Label
	// are that run's.
	Index      int
	Run, Label string
	// Ratio is the mean after the step over the mean before it, with its
	// confidence interval [Lo, Hi]; P is the significance of the step.
	Ratio, Lo, Hi, P float64
}

// A Series is one benchmark across runs.
type Series struct {
	Pkg, Name string // Name as `go test` prints it, without "Benchmark": "Sum-4"
	Unit      string
	Points    []Point
	Changes   []Change
	// MinRuns is the fewest runs on each side of a step that the
	// analysis asked for (Options.MinRuns, at least 1): a step shows only
	// once that many runs follow it.
	MinRuns int
}

// TooFew reports whether s has too few points for any step to show:
// fewer than MinRuns on each side of every place a step could be, or
// fewer than three in all. Its lack of changes then says nothing.
func (s *Series) TooFew() bool {
	return TooFewRuns(len(s.Points), s.MinRuns) != ""
}

// TooFewRuns says why no step can show in a history of n runs that needs
// minRuns runs on each side of a step, naming how many it needs, or
// returns "" when one can.
func TooFewRuns(n, minRuns int) string {
	m := max(minRuns, 1)
	need := max(2*m, 3)
	if n >= need {
		return ""
	}
	return fmt.Sprintf("too few runs to see a step: %s, and a step needs %s on each side (%d in all)",
		plural(n, "run", "runs"), plural(m, "run", "runs"), need)
}

// Unseen returns how many of the last points a step cannot show at yet,
// since fewer than MinRuns runs follow them; it is 0 when TooFew, which
// says more.
func (s *Series) Unseen() int {
	if s.TooFew() {
		return 0
	}
	return max(s.MinRuns, 1) - 1
}

// Options configures Analyze.
type Options struct {
	// Threshold is the smallest step, as a fraction, that is reported.
	Threshold float64
	// Alpha is the level at which a step is significant.
	Alpha float64
	// Permutations selects the permutation test with that many
	// permutations instead of Student's t-test (0).
	Permutations int
	// Window is how many runs are searched together (0: all).
	Window int
	// MinRuns is the fewest runs on either side of a step.
	MinRuns int
	// Seed seeds the bootstraps and permutations.
	Seed uint64
	// Bench selects benchmarks by their name without "Benchmark" and
	// GOMAXPROCS suffix ("Join/n=10"); nil selects all.
	Bench *regexp.Regexp
	// Unit is the metric followed: "sec/op" (or "ns/op"), "B/op", ...
	Unit string
}

// DefaultOptions are Otava's settings with mbench's threshold.
var DefaultOptions = Options{Threshold: 0.03, Alpha: 0.001, Window: 50, MinRuns: 3, Seed: 1, Unit: "sec/op"}

// MaxBootstrap is the most points an analysis bootstraps the intervals of;
// beyond it, intervals are Student's t over fork means (see the package
// doc).
const MaxBootstrap = 2000

// level is the confidence level of the intervals, as `mbench run` uses.
const level = 0.99

// Analyze returns the series of every benchmark the runs measured in
// opts.Unit, runs being in the order they were made.
func Analyze(runs []*bench.Run, opts Options) ([]*Series, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if len(runs) == 0 {
		return nil, errors.New("no runs")
	}
	_, unit := benchunit.Tidy(1, opts.Unit)
	var order []bench.Key
	series := make(map[bench.Key]*seriesData)
	points := 0
	versions := make([]string, len(runs))
	skip := make(map[bench.Key]bool) // not selected by opts.Bench
	// Group the values by benchmark, run and fork, as bench.Run.Samples
	// does, in one pass over all runs.
	for i, r := range runs {
		versions[i] = lastVersion(r)
		for j := range r.Measurements {
			m := &r.Measurements[j]
			if m.Coord.Phase != bench.Measure || m.Coord.Version != versions[i] {
				continue
			}
			v, ok := m.Get(unit)
			if !ok {
				continue
			}
			sd := series[m.Key]
			if sd == nil {
				if skip[m.Key] || opts.Bench != nil && !opts.Bench.MatchString(m.Key.Name) {
					skip[m.Key] = true
					continue
				}
				sd = &seriesData{}
				series[m.Key] = sd
				order = append(order, m.Key)
			}
			if sd.last() != i {
				sd.runs = append(sd.runs, i)
				sd.forks = append(sd.forks, nil)
				sd.ids = sd.ids[:0]
				points++
			}
			p, id := len(sd.forks)-1, m.Coord.ForkID()
			f := slices.Index(sd.ids, id)
			if f < 0 {
				f = len(sd.ids)
				sd.ids = append(sd.ids, id)
				sd.forks[p] = append(sd.forks[p], nil)
			}
			sd.forks[p][f] = append(sd.forks[p][f], v)
		}
	}
	if len(order) == 0 {
		if opts.Bench != nil {
			return nil, fmt.Errorf("no benchmark matching %q measured in %s", opts.Bench, unit)
		}
		return nil, fmt.Errorf("no benchmark measured in %s", unit)
	}
	sourceOrder(order, runs)
	out := make([]*Series, len(order))
	boot := points <= MaxBootstrap
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				k := order[i]
				rng := rand.New(rand.NewPCG(opts.Seed, uint64(i)))
				out[i] = series[k].analyze(k, unit, runs, versions, opts, boot, rng)
			}
		})
	}
	for i := range order {
		next <- i
	}
	close(next)
	wg.Wait()
	return out, nil
}

// Validate reports the first setting of o out of its range.
func (o Options) Validate() error {
	switch {
	case !(o.Threshold >= 0) || math.IsInf(o.Threshold, 0):
		return fmt.Errorf("threshold %v: want a fraction of 0 or more", o.Threshold)
	case !(o.Alpha > 0 && o.Alpha < 1):
		return fmt.Errorf("alpha %v: want a level in (0,1)", o.Alpha)
	case o.Window < 0 || o.Window == 1:
		return fmt.Errorf("window %d: want 0 (all runs) or 2 or more", o.Window)
	case o.Permutations < 0:
		return fmt.Errorf("permutations %d: want 0 (t-test) or more", o.Permutations)
	case o.MinRuns < 0:
		return fmt.Errorf("min runs %d: want 0 or more", o.MinRuns)
	}
	return nil
}

// lastVersion is the version of a run's measurements that its history
// follows: the last one it measured, the new side of an A/B session, or ""
// for a run of one version.
func lastVersion(r *bench.Run) string {
	v := ""
	for i := range r.Measurements {
		if c := r.Measurements[i].Coord.Version; c != "" {
			v = c
		}
	}
	return v
}

// seriesData is one benchmark's values: for each run that measured it (an
// index into the runs), its values by fork.
type seriesData struct {
	runs  []int
	forks [][][]float64
	ids   []bench.ForkID // the forks of the last run
}

// last returns the index of the last run in sd, or -1.
func (sd *seriesData) last() int {
	if len(sd.runs) == 0 {
		return -1
	}
	return sd.runs[len(sd.runs)-1]
}

func (sd *seriesData) analyze(k bench.Key, unit string, runs []*bench.Run, versions []string, opts Options, boot bool, rng *rand.Rand) *Series {
	s := &Series{Pkg: k.Package, Name: k.String()[len(k.Package):], Unit: unit, MinRuns: max(opts.MinRuns, 1)}
	if k.Package != "" {
		s.Name = s.Name[1:]
	}
	centers := make([]float64, len(sd.runs))
	for p, ri := range sd.runs {
		r := runs[ri]
		iv := pointInterval(sd.forks[p], boot, rng)
		label := r.Label
		if v := versions[ri]; v != "" {
			label += " " + v
		}
		s.Points = append(s.Points, Point{Run: r.ID, Label: label, Time: r.Start, Center: iv.Center, Lo: iv.Lo, Hi: iv.Hi,
			Mark: r.Settings[bench.SettingBisectMark]})
		centers[p] = iv.Center
	}
	d := stats.Divisive{Alpha: opts.Alpha, Window: opts.Window, Permutations: opts.Permutations,
		MinChange: opts.Threshold, MinSize: opts.MinRuns}
	cps := d.ChangePoints(centers, rng)
	for i, c := range cps {
		lo, hi := 0, len(centers)
		if i > 0 {
			lo = cps[i-1].Index
		}
		if i+1 < len(cps) {
			hi = cps[i+1].Index
		}
		iv := ratioInterval(centers[lo:c.Index], centers[c.Index:hi], rng)
		pt := s.Points[c.Index]
		s.Changes = append(s.Changes, Change{Index: c.Index, Run: pt.Run, Label: pt.Label,
			Ratio: c.Ratio(), Lo: iv.Lo, Hi: iv.Hi, P: c.P})
	}
	return s
}

// pointInterval is the mean of a run's values and its interval (see the
// package doc).
func pointInterval(forks [][]float64, boot bool, rng *rand.Rand) stats.Interval {
	var all []float64
	means := make([]float64, len(forks))
	for i, f := range forks {
		all = append(all, f...)
		means[i] = stats.Mean(f)
	}
	iv := stats.Interval{Center: stats.Mean(all), Lo: math.NaN(), Hi: math.NaN(), Level: level}
	n := float64(len(forks))
	switch {
	case len(forks) < 2:
	case boot:
		iv = stats.Expand(stats.Bootstrap{Level: level, Replicates: 1000}.Hierarchical(forks, stats.StatMean, rng), n)
	default:
		h := tQuantile(len(forks)) * stats.StdDev(means) / math.Sqrt(n)
		iv.Lo, iv.Hi = iv.Center-h, iv.Center+h
	}
	return iv
}

// tQuantiles caches Student's t quantiles of the level by fork count:
// computing one costs more than the rest of a point's interval.
var tQuantiles sync.Map // int → float64

// tQuantile returns the two-sided quantile of Student's t at level for
// the mean of n forks (n−1 degrees of freedom).
func tQuantile(n int) float64 {
	if q, ok := tQuantiles.Load(n); ok {
		return q.(float64)
	}
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile(1 - (1-level)/2)
	tQuantiles.Store(n, q)
	return q
}

// ratioInterval is the interval of mean(after)/mean(before) described in
// the package doc; its bounds are NaN when a side has fewer than two runs.
func ratioInterval(before, after []float64, rng *rand.Rand) stats.Interval {
	const replicates = 1000
	iv := stats.Interval{Center: stats.Mean(after) / stats.Mean(before), Lo: math.NaN(), Hi: math.NaN(), Level: level}
	rb, ra := make([]float64, replicates), make([]float64, replicates)
	if !stats.Replicates(rb, before, stats.StatMean, rng) || !stats.Replicates(ra, after, stats.StatMean, rng) {
		return iv
	}
	for i := range ra {
		ra[i] /= rb[i]
	}
	iv.Lo, iv.Hi = stats.Quantile(ra, (1-level)/2), stats.Quantile(ra, 1-(1-level)/2)
	return stats.Expand(iv, float64(min(len(before), len(after))))
}

// sourceOrder sorts keys, which are in the order the runs first measured
// them, into the order of the source where the runs record it
// (bench.Run.Benchmarks: a run measures its benchmarks in a random order).
// Benchmarks no run records keep their place after those that one does.
func sourceOrder(keys []bench.Key, runs []*bench.Run) {
	rank := make(map[bench.Key]int)
	for _, r := range runs {
		for _, k := range r.Benchmarks {
			if _, ok := rank[k]; !ok {
				rank[k] = len(rank)
			}
		}
	}
	if len(rank) == 0 {
		return
	}
	rankOf := func(k bench.Key) int {
		if i, ok := rank[k]; ok {
			return i
		}
		return len(rank)
	}
	slices.SortStableFunc(keys, func(a, b bench.Key) int { return cmp.Compare(rankOf(a), rankOf(b)) })
}
