package main

import (
	"flag"
	"regexp"
	"slices"

	"github.com/mbench/mbench/history"
)

func init() {
	commands = append(commands, &command{
		name:      "history",
		usageLine: "[-bench regexp] [-format text|json|csv] [-db path] [RUN...]",
		short:     "follow benchmarks across stored runs and find their steps",
		long:      helpText("history"),
		setFlags: func(fs *flag.FlagSet) func(*env, []string) error {
			opts := history.DefaultOptions
			fs.Func("bench", "follow only benchmarks whose name matches `regexp`", func(s string) error {
				re, err := regexp.Compile(s)
				opts.Bench = re
				return err
			})
			fs.StringVar(&opts.Unit, "metric", opts.Unit, "follow `unit`: sec/op (or ns/op), B/op, allocs/op, or a custom unit")
			fs.Float64Var(&opts.Threshold, "threshold", opts.Threshold, "smallest step reported, as a `fraction`")
			fs.Float64Var(&opts.Alpha, "alpha", opts.Alpha, "significance `level` of a step")
			fs.IntVar(&opts.Window, "window", opts.Window, "`runs` searched together (0: all)")
			fs.IntVar(&opts.Permutations, "permutations", opts.Permutations, "test steps with `n` permutations instead of Student's t-test")
			fs.IntVar(&opts.MinRuns, "min-runs", opts.MinRuns, "fewest `runs` on each side of a step")
			fs.Uint64Var(&opts.Seed, "seed", opts.Seed, "random `seed` of the bootstraps and permutations")
			format := fs.String("format", "text", "output `format`: text, json or csv")
			db := fs.String("db", defaultDB, "result database `path`")
			return func(e *env, args []string) error {
				if !slices.Contains(history.Formats, *format) {
					return usagef("-format %q: want one of %v", *format, history.Formats)
				}
				if err := opts.Validate(); err != nil {
					return usagef("-%v", err)
				}
				st, err := openExisting(*db)
				if err != nil {
					return err
				}
				defer st.Close()
				runs, warnings, err := history.Load(st, args)
				warnAll(e, warnings)
				if err != nil {
					return err
				}
				warnAll(e, history.Warnings(runs))
				series, err := history.Analyze(runs, opts)
				if err != nil {
					return err
				}
				return history.Write(e.stdout, *format, series)
			}
		},
	})
}
