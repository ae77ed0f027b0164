package optimize

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/stats"
)

// A Version is the full run of one version of a suite.
type Version struct {
	Label      string
	Benchmarks []*Benchmark
}

// ReplayOptions control Replay.
type ReplayOptions struct {
	// Bootstrap sets the percentile intervals' level and replicates.
	Bootstrap stats.Bootstrap
	// Stat is the statistic whose intervals are compared.
	Stat stats.Stat
	// MinChange is the smallest relative change that counts.
	MinChange float64
	// Seed seeds the bootstraps, one stream per benchmark, version and
	// configuration.
	Seed uint64
	// Workers is the number of intervals computed in parallel; 0 means
	// GOMAXPROCS.
	Workers int
}

// DefaultReplayOptions are Japke et al. 2025 §4.5's: 99% percentile-bootstrap
// intervals from 10,000 replicates, a change of at least 3%. The mean is
// compared, as mbench compare does; the authors compare the statistic of
// the metric (the median for their Go projects, with RMAD).
var DefaultReplayOptions = ReplayOptions{
	Bootstrap: stats.DefaultBootstrap,
	Stat:      stats.StatMean,
	MinChange: 0.03,
	Seed:      1,
}

// Validate reports the first option out of range. Its message begins with
// the option's name as the flags of mbench optimize spell it ("level",
// "reps", "min-change"). An infinite MinChange would detect nothing.
func (o *ReplayOptions) Validate() error {
	if err := checkBootstrap(o.Bootstrap); err != nil {
		return err
	}
	switch {
	case o.Stat != stats.StatMean && o.Stat != stats.StatMedian:
		return fmt.Errorf("statistic %v: unknown statistic; want the mean or the median", o.Stat)
	case !(o.MinChange >= 0) || math.IsInf(o.MinChange, 1):
		return fmt.Errorf("min-change %v: want a finite non-negative fraction, e.g. 0.03", o.MinChange)
	case o.Workers < 0:
		return fmt.Errorf("workers %d: want a non-negative count", o.Workers)
	}
	return nil
}

// A Direction is the direction of a detected change.
type Direction int

const (
	// Unchanged: the intervals overlap or the change is too small.
	Unchanged Direction = 0
	// Slower: the new version's values are higher (slower, for times).
	Slower Direction = 1
	// Faster: the new version's values are lower.
	Faster Direction = -1
)

// String returns "unchanged", "slower" or "faster".
func (d Direction) String() string {
	switch d {
	case Slower:
		return "slower"
	case Faster:
		return "faster"
	}
	return "unchanged"
}

// A Detection is Japke et al. 2025 §4.5's change detection between two versions
// with one configuration: a change is detected when the two intervals do
// not overlap and the centres differ by at least MinChange relative to the
// old one. Both directions count (the authors' code flags slowdowns only).
type Detection struct {
	Old, New stats.Interval
	// Change is New.Center/Old.Center − 1.
	Change    float64
	Direction Direction
}

// detect compares the intervals of two versions.
func detect(old, new stats.Interval, minChange float64) Detection {
	d := Detection{Old: old, New: new, Change: new.Center/old.Center - 1}
	for _, v := range [...]float64{old.Lo, old.Hi, new.Lo, new.Hi, d.Change} {
		if math.IsNaN(v) {
			return d
		}
	}
	overlap := old.Lo <= new.Hi && new.Lo <= old.Hi
	if !overlap && math.Abs(d.Change) >= minChange {
		d.Direction = Slower
		if d.Change < 0 {
			d.Direction = Faster
		}
	}
	return d
}

// An Outcome classifies the plan's detection against the full
// configuration's, which is taken as the truth (Japke et al. 2025 §4.5).
type Outcome int

// The outcomes of a Comparison.
const (
	TrueNegative  Outcome = iota // neither detects a change
	TruePositive                 // both detect a change in the same direction
	FalsePositive                // only the plan detects a change
	FalseNegative                // the full configuration detects a change the plan does not (including the other direction)
)

// String returns "TN", "TP", "FP" or "FN".
func (o Outcome) String() string {
	return [...]string{"TN", "TP", "FP", "FN"}[o]
}

// A Comparison is one benchmark in one pair of versions.
type Comparison struct {
	Key bench.Key
	// Levels is the plan's configuration of the benchmark, on Instances
	// instances (0 for a plan of one).
	Levels     bench.Levels
	Instances  int
	Full, Plan Detection
}

// Outcome classifies the comparison. A plan that detects a change in the
// direction opposite to the full configuration's missed the true change: a
// false negative.
func (c *Comparison) Outcome() Outcome {
	switch full, plan := c.Full.Direction, c.Plan.Direction; {
	case full == Unchanged && plan == Unchanged:
		return TrueNegative
	case full == Unchanged:
		return FalsePositive
	case plan == full:
		return TruePositive
	}
	return FalseNegative
}

// Counts tallies outcomes.
type Counts struct {
	TP, FP, FN, TN int
	// Reversed counts the false negatives where the plan detected a
	// change in the opposite direction.
	Reversed int
}

// add counts c's outcome.
func (n *Counts) add(c *Comparison) {
	switch c.Outcome() {
	case TruePositive:
		n.TP++
	case FalsePositive:
		n.FP++
	case FalseNegative:
		n.FN++
		if c.Plan.Direction != Unchanged {
			n.Reversed++
		}
	default:
		n.TN++
	}
}

// FPR is the false positive rate FP/(FP+TN), NaN when the full
// configuration detected a change in every benchmark (the authors' code
// reports 0 then).
func (n Counts) FPR() float64 { return ratio(n.FP, n.FP+n.TN) }

