package optimize

import (
	"fmt"
	"hash/fnv"
	"math"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/stats"
)

// Options control Optimize.
type Options struct {
	// Metric is the stability metric.
	Metric Metric
	// Threshold is the largest metric value that counts as stable
	// (metric ≤ Threshold).
	Threshold float64
	// Bootstrap sets the level and replicates of the RCIW metrics.
	Bootstrap stats.Bootstrap
	// Seed seeds the bootstraps and the random baseline. Every
	// configuration of every benchmark has its own stream, derived from
	// Seed, the benchmark's key and the configuration, so results depend
	// neither on scheduling nor on which configurations were evaluated.
	Seed uint64
	// IterTime is the duration of one measurement iteration of the full
	// run; it turns costs in iterations into times and is recorded in the
	// plan. Zero leaves the times zero.
	IterTime time.Duration
	// Baselines also computes Japke et al. 2025's minimum and random baselines.
	Baselines bool
	// MinForks, when above 1, also requires a configuration to have at
	// least that many processes, s·i (at most the full run's): the
	// authors' code counts s·i ≥ 3 rather than the paper's s·i·d ≥ 3. A
	// configuration measured in one process cannot see how results vary
	// between processes, and in Go they do (see docs/eval/run.md).
	MinForks int
	// Workers is the number of benchmarks optimised in parallel; 0 means
	// GOMAXPROCS.
	Workers int
}

// DefaultOptions are Japke et al. 2025's settings (threshold 1%, 99% intervals from
// 10,000 bootstrap replicates, at least three processes as the authors'
// code counts them) with RCIW₁ as the metric. CV and RMAD estimate
// the spread of single measurements, which more measurements do not
// shrink: they sort benchmarks into quiet (minimum configuration) and noisy
// (full configuration) rather than find how many measurements a benchmark
// needs. An interval's width shrinks with √n, so the RCIWs do find it, and
// the mean's is the statistic mbench compare reports.
var DefaultOptions = Options{
	Metric:    RCIWMean,
	Threshold: 0.01,
	Bootstrap: stats.DefaultBootstrap,
	Seed:      1,
	Baselines: true,
	MinForks:  3,
}

// MinReplicates is the fewest bootstrap replicates Validate accepts: with
// fewer, the 0.5% tails of a 99% interval hold no replicate.
const MinReplicates = 100

// Validate reports the first option out of range. Its message begins with
// the option's name as the flags of mbench optimize spell it ("metric",
// "threshold", "level", "reps", "min-forks"), so that a command can name
// the flag at fault. The conditions are negated so that NaN, which fails
// every comparison, is rejected too. The bootstrap is checked only for the
// metrics that use it, the RCIWs.
func (o *Options) Validate() error {
	switch {
	case !o.Metric.valid():
		return fmt.Errorf("metric %v: unknown stability metric", o.Metric)
	case !(o.Threshold > 0) || math.IsInf(o.Threshold, 1):
		return fmt.Errorf("threshold %v: want a positive fraction, e.g. 0.01", o.Threshold)
	case o.MinForks < 0:
		return fmt.Errorf("min-forks %d: want a non-negative count", o.MinForks)
	case o.IterTime < 0:
		return fmt.Errorf("iteration time %v: want a non-negative duration", o.IterTime)
	case o.Workers < 0:
		return fmt.Errorf("workers %d: want a non-negative count", o.Workers)
	case o.Metric.bootstrapped():
		return checkBootstrap(o.Bootstrap)
	}
	return nil
}

// checkBootstrap reports a bootstrap setting out of range, named as the
// flags name it. The most replicates, stats.MaxReplicates, keep a typo from
// exhausting memory.
func checkBootstrap(b stats.Bootstrap) error {
	switch {
	case !(b.Level > 0 && b.Level < 1):
		return fmt.Errorf("level %v: want a number between 0 and 1, e.g. 0.99", b.Level)
	case b.Replicates < MinReplicates || b.Replicates > stats.MaxReplicates:
		return fmt.Errorf("reps %d: want between %d and %d bootstrap replicates", b.Replicates, MinReplicates, stats.MaxReplicates)
	}
	return nil
}

// A Choice is one configuration of a benchmark and what it gives.
type Choice struct {
	Levels bench.Levels
	// Instances is the number of instances the configuration measures on,
	// each in Levels: the first Instances of the benchmark's. It is 0 for a
	// benchmark measured on one instance.
	Instances int
	// Metric is the stability metric of the configuration's measurements;
	// NaN when it was not needed (see Result.Full).
	Metric float64
	// Stable reports Metric ≤ Options.Threshold.
	Stable bool
	// Result is r, the benchmark's result with this configuration: the
	// mean or median (Options.Metric.Stat) of its measurements.
	Result float64
	// Change is the change rate of Japke et al. 2025 equation (1),
	// |r − r_full| / r_full.
	Change float64
}

