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
		long:      helpText("optimize"),
		setFlags:  setOptimizeFlags,
	})
}

func setOptimizeFlags(fs *flag.FlagSet) func(*env, []string) error {
	opts, ro := optimize.DefaultOptions, optimize.DefaultReplayOptions
	metric := fs.String("metric", opts.Metric.String(), "stability `metric`: "+strings.Join(optimize.MetricNames, ", "))
	fs.Float64Var(&opts.Threshold, "threshold", opts.Threshold, "largest metric value that counts as stable, a `fraction`")
	fs.Float64Var(&opts.Bootstrap.Level, "level", opts.Bootstrap.Level, "confidence `level` of the intervals")
	fs.IntVar(&opts.Bootstrap.Replicates, "reps", opts.Bootstrap.Replicates, "bootstrap `replicates`")
	fs.Uint64Var(&opts.Seed, "seed", opts.Seed, "random `seed` of the bootstraps and the random baseline")
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
		if !*replay {
			if err := checkOutput("-o", *out, append(storeFiles(*db), argFiles("the input", args...)...)...); err != nil {
				return err
			}
		}
		runs, err := loadInputs(e, *db, args)
		if err != nil {
			return err
		}
		if !*replay {
			rep, warnings, err := optimize.Run(runs[0], *unit, opts)
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
