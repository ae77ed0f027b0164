package run

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/stop"
)

// StaticOptions control StaticSuite.
type StaticOptions struct {
	Options
	// Levels gives each target its configuration. A target for which it
	// returns false is not run.
	Levels func(t *Target) (bench.Levels, bool)
	// Warmup is the fewest warm-up iterations each fork runs and discards
	// before its measurement iterations. A fork goes on warming up, up to
	// Config.WarmupMax iterations, until its per-op figures are steady
	// (stop.Steady), which the criterion does not judge here. With Warmup
	// 0 there is no warm-up.
	Warmup int
	// MinPerSuiteRun is the fewest different benchmarks a suite run should
	// interleave (Japke et al. 2025 §5, "Ensure proper RMIT execution"). Suite runs
	// are first assigned so that the targets that need fewer of them
	// spread over all; a suite run still short of MinPerSuiteRun
	// benchmarks borrows one fork of targets that are not in it, cheapest
	// first. Their measurements are kept: they are extra data, not filler.
	MinPerSuiteRun int
}

// StaticSuite runs every target in the fixed configuration StaticOptions.Levels
// gives it: suite run after suite run, all forks of a suite run (every
// target's) in one random order. It is the execution of `mbench run -levels`
// and `-plan`. Coordinates: SuiteRun is the suite run (1-based), Fork counts
// a target's forks across suite runs (1-based), Iteration counts within the
// fork (0-based, warm-up first). Criterion, Config.WarmupMin, Config.Measure
// and Config.Forks* of the options are not used; Config.IterTime is the
// iteration time calibrated for, and Config.WarmupMax bounds warm-up.
func StaticSuite(ctx context.Context, targets []Target, opts StaticOptions) ([]*Result, error) {
	if opts.Config.IterTime <= 0 {
		return nil, errors.New("iteration time must be positive")
	}
	if opts.Metric == "" {
		opts.Metric = "sec/op"
	}
	if opts.Instance == "" {
		opts.Instance, _ = os.Hostname()
	}
	results := make([]*Result, len(targets))
	levels := make([]bench.Levels, len(targets))
	for i := range targets {
		results[i] = &Result{Target: &targets[i]}
		l, ok := opts.Levels(&targets[i])
		if !ok {
			continue
		}
		if err := l.Validate(); err != nil {
			return nil, fmt.Errorf("%s: %w", targets[i].Key, err)
		}
		levels[i] = l
	}
	rng := rand.New(rand.NewPCG(opts.Seed, 0x6d62656e6368))
	schedule := assignSuiteRuns(levels, opts.MinPerSuiteRun, rng)

	// left counts each target's forks still to run, for Progress.
	planned := 0
	left := make([]int, len(targets))
	for _, run := range schedule {
		planned += len(run)
		for _, ti := range run {
			left[ti]++
		}
	}
	progress := func(s, done int, res *Result, elapsed, forkTime time.Duration) Progress {
		p := Progress{SuiteRun: s + 1, Done: done, Planned: planned, Exact: true, Target: res.Target, Elapsed: elapsed}
		if done > 0 {
			p.ETA = time.Duration(float64(forkTime) / float64(done) * float64(planned-done))
		}
		for ti, n := range left {
			if levels[ti].SuiteRuns > 0 {
				p.Benchmarks++
				if n == 0 || results[ti].Failed() {
					p.Finished++
				}
			}
		}
		return p
	}
	ctrls := make([]*stop.Controller, len(targets))
	for i, l := range levels {
		if l.SuiteRuns > 0 {
			ctrls[i] = stop.NewController(staticConfig(l, &opts), steadyOnly{})
		}
	}
	start := time.Now()
	var forkTime time.Duration
	done := 0
	for s, entries := range schedule {
		rng.Shuffle(len(entries), func(i, j int) { entries[i], entries[j] = entries[j], entries[i] })
		for _, ti := range entries {
			res := results[ti]
			if res.Failed() {
				left[ti]--
				done++
				continue
			}
			if ctx.Err() != nil {
				return results, ErrInterrupted
			}
			if opts.Progress != nil {
				opts.Progress(progress(s, done, res, time.Since(start), forkTime))
			}
			t0 := time.Now()
			err := runStaticFork(ctx, res, ctrls[ti], levels[ti], s+1, &opts)
			elapsed := time.Since(t0)
			res.Time += elapsed
			forkTime += elapsed
			done++
			left[ti]--
			w := ctrls[ti].Report()
			res.Report = stop.Report{
				Criterion: stop.Static{}.Name(), Forks: w.Forks, Warmup: w.Warmup, WarmupUnsteady: w.WarmupUnsteady, WarmupWhy: w.WarmupWhy,
				Measured: countPhase(res.Measurements, bench.Measure), Reason: "levels " + levels[ti].String(),
			}
			var fe *ForkError
			switch {
			case errors.As(err, &fe):
				res.Failures = append(res.Failures, fe)
			case ctx.Err() != nil:
				return results, ErrInterrupted
			case err != nil:
				return results, err
			}
		}
	}
	for i, r := range results {
		if r.Report.Forks > 0 {
			r.Report.Done = true
			if extra := r.Report.Forks - levels[i].SuiteRuns*levels[i].Forks; extra > 0 {
				r.Report.Reason += fmt.Sprintf(" + %d forks to interleave", extra)
			}
		}
	}
	return results, nil
}