// A Result is what Optimize found for one benchmark.
type Result struct {
	Key bench.Key
	// Full is the benchmark's full configuration, all its measurements.
	// Its Metric (and so Stable) is computed only when the plan is the full
	// configuration; the search never needs it otherwise.
	Full Choice
	// Plan is µOpTime's choice: the cheapest stable configuration with at
	// least MinMeasurements measurements, the lower metric among equally
	// cheap ones; the full configuration, with Stable false, when none is
	// stable.
	Plan Choice
	// Minimum and Random are Japke et al. 2025 §4.2's baselines (zero unless
	// Options.Baselines): the cheapest configuration, and one drawn
	// uniformly from those with at least MinMeasurements measurements.
	// Their Stable says whether they happen to meet the threshold.
	Minimum, Random Choice
}

// A Summary totals one way of configuring the suite over its benchmarks.
type Summary struct {
	// Iterations is the number of measurement iterations of all
	// benchmarks; Time is Iterations × Options.IterTime.
	Iterations int
	Time       time.Duration
	// Saving is the fraction of the full run's iterations saved.
	Saving float64
	// Stable counts the benchmarks whose configuration is stable.
	Stable int
	// Within1, Within3 and Within5 are the fractions of benchmarks whose
	// change rate is at most 1%, 3% and 5% (Japke et al. 2025 Figure 3).
	Within1, Within3, Within5 float64
}

// A Report is the outcome of Optimize.
type Report struct {
	Options Options
	// Unit is the unit of the benchmarks' values, which the text form
	// scales results by, when known: Run sets it.
	Unit string
	// Levels is the full run's configuration: the largest levels among
	// the benchmarks (a benchmark of an interrupted run may have fewer
	// suite runs).
	Levels bench.Levels
	// Instances is the most instances any benchmark was measured on; 0
	// when every benchmark was measured on one.
	Instances int
	Results   []Result // in the order of the benchmarks
	// FullIterations is the number of measurement iterations of every
	// benchmark's full configuration, FullTime their duration.
	FullIterations int
	FullTime       time.Duration
	// Plan, Minimum and Random total the corresponding Choice of every
	// Result; Minimum and Random are zero unless Options.Baselines.
	Plan, Minimum, Random Summary
}

// Optimize runs Japke et al. 2025's Algorithm 1 (µOpTime) on every benchmark: it
// finds, from the full run's measurements, the cheapest configuration
// whose measurements are stable.
//
// Configurations are evaluated cheapest first, one cost class (equal s·i·d)
// at a time, and the search ends with the first class that has a stable
// configuration; every configuration of that class is evaluated for the
// tie-break, nothing more expensive is. An RCIW that is certainly above the
// threshold is abandoned before all replicates are drawn (see the package
// documentation); neither shortcut changes any answer. Benchmarks are
// optimised in parallel.
//
// It fails on options that do not Validate, an invalid benchmark (levels, number of
// values, a value that is not finite) or two benchmarks with the same key.
func Optimize(bs []*Benchmark, opts Options) (*Report, error) {
	if err := opts.Validate(); err != nil {
		return nil, fmt.Errorf("optimize: %w", err)
	}
	rep := &Report{Options: opts, Results: make([]Result, len(bs))}
	seen := make(map[bench.Key]bool, len(bs))
	for _, b := range bs {
		if err := b.validate(); err != nil {
			return nil, fmt.Errorf("optimize: %w", err)
		}
		if seen[b.Key] {
			return nil, fmt.Errorf("optimize: benchmark %s given twice", b.Key)
		}
		seen[b.Key] = true
		l := &rep.Levels
		l.SuiteRuns = max(l.SuiteRuns, b.Levels.SuiteRuns)
		l.Forks = max(l.Forks, b.Levels.Forks)
		l.Iterations = max(l.Iterations, b.Levels.Iterations)
		if b.instances() > 1 {
			rep.Instances = max(rep.Instances, b.instances())
		}
	}
	parallel(len(bs), opts.Workers, func() func(int) {
		e := newEvaluator(opts.Metric, opts.Bootstrap)
		cands := map[bench.Levels][]bench.Levels{}
		return func(k int) {
			b := bs[k]
			cs, ok := cands[b.Levels]
			if !ok {
				cs = candidates(b.Levels, opts.MinForks)
				cands[b.Levels] = cs
			}
			rep.Results[k] = optimizeOne(e, b, cs, &opts, false)
		}
	})
	for _, r := range rep.Results {
		rep.FullIterations += r.Full.cost()
	}
	rep.FullTime = time.Duration(rep.FullIterations) * opts.IterTime
	rep.Plan = summarize(rep, func(r *Result) Choice { return r.Plan })
	if opts.Baselines {
		rep.Minimum = summarize(rep, func(r *Result) Choice { return r.Minimum })
		rep.Random = summarize(rep, func(r *Result) Choice { return r.Random })
	}
	return rep, nil
}

