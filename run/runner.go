package run

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/stop"
)

// A Sink receives every measurement as it is taken. The runner does not go
// on until Append returns, so a sink that makes the measurement durable
// before returning loses nothing when mbench is killed.
type Sink interface {
	Append(m *bench.Measurement) error
}

// Options control a suite run. Start from DefaultOptions.
type Options struct {
	// Config is the configuration: warm-up and measurement iterations,
	// forks, iteration time.
	Config stop.Config
	// Criterion decides when warm-up and forks are stable.
	Criterion        string
	CriterionOptions stop.Options
	// Metric is the unit the criterion watches.
	Metric string
	// MinOps is the fewest operations an iteration runs, however long
	// one takes; see the constant MinOps, its default.
	MinOps int
	// Seed fixes the randomised benchmark order of each suite run.
	Seed uint64
	// ForkTimeout ends a fork that runs longer.
	ForkTimeout time.Duration
	Benchmem    bool
	// Instance names this machine in the coordinates; "" is the host name.
	Instance string
	// Sink receives each measurement; nil keeps them only in the results.
	Sink Sink
	// Progress, if not nil, is called before each fork.
	Progress func(Progress)
	// TargetConfig, if not nil, gives a target its own configuration in
	// place of Config (a plan used as the upper bound of the criterion); a
	// target for which it returns false is not run.
	TargetConfig func(t *Target) (stop.Config, bool)
}

// DefaultOptions are the defaults of Suite: the criterion's stop.DefaultConfig.
// DefaultJob holds those of `mbench run`.
var DefaultOptions = Options{
	Config:           stop.DefaultConfig,
	Criterion:        "cv",
	CriterionOptions: stop.DefaultOptions,
	Metric:           "sec/op",
	MinOps:           MinOps,
	Seed:             1,
	ForkTimeout:      10 * time.Minute,
}

// Progress describes where a suite run is, as a fork starts.
type Progress struct {
	SuiteRun int
	// Done counts the forks finished; Planned adds the fewest still to
	// come, which are all that come when Exact is set (a fixed
	// configuration) and a lower bound otherwise (a criterion may ask
	// for more).
	Done, Planned int
	Exact         bool
	// Finished counts the benchmarks that need no more forks, of
	// Benchmarks.
	Finished, Benchmarks int
	// Target is the benchmark of the fork that starts.
	Target  *Target
	Elapsed time.Duration
	// ETA estimates the time left from the time forks took so far; 0
	// until one has finished.
	ETA time.Duration
}

// String says where the run is in words, for a status line: "2 of 7
// benchmarks done; fork 13 of at least 20: Sort-2; at least 3m left".
func (p Progress) String() string {
	of := "of at least"
	if p.Exact {
		of = "of"
	}
	name := strings.TrimPrefix(p.Target.Key.FullName(), "Benchmark")
	if v := p.Target.Version; v != "" {
		name += " (" + v + ")"
	}
	s := fmt.Sprintf("%d of %d benchmarks done; fork %d %s %d: %s", p.Finished, p.Benchmarks, p.Done+1, of, p.Planned, name)
	if p.ETA > 0 {
		s += "; " + TimeLeft(p.ETA, !p.Exact)
	}
	return s
}