// staticConfig is the configuration of the controller that runs the forks
// of a target at levels l: its warm-up bounds, its measurement iterations,
// and as many forks as the schedule asks for.
func staticConfig(l bench.Levels, opts *StaticOptions) stop.Config {
	c := stop.Config{WarmupMin: opts.Warmup, Measure: l.Iterations, ForksMin: 1, ForksMax: math.MaxInt, IterTime: opts.Config.IterTime}
	if opts.Warmup > 0 {
		c.WarmupMax = max(opts.Warmup, opts.Config.WarmupMax)
	}
	return c
}

// steadyOnly is the criterion of a fixed configuration. Its warm-up check
// is always stable, so that a fork's warm-up lasts wi_min iterations, or
// longer only while the per-op figures are not steady; its fork check
// never is, and the schedule decides the forks.
type steadyOnly struct{}

func (steadyOnly) Name() string { return "levels" }

func (steadyOnly) Warmup([]float64) stop.Decision {
	return stop.Decision{Stable: true, Value: math.NaN(), Detail: "fixed"}
}

func (steadyOnly) Forks([][]float64) stop.Decision {
	return stop.Decision{Value: math.NaN(), Detail: "fixed"}
}

func countPhase(ms []bench.Measurement, p bench.Phase) int {
	n := 0
	for _, m := range ms {
		if m.Coord.Phase == p {
			n++
		}
	}
	return n
}

// assignSuiteRuns returns, per suite run, the targets' forks it runs (one
// entry per fork). Targets that need every suite run take them all; the
// others take, largest first, the suite runs with the fewest different
// targets so far (Japke et al. 2025 §5's advice to keep RMIT meaningful when few
// benchmarks remain). A suite run left with fewer than minPer different
// targets borrows one fork of the cheapest targets not in it.
func assignSuiteRuns(levels []bench.Levels, minPer int, rng *rand.Rand) [][]int {
	runs := 0
	var order []int
	for i, l := range levels {
		if l.SuiteRuns > 0 {
			runs = max(runs, l.SuiteRuns)
			order = append(order, i)
		}
	}
	if runs == 0 {
		return nil
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(levels[b].SuiteRuns, levels[a].SuiteRuns) })
	members := make([][]int, runs) // distinct targets per suite run
	schedule := make([][]int, runs)
	for _, ti := range order {
		l := levels[ti]
		idx := rng.Perm(runs) // random among equally full suite runs
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(len(members[a]), len(members[b])) })
		chosen := idx[:l.SuiteRuns]
		slices.Sort(chosen)
		for _, s := range chosen {
			members[s] = append(members[s], ti)
			for range l.Forks {
				schedule[s] = append(schedule[s], ti)
			}
		}
	}
	want := min(minPer, len(order))
	byCost := slices.Clone(order)
	slices.SortStableFunc(byCost, func(a, b int) int { return cmp.Compare(levels[a].Iterations, levels[b].Iterations) })
	for s := range schedule {
		for _, ti := range byCost {
			if len(members[s]) >= want {
				break
			}
			if !slices.Contains(members[s], ti) {
				members[s] = append(members[s], ti)
				schedule[s] = append(schedule[s], ti)
			}
		}
	}
	return schedule
}

// runStaticFork runs one fork of a target at levels l: calibration first
// if it has none, then warm-up iterations until ctrl ends them, and l's
// measurement iterations.
func runStaticFork(ctx context.Context, res *Result, ctrl *stop.Controller, l bench.Levels, suite int, opts *StaticOptions) error {
	if err := calibrated(ctx, res, opts.Config.IterTime, &opts.Options); err != nil {
		return err
	}
	ctrl.StartFork()
	defer ctrl.EndFork()
	phase := bench.Measure
	if ctrl.WantWarmup() {
		phase = bench.Warmup
	}
	// The criterion does not look at values: the controller gets 0s.
	return measureFork(ctx, res, &opts.Options, staticConfig(l, opts).WarmupMax+l.Iterations, suite, ctrl.Report().Forks,
		func(int) bench.Phase { return phase },
		func(_ *bench.Measurement, op stop.PerOp) (bool, error) {
			if phase == bench.Warmup {
				if !ctrl.Warmup(0, op) {
					phase = bench.Measure
				}
				return true, nil
			}
			return ctrl.Measure(0), nil
		})
}