// NewPlan returns the plan of a report: each benchmark's Plan choice, with
// the settings that produced it.
func NewPlan(r *Report) *Plan {
	p := &Plan{
		Levels:    r.Levels,
		IterTime:  r.Options.IterTime,
		Metric:    r.Options.Metric,
		Threshold: r.Options.Threshold,
		Bootstrap: r.Options.Bootstrap,
		Seed:      r.Options.Seed,
		MinForks:  r.Options.MinForks,
		Instances: r.Instances,
	}
	for _, res := range r.Results {
		p.Benchmarks = append(p.Benchmarks, PlanBenchmark{Key: res.Key, Levels: res.Plan.Levels, Instances: res.Plan.Instances,
			Metric: res.Plan.Metric, Stable: res.Plan.Stable})
	}
	return p
}

// Stream purposes, so that no two uses of the generator share a stream.
const (
	streamMetric uint64 = iota + 1
	streamRandomBaseline
	streamReplay
)

// A config is a configuration on a number of instances.
type config struct {
	n int // instances
	l bench.Levels
}

// cost returns the configuration's measurement iterations, n·s·i·d.
func (c config) cost() int { return c.n * c.l.Total() }

// cost returns the choice's measurement iterations.
func (c Choice) cost() int { return max(1, c.Instances) * c.Levels.Total() }

// configs returns the configurations of a benchmark measured on n
// instances: every candidate of cs on 1 instance, then on 2, and so on to
// n, each in the order of cs (cheapest first). For one instance they are
// cs.
func configs(cs []bench.Levels, n int) []config {
	out := make([]config, 0, n*len(cs))
	for k := 1; k <= n; k++ {
		for _, l := range cs {
			out = append(out, config{k, l})
		}
	}
	return out
}

// before reports whether configuration a with metric ma is preferred to b
// with metric mb: fewer instances, then a lower cost, then a lower metric.
func before(a config, ma float64, b config, mb float64) bool {
	switch {
	case a.n != b.n:
		return a.n < b.n
	case a.cost() != b.cost():
		return a.cost() < b.cost()
	}
	return ma < mb
}

// optimizeOne runs Algorithm 1 on one benchmark with candidates cs. With
// exhaustive set it evaluates every candidate fully and picks from all of
// them, the definition the search must agree with.
//
// A benchmark measured on N > 1 instances has one more level: each
// candidate of cs on 1..N instances, costing n·s·i·d. The metric of a
// configuration on n instances resamples n of the N instances and the
// measurements within each (evaluator.nestedValue), so that a
// configuration on few instances is stable only when the instances agree;
// its result is that of the first n instances. Instances are searched
// first: the plan is the cheapest stable configuration on the fewest
// instances that have one, since every instance is a machine of its own,
// with a build, warm-up and process start-up that a cost in measurement
// iterations does not count.
func optimizeOne(e *evaluator, b *Benchmark, cs []bench.Levels, opts *Options, exhaustive bool) Result {
	kh := keyHash(b.Key)
	stat := opts.Metric.Stat()
	thr := opts.Threshold
	nInst := b.instances()
	metricOf := func(c config, limit float64) (float64, bool) {
		s1, s2 := streamN(opts.Seed, kh, streamMetric, 0, c)
		if nInst == 1 {
			e.buf = b.Prefix(e.buf, c.l)
			return e.value(e.buf, limit, s1, s2)
		}
		return e.nestedValue(b.instanceData(c.l), c.n, limit, s1, s2)
	}
	resultOf := func(c config) float64 {
		e.buf = b.InstancePrefix(e.buf, c.n, c.l)
		return stat.Of(e.buf)
	}
	res := Result{Key: b.Key}
	full := config{nInst, b.Levels}
	rFull := resultOf(full)
	choice := func(c config, metric float64) Choice {
		r := resultOf(c)
		ch := Choice{Levels: c.l, Metric: metric, Stable: metric <= thr, Result: r, Change: math.Abs(r-rFull) / math.Abs(rFull)}
		if nInst > 1 {
			ch.Instances = c.n
		}
		return ch
	}
	res.Full = choice(full, math.NaN())

	cfgs := configs(cs, nInst)
	found := false
	var best config
	bestM := math.Inf(1)
	if exhaustive {
		for _, c := range cfgs {
			m, _ := metricOf(c, math.NaN())
			if m <= thr && (!found || before(c, m, best, bestM)) {
				found, best, bestM = true, c, m
			}
		}
	} else {
		for i := 0; i < len(cfgs) && !found; {
			class := cfgs[i]
			for ; i < len(cfgs) && cfgs[i].n == class.n && cfgs[i].cost() == class.cost(); i++ {
				// Unstable configurations may stop early: their
				// exact metric is never used.
				m, exact := metricOf(cfgs[i], thr)
				if exact && m <= thr && m < bestM {
					found, best, bestM = true, cfgs[i], m
				}
			}
		}
	}
	if found {
		res.Plan = choice(best, bestM)
		if best == full {
			res.Full.Metric, res.Full.Stable = bestM, true
		}
	} else {
		m, _ := metricOf(full, math.NaN())
		res.Full.Metric, res.Full.Stable = m, m <= thr
		res.Plan = res.Full
		// A full configuration with fewer than MinMeasurements
		// measurements was no candidate: its plan is not stable even
		// if its metric is below the threshold.
		res.Plan.Stable = false
	}

	if opts.Baselines {
		minC := config{1, minimum(b.Levels)}
		m, _ := metricOf(minC, math.NaN())
		res.Minimum = choice(minC, m)
		randC := full
		if len(cfgs) > 0 {
			s1, s2 := stream(opts.Seed, kh, streamRandomBaseline, 0, bench.Levels{})
			e.pcg.Seed(s1, s2)
			randC = cfgs[e.rng.IntN(len(cfgs))]
		}
		m, _ = metricOf(randC, math.NaN())
		res.Random = choice(randC, m)
	}
	return res
}