// TimeLeft says how much time is left, by an estimate d, in words rounded
// to what an estimate can promise: "under a minute left", "about 3m
// left", "about 1h20m left"; when d is a lower bound, "at least a few
// seconds left", "at least 3m left".
func TimeLeft(d time.Duration, lowerBound bool) string {
	var t string
	switch {
	case d < time.Minute-time.Second/2 && lowerBound:
		return "at least a few seconds left"
	case d < time.Minute-time.Second/2:
		return "under a minute left"
	case d < time.Hour-time.Minute/2:
		t = fmt.Sprintf("%dm", int(d.Round(time.Minute)/time.Minute))
	default:
		d = d.Round(10 * time.Minute)
		t = fmt.Sprintf("%dh%02dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
	}
	if lowerBound {
		return "at least " + t + " left"
	}
	return "about " + t + " left"
}

// A Result is what happened to one target.
type Result struct {
	Target *Target
	// N is the calibrated number of operations per iteration, at least
	// Options.MinOps.
	N int
	// Report is the stop controller's account: forks, warm-up, reason.
	Report stop.Report
	// Measurements holds every iteration taken, warm-up and measurement.
	Measurements []bench.Measurement
	// Failures are the forks that failed. A failed fork ends the target.
	Failures []*ForkError
	// Time is the wall time spent in this target's processes.
	Time time.Duration

	// ownMem records that the benchmark reports B/op and allocs/op
	// without -benchmem (b.ReportAllocs): they are kept.
	ownMem bool
}

// Failed reports whether the target stopped because a fork failed.
func (r *Result) Failed() bool { return len(r.Failures) > 0 }

// ErrInterrupted is returned with partial results when ctx is cancelled.
var ErrInterrupted = errors.New("interrupted")

// Suite runs targets in suite runs, each a pass over the targets that still
// want forks in a fresh random order (randomised multiple interleaved trials),
// until every target's stop controller is satisfied or a fork of it fails.
// Each target is calibrated at its first fork. A cancelled ctx stops the
// running fork and returns the results so far with ErrInterrupted.
func Suite(ctx context.Context, targets []Target, opts Options) ([]*Result, error) {
	if err := opts.Config.Validate(); err != nil {
		return nil, err
	}
	crit, err := stop.New(opts.Criterion, opts.CriterionOptions)
	if err != nil {
		return nil, err
	}
	if opts.Metric == "" {
		opts.Metric = "sec/op"
	}
	if opts.Instance == "" {
		opts.Instance, _ = os.Hostname()
	}
	type state struct {
		res  *Result
		cfg  stop.Config
		ctrl *stop.Controller
		fork int
		done bool
	}
	states := make([]*state, len(targets))
	results := make([]*Result, len(targets))
	for i := range targets {
		results[i] = &Result{Target: &targets[i]}
		cfg := opts.Config
		if opts.TargetConfig != nil {
			c, ok := opts.TargetConfig(&targets[i])
			if !ok {
				states[i] = &state{res: results[i], done: true}
				continue
			}
			if err := c.Validate(); err != nil {
				return nil, fmt.Errorf("%s: %w", targets[i].Key, err)
			}
			cfg = c
		}
		states[i] = &state{res: results[i], cfg: cfg, ctrl: stop.NewController(cfg, crit)}
	}
	rng := rand.New(rand.NewPCG(opts.Seed, 0x6d62656e6368))
	start := time.Now()
	var forkTime time.Duration
	forksDone := 0
	for suite := 1; ; suite++ {
		var active []*state
		for _, s := range states {
			if !s.done && s.ctrl != nil && s.ctrl.NeedFork() {
				active = append(active, s)
			} else {
				s.done = true
			}
		}
		if len(active) == 0 {
			return results, nil
		}
		rng.Shuffle(len(active), func(i, j int) { active[i], active[j] = active[j], active[i] })
		for _, s := range active {
			if ctx.Err() != nil {
				return results, ErrInterrupted
			}
			if opts.Progress != nil {
				p := Progress{SuiteRun: suite, Done: forksDone, Target: s.res.Target, Elapsed: time.Since(start)}
				p.Planned = forksDone + remainingForks(states, func(s *state) (bool, int, int) {
					return s.done || s.ctrl == nil || !s.ctrl.NeedFork(), s.fork, s.cfg.ForksMin
				})
				for _, s := range states {
					if s.ctrl != nil {
						p.Benchmarks++
						if s.done || !s.ctrl.NeedFork() {
							p.Finished++
						}
					}
				}
				if forksDone > 0 {
					p.ETA = time.Duration(float64(forkTime) / float64(forksDone) * float64(p.Planned-forksDone))
				}
				opts.Progress(p)
			}
			t0 := time.Now()
			err := runOne(ctx, s.res, s.ctrl, &s.fork, suite, s.cfg, opts)
			s.res.Report = s.ctrl.Report()
			elapsed := time.Since(t0)
			s.res.Time += elapsed
			forkTime += elapsed
			forksDone++
			var fe *ForkError
			switch {
			case errors.As(err, &fe):
				s.res.Failures = append(s.res.Failures, fe)
				s.done = true
			case ctx.Err() != nil:
				return results, ErrInterrupted
			case err != nil:
				return results, err
			}
		}
	}
}

// remainingForks is a lower bound of the forks still to run: every target
// not done needs at least one more, and at least f_min in all.
func remainingForks[S any](states []S, get func(S) (done bool, forks, forksMin int)) int {
	n := 0
	for _, s := range states {
		done, forks, forksMin := get(s)
		if !done {
			n += max(1, forksMin-forks)
		}
	}
	return n
}

// runOne runs one fork of a target: calibration first if it has none, then
// warm-up iterations until the controller ends them (the criterion's metric
// stable or without a trend, and the per-op figures steady), then the
// measurement iterations, and the fork checkpoint.
func runOne(ctx context.Context, res *Result, ctrl *stop.Controller, fork *int, suite int, cfg stop.Config, opts Options) error {
	if err := calibrated(ctx, res, cfg.IterTime, &opts); err != nil {
		return err
	}
	*fork++
	ctrl.StartFork()
	phase := bench.Measure
	if ctrl.WantWarmup() {
		phase = bench.Warmup
	}
	err := measureFork(ctx, res, &opts, cfg.WarmupMax+cfg.Measure, suite, *fork,
		func(int) bench.Phase { return phase },
		func(m *bench.Measurement, op stop.PerOp) (bool, error) {
			v, ok := m.Get(opts.Metric)
			if !ok {
				return false, fmt.Errorf("%s: no %s in the result", res.Target.Key, opts.Metric)
			}
			if phase == bench.Warmup {
				if !ctrl.Warmup(v, op) {
					phase = bench.Measure
				}
				return true, nil
			}
			return ctrl.Measure(v), nil
		})
	ctrl.EndFork()
	return err
}

// MinOps is the default of Options.MinOps: the fewest operations an
// iteration runs, however long one takes. With -test.benchtime=Nx the
// testing package runs the benchmark function once with b.N = 1 before
// each result (run1), and times a second call with b.N = N only when
// N > 1; at N = 1 that first call is the result. The first result of a
// process is then the process's first op: lazily allocated buffers, caches
// filled on first use, the heap growing and its pages touched for the
// first time, all charged to one op. (A parser measured so showed many
// times the ms/op of `go test -benchtime 1s`, and megabytes per op where
// go test showed none.) At N = 2 every result of a b.N loop is timed after an
// untimed op of its own process, as every result of `go test` is. A higher
// minimum would not remove more: what outlasts one op is left to warm-up
// (stop.Steady), which discards iterations until their per-op figures
// settle, and every op more multiplies the time of the benchmarks whose op
// is longest. A benchmark that uses b.Loop runs all N ops in that first
// call, which is then the result: its first iteration holds the process's
// first op at any N, and warm-up discards it.
const MinOps = 2

// calibrated calibrates res's target for iterTime unless it has an N: to
// the op's steady time (CalibrateWarm), and to at least opts.MinOps.
func calibrated(ctx context.Context, res *Result, iterTime time.Duration, opts *Options) error {
	if res.N != 0 {
		return nil
	}
	n, m, err := CalibrateWarm(ctx, res.Target, iterTime, opts.Benchmem, opts.ForkTimeout)
	if err != nil {
		return err
	}
	res.N = max(n, opts.MinOps, 1)
	if !opts.Benchmem {
		_, res.ownMem = m.Get("B/op")
	}
	return nil
}

// perOp returns the figures of m that warm-up watches.
func perOp(m *bench.Measurement) stop.PerOp {
	op := stop.Unmeasured
	for _, f := range []struct {
		unit string
		dst  *float64
	}{{"sec/op", &op.Sec}, {"B/op", &op.Bytes}, {"allocs/op", &op.Allocs}} {
		if v, ok := m.Get(f.unit); ok {
			*f.dst = v
		}
	}
	return op
}

// measureFork runs one fork of res's target, which is calibrated, of up
// to count iterations of res.N operations. Each of the target's result
// lines gets its coordinates, with the phase phaseOf gives its index, and
// is kept in res and handed to the sink before more, given its per-op
// figures, says whether the fork goes on; an error from more or the sink
// ends the fork and is returned. The coordinates' version is the target's.
//
// The fork always asks for B/op and allocs/op, which the testing package
// reads for every iteration whether it prints them or not, so that
// warm-up sees them; without -benchmem they are dropped before the
// measurement is kept, unless the benchmark reports them itself.
func measureFork(ctx context.Context, res *Result, opts *Options, count, suite, fork int,
	phaseOf func(iter int) bench.Phase, more func(m *bench.Measurement, op stop.PerOp) (bool, error)) error {
	t := res.Target
	spec := ForkSpec{
		Binary: *t.Binary, Pattern: t.Pattern, Procs: t.Procs,
		BenchTime: fmt.Sprintf("%dx", res.N), Count: count,
		Benchmem: true, CPUs: t.CPUs, Timeout: opts.ForkTimeout,
	}
	keepMem := opts.Benchmem || res.ownMem
	iter := 0
	var stopErr error
	err := RunFork(ctx, spec, func(m *bench.Measurement) bool {
		if m.Key != t.Key {
			// A parent benchmark's line, or a sibling matched by a
			// pattern that is not exact; not ours.
			return true
		}
		m.Coord = bench.Coord{Version: t.Version, Instance: opts.Instance, SuiteRun: suite, Fork: fork, Iteration: iter, Phase: phaseOf(iter)}
		iter++
		op := perOp(m)
		if !keepMem {
			m.Values = slices.DeleteFunc(m.Values, func(v bench.Value) bool { return v.Unit == "B/op" || v.Unit == "allocs/op" })
		}
		res.Measurements = append(res.Measurements, *m)
		if opts.Sink != nil {
			if err := opts.Sink.Append(m); err != nil {
				stopErr = fmt.Errorf("storing a measurement: %w", err)
				return false
			}
		}
		goOn, err := more(m, op)
		if err != nil {
			stopErr = err
			return false
		}
		return goOn
	})
	if stopErr != nil {
		return stopErr
	}
	return err
}