// FNR is the false negative rate FN/(FN+TP), NaN when the full
// configuration detected no change (the authors' code reports 0 then).
func (n Counts) FNR() float64 { return ratio(n.FN, n.FN+n.TP) }

func ratio(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

// A Pair is the comparison of two consecutive versions.
type Pair struct {
	Old, New    string // labels
	Comparisons []Comparison
	Counts      Counts
}

// A ReplayReport is the outcome of Replay.
type ReplayReport struct {
	Options ReplayOptions
	Pairs   []Pair
	// Counts totals the outcomes of every pair.
	Counts Counts
}

// Replay replays Japke et al. 2025 §4.5 (RQ4): for each pair of consecutive
// versions and each benchmark in both and in the plan, it detects changes
// with the full configuration (all of each version's measurements) and
// with the plan's configuration (the prefix of each version's
// measurements), and classifies the plan's detections against the full
// configuration's.
//
// A benchmark missing from the plan, or whose plan asks for more than a
// version measured, is not compared; a warning says so.
//
// A configuration on one instance, the plan's or the full one, gets the
// paper's percentile interval of its measurements pooled; a configuration on
// several instances gets stats.Bootstrap.Nested over its instances, forks
// and iterations, the interval mbench compare gives such data, so that a
// difference between the instances is not taken for a change. Replay fails on
// fewer than two versions, an invalid plan, options that do not Validate, an invalid
// benchmark, or a benchmark given twice in a version.
func Replay(versions []Version, plan *Plan, opts ReplayOptions) (*ReplayReport, []error, error) {
	if len(versions) < 2 {
		return nil, nil, fmt.Errorf("replay: %d versions, need at least two", len(versions))
	}
	if err := plan.Validate(); err != nil {
		return nil, nil, fmt.Errorf("replay: plan: %w", err)
	}
	if err := opts.Validate(); err != nil {
		return nil, nil, fmt.Errorf("replay: %w", err)
	}
	planned := make(map[bench.Key]config, len(plan.Benchmarks))
	for _, b := range plan.Benchmarks {
		planned[b.Key] = config{max(1, b.Instances), b.Levels}
	}

	// Every interval of a benchmark in a version is computed once and
	// serves both pairs the version is in.
	type task struct {
		v         int
		b         *Benchmark
		plan      config
		full, got stats.Interval
	}
	var tasks []*task
	index := make([]map[bench.Key]*task, len(versions))
	var warnings []error
	unplanned := map[bench.Key]bool{}
	for v, ver := range versions {
		index[v] = make(map[bench.Key]*task, len(ver.Benchmarks))
		for _, b := range ver.Benchmarks {
			if err := b.validate(); err != nil {
				return nil, nil, fmt.Errorf("replay: version %s: %w", ver.Label, err)
			}
			if _, dup := index[v][b.Key]; dup {
				return nil, nil, fmt.Errorf("replay: version %s: benchmark %s given twice", ver.Label, b.Key)
			}
			c, ok := planned[b.Key]
			if !ok {
				if !unplanned[b.Key] {
					warnings = append(warnings, fmt.Errorf("benchmark %s: not in the plan; not compared", b.Key))
					unplanned[b.Key] = true
				}
				index[v][b.Key] = nil
				continue
			}
			if !c.l.Within(b.Levels) {
				warnings = append(warnings, fmt.Errorf("benchmark %s: the plan's levels %v exceed version %s's %v; not compared with it", b.Key, c.l, ver.Label, b.Levels))
				index[v][b.Key] = nil
				continue
			}
			if c.n > b.instances() {
				warnings = append(warnings, fmt.Errorf("benchmark %s: the plan's %d instances exceed version %s's %d; not compared with it", b.Key, c.n, ver.Label, b.instances()))
				index[v][b.Key] = nil
				continue
			}
			t := &task{v: v, b: b, plan: c}
			index[v][b.Key] = t
			tasks = append(tasks, t)
		}
	}
	parallel(len(tasks), opts.Workers, func() func(int) {
		pcg := rand.NewPCG(0, 0)
		r := rand.New(pcg)
		var buf []float64
		interval := func(t *task, kh uint64, c config) stats.Interval {
			pcg.Seed(streamN(opts.Seed, kh, streamReplay, t.v, c))
			if c.n > 1 {
				return opts.Bootstrap.Nested(t.b.instanceForks(c.n, c.l), opts.Stat, r)
			}
			buf = t.b.InstancePrefix(buf, 1, c.l)
			return opts.Bootstrap.Percentile(buf, opts.Stat, r)
		}
		return func(k int) {
			t := tasks[k]
			kh := keyHash(t.b.Key)
			t.full = interval(t, kh, config{t.b.instances(), t.b.Levels})
			t.got = interval(t, kh, t.plan)
		}
	})

	rep := &ReplayReport{Options: opts}
	for v := 1; v < len(versions); v++ {
		p := Pair{Old: versions[v-1].Label, New: versions[v].Label}
		for _, b := range versions[v].Benchmarks {
			nt, ot := index[v][b.Key], index[v-1][b.Key]
			if nt == nil || ot == nil {
				continue
			}
			c := Comparison{
				Key:       b.Key,
				Levels:    nt.plan.l,
				Instances: multi(nt.plan.n),
				Full:      detect(ot.full, nt.full, opts.MinChange),
				Plan:      detect(ot.got, nt.got, opts.MinChange),
			}
			p.Counts.add(&c)
			rep.Counts.add(&c)
			p.Comparisons = append(p.Comparisons, c)
		}
		rep.Pairs = append(rep.Pairs, p)
	}
	return rep, warnings, nil
}