// summarize totals the choice get picks from every result.
func summarize(r *Report, get func(*Result) Choice) Summary {
	var s Summary
	full := 0
	for k := range r.Results {
		res := &r.Results[k]
		c := get(res)
		s.Iterations += c.cost()
		full += res.Full.cost()
		if c.Stable {
			s.Stable++
		}
		if c.Change <= 0.01 {
			s.Within1++
		}
		if c.Change <= 0.03 {
			s.Within3++
		}
		if c.Change <= 0.05 {
			s.Within5++
		}
	}
	s.Time = time.Duration(s.Iterations) * r.Options.IterTime
	if n := float64(len(r.Results)); n > 0 {
		s.Within1 /= n
		s.Within3 /= n
		s.Within5 /= n
	}
	if full > 0 {
		s.Saving = 1 - float64(s.Iterations)/float64(full)
	}
	return s
}

// parallel calls the function newWorker returns for each of 0..n−1, on
// workers goroutines (GOMAXPROCS if 0), each with its own function from
// newWorker so that scratch space is per goroutine.
func parallel(n, workers int, newWorker func() func(int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			do := newWorker()
			for {
				k := int(next.Add(1) - 1)
				if k >= n {
					return
				}
				do(k)
			}
		})
	}
	wg.Wait()
}

// keyHash hashes a benchmark's key for its random streams.
func keyHash(k bench.Key) uint64 {
	h := fnv.New64a()
	h.Write([]byte(k.Package))
	h.Write([]byte{0})
	h.Write([]byte(k.Name))
	h.Write([]byte{0})
	h.Write([]byte(strconv.Itoa(k.Procs)))
	return h.Sum64()
}

// stream returns the PCG seed of one use of the generator: the benchmark
// (kh), the purpose, the version (Replay only) and the configuration.
func stream(seed, kh, purpose uint64, version int, l bench.Levels) (uint64, uint64) {
	h := kh
	for _, v := range [...]uint64{purpose, uint64(version), uint64(l.SuiteRuns), uint64(l.Forks), uint64(l.Iterations)} {
		h = mix(h ^ mix(v))
	}
	return seed, h
}

// streamN is stream for a configuration on c.n instances: stream itself
// for one instance, so that a benchmark of one instance draws what it drew
// before instances were a level.
func streamN(seed, kh, purpose uint64, version int, c config) (uint64, uint64) {
	s1, s2 := stream(seed, kh, purpose, version, c.l)
	if c.n > 1 {
		s2 = mix(s2 ^ mix(uint64(c.n)))
	}
	return s1, s2
}

// mix is the finaliser of SplitMix64 (Steele, Lea & Flood 2014), a
// bijection that spreads every input bit over the output.
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
