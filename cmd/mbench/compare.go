package main

import (
	"flag"
	"slices"
	"strings"

	"github.com/mbench/mbench/compare"
	"github.com/mbench/mbench/stats"
)

func init() {
	commands = append(commands, &command{
		name:      "compare",
		usageLine: "[flags] OLD NEW | SESSION",
		short:     "detect changes between two result sets",
		long:      helpText("compare"),
		setFlags: func(fs *flag.FlagSet) func(*env, []string) error {
			opts := compare.DefaultOptions
			fs.StringVar(&opts.Metric, "metric", opts.Metric, "compare `unit`: sec/op (or ns/op), B/op, allocs/op, or a custom unit")
			fs.Func("stat", "centre to compare: mean or median (default mean)", func(s string) error {
				st, err := stats.ParseStat(s)
				opts.Stat = st
				return err
			})
			fs.Float64Var(&opts.Alpha, "alpha", opts.Alpha, "one minus the confidence `level` of the interval")
			fs.Float64Var(&opts.Threshold, "threshold", opts.Threshold, "smallest relative change that matters, as a `fraction` (not for allocs/op)")
			fs.IntVar(&opts.Replicates, "reps", opts.Replicates, "bootstrap `replicates`")
			fs.Uint64Var(&opts.Seed, "seed", opts.Seed, "random `seed` of the bootstrap")
			format := fs.String("format", "text", "output `format`: text, markdown, json or csv")
			fail := fs.Bool("fail", false, "exit with status 3 when a benchmark got worse")
			db := fs.String("db", defaultDB, "result database `path` in which inputs that are not files are looked up")
			return func(e *env, args []string) error {
				if len(args) != 1 && len(args) != 2 {
					return usagef("want two inputs, OLD and NEW, or one that holds two versions; got %d", len(args))
				}
				if !slices.Contains(compare.Formats, compare.Format(*format)) {
					return usagef("-format %q: want one of %v", *format, compare.Formats)
				}
				if err := checkCompareFlags(opts); err != nil {
					return err
				}
				runs, err := loadInputs(e, *db, args)
				if err != nil {
					return err
				}
				old, new, err := compare.Sides(runs...)
				if err != nil {
					return usagef("%v", err)
				}
				opts.AlphaSet = isSet(fs, "alpha")
				res, err := compare.Compare(old, new, opts)
				if err != nil {
					return err
				}
				if err := res.Write(e.results(), compare.Format(*format)); err != nil {
					return err
				}
				if *fail {
					return regressionErrorOf(res)
				}
				return nil
			}
		},
	})
}

// regressionErrorOf is the error of -fail for the benchmarks that got
// worse in any of results; it is nil when none did.
func regressionErrorOf(results ...*compare.Result) error {
	if names := compare.Regressed(results...); len(names) > 0 {
		return &regressionError{n: len(names), names: strings.Join(names, ", ")}
	}
	return nil
}

// checkCompareFlags checks the flags every command binds into
// compare.Options, as a usage error naming the flag at fault.
func checkCompareFlags(o compare.Options) error {
	if err := o.Validate(); err != nil {
		return usagef("-%v", err)
	}
	return nil
}
