package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/mbench/mbench/optimize"
)

func init() {
	commands = append(commands, &command{
		name:      "optimize",
		usageLine: "[flags] RUN | -replay [-plan FILE] RUN...",
		short:     "derive a minimal repetition plan per benchmark from one full run",
		long: `
Optimize takes one full run made with 'mbench run -levels S,I,D' (S suite
runs × I forks per suite run × D iterations per fork) and, for each
benchmark, simulates every smaller configuration from prefixes of its data:
the first s suite runs, the first i forks of each, the first d iterations of
each fork (µOpTime, Japke et al. 2025). It keeps the cheapest configuration
whose stability metric is at most -threshold (ties: the lower metric), or the
full one, flagged, when none is. The plan is written to -o, for
'mbench run -plan'.

The table gives per benchmark the chosen configuration, its metric, and its
change rate |r_plan - r_full| / r_full, where r is the mean (the median for
the rmad and rciw-median metrics); and, for comparison, the change rates of
the paper's two baselines: the minimum configuration (1 suite run, 3 forks,
1 iteration) and a random one. The totals give the time of the full run and
of the plan (measurement iterations × iteration time) and the fraction of
benchmarks within 1%, 3% and 5% of the full result.

Only configurations with at least -min-forks processes (suite runs × forks,
default 3, as the paper's published code counts) are considered: one
process cannot show how much results vary between processes, and on
go-toml plans of fewer processes missed more real changes. -min-forks 1
follows the paper's text (at least three measurements of any kind).

Metrics: cv (coefficient of variation), rmad (relative median absolute
deviation), rciw-mean (relative width of the percentile-bootstrap interval of
the mean), rciw-t (bootstrap-t interval of the mean), rciw-median (percentile
interval of the median); intervals at -level with -reps replicates.

With -replay, the arguments are full runs of successive versions of the
suite (oldest first). For each pair of consecutive versions and each
benchmark, a change is detected when the two versions' -level intervals of
the mean do not overlap and the change is at least -min-change, once with
all measurements (the full configuration, taken as the truth) and once with
the plan's prefix; the report counts true and false positives and negatives
and their rates (Japke et al. 2025 RQ4). Without -plan the plan is made from the
first run.

RUN is a stored run (label, id, id prefix or "latest") or a JSON Lines
result file of mbench run.
`,
		setFlags: setOptimizeFlags,
	})
}

func setOptimizeFlags(fs *flag.FlagSet) func(*env, []string) error {
	opts, ro := optimize.DefaultOptions, optimize.DefaultReplayOptions
	metric := fs.String("metric", opts.Metric.String(), "stability `metric`: "+strings.Join(optimize.MetricNames, ", "))
	fs.Float64Var(&opts.Threshold, "threshold", opts.Threshold, "largest metric value that counts as stable, a `fraction`")
	fs.Float64Var(&opts.Bootstrap.Level, "level", opts.Bootstrap.Level, "confidence `level` of the intervals")
	fs.IntVar(&opts.Bootstrap.Replicates, "reps", opts.Bootstrap.Replicates, "bootstrap `replicates`")
	fs.Uint64Var(&opts.Seed, "seed", opts.Seed, "random `seed` of the bootstraps and the random baseline")
	opts.MinForks = 3 // the authors' code, and what docs/eval/run.md found more accurate on go-toml
	fs.IntVar(&opts.MinForks, "min-forks", opts.MinForks, "consider only configurations with at least `n` processes (suite runs × forks); 1 follows the paper's text")
	unit := fs.String("unit", "sec/op", "the `unit` optimised for")
	out := fs.String("o", "mbench-plan.json", "write the plan to `file`")
	format := fs.String("format", "text", "output `format`: text or json")
	db := fs.String("db", defaultDB, "result database `path` in which inputs that are not files are looked up")
	replay := fs.Bool("replay", false, "replay change detection over full runs of successive versions")
	planFile := fs.String("plan", "", "with -replay, the plan `file` to replay (default: optimise the first run)")
	fs.Float64Var(&ro.MinChange, "min-change", ro.MinChange, "with -replay, smallest relative change detected, a `fraction`")
	return func(e *env, args []string) error {
		m, err := optimize.ParseMetric(*metric)
		if err != nil {
			return usagef("-metric: %v", err)
		}
		opts.Metric = m
		ro.Bootstrap, ro.Seed = opts.Bootstrap, opts.Seed
		if err := opts.Validate(); err != nil {
			return usagef("-%v", err)
		}
		if err := ro.Validate(); err != nil {
			return usagef("-%v", err)
		}
		switch {
		case *out == "":
			return usagef("-o: want a file name")
		case !slices.Contains(optimize.Formats, optimize.Format(*format)):
			return usagef("-format %q: want text or json", *format)
		case !*replay && len(args) != 1:
			return usagef("want one full run; got %d arguments", len(args))
		case *replay && len(args) < 2:
			return usagef("-replay wants full runs of at least two versions; got %d", len(args))
		case *planFile != "" && !*replay:
			return usagef("-plan applies to -replay")
		}
		runs, err := loadInputs(e, *db, args)
		if err != nil {
			return err
		}
		if !*replay {
			rep, warnings, err := optimize.OptimizeRun(runs[0], *unit, opts)
			for _, w := range warnings {
				e.warnf("%v", w)
			}
			if err != nil {
				return err
			}
			if err := optimize.WritePlanFile(*out, optimize.NewPlan(rep)); err != nil {
				return err
			}
			if err := rep.Write(e.stdout, optimize.Format(*format)); err != nil || *format != "text" {
				return err
			}
			fmt.Fprintf(e.stderr, "mbench: plan for %d benchmarks written to %s\n", len(rep.Results), *out)
			return nil
		}
		var plan *optimize.Plan
		if *planFile != "" {
			if plan, err = optimize.ReadPlanFile(*planFile); err != nil {
				return err
			}
		}
		rr, warnings, err := optimize.ReplayRuns(runs, *unit, plan, opts, ro)
		for _, w := range warnings {
			e.warnf("%v", w)
		}
		if err != nil {
			return err
		}
		return rr.Write(e.stdout, optimize.Format(*format))
	}
}
