package main

import (
	"flag"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/compare"
	"github.com/mbench/mbench/plot"
	reports "github.com/mbench/mbench/report"
	"golang.org/x/perf/benchunit"
)

func init() {
	commands = append(commands, &command{
		name:      "plot",
		usageLine: "-kind comparison|trace|scaling|history -o FILE.svg|FILE.png [flags] [inputs...]",
		short:     "draw one figure as SVG or PNG",
		long:      helpText("plot"),
		setFlags: func(fs *flag.FlagSet) func(*env, []string) error {
			kind := fs.String("kind", "", "figure `kind`: comparison, trace, scaling or history")
			out := fs.String("o", "", "output `file`, ending in .svg or .png")
			db := fs.String("db", defaultDB, "result database `path` in which inputs that are not files are looked up")
			benchRe := fs.String("bench", ".", "trace, scaling, history: `regexp` selecting what to draw")
			opts := compare.DefaultOptions
			fs.StringVar(&opts.Metric, "metric", opts.Metric, "draw `unit`: sec/op (or ns/op), B/op, allocs/op, or a custom unit")
			fs.Float64Var(&opts.Threshold, "threshold", opts.Threshold, "comparison: smallest relative change that matters, as a `fraction`")
			return func(e *env, args []string) error {
				switch ext := filepath.Ext(*out); {
				case ext != ".svg" && ext != ".png":
					return usagef("-o %q: want a file ending in .svg or .png", *out)
				case !slices.Contains([]string{"comparison", "trace", "scaling", "history"}, *kind):
					return usagef("-kind %q: want comparison, trace, scaling or history", *kind)
				case (*kind == "trace" || *kind == "scaling") && len(args) != 1:
					return usagef("-kind %s: want one input, RUN (a stored run or a result file); got %d", *kind, len(args))
				case *kind == "comparison" && len(args) != 1 && len(args) != 2:
					return usagef("-kind comparison: want two inputs, OLD and NEW, or one that holds two versions; got %d", len(args))
				}
				if err := checkCompareFlags(opts); err != nil {
					return err
				}
				re, err := regexp.Compile(*benchRe)
				if err != nil {
					return usagef("-bench: %v", err)
				}
				if err := checkOutput("-o", *out, append(storeFiles(*db), argFiles("the input", args...)...)...); err != nil {
					return err
				}
				if *kind == "scaling" || *kind == "history" {
					r, err := buildReport(e, *db, args, reports.Options{Compare: opts, Only: *kind}, *kind == "history")
					if err != nil {
						return err
					}
					fig, err := r.Figure(*kind, re.MatchString)
					if err != nil {
						return fmt.Errorf("%w -bench %q", err, re)
					}
					return fig.WriteFile(*out)
				}
				runs, err := loadInputs(e, *db, args)
				if err != nil {
					return err
				}
				var fig *plot.Figure
				if *kind == "comparison" {
					if len(runs) == 1 {
						old, new, err := compare.Split(runs[0])
						if err != nil {
							return usagef("%v", err)
						}
						runs = []*bench.Run{old, new}
					}
					var warnings []string
					fig, warnings, err = reports.ComparisonFigure(runs[0], runs[1], opts)
					warnAll(e, warnings)
				} else {
					_, unit := benchunit.Tidy(1, opts.Metric)
					var names []string
					fig, names = plot.RunTrace(runs[0], func(k bench.Key) bool { return re.MatchString(k.Name) }, unit)
					switch {
					case fig == nil:
						err = fmt.Errorf("%s: no benchmark with %s values matches -bench %q", args[0], unit, re)
					case len(names) > 1:
						e.warnf("-bench %q matches %d benchmarks; drawing the first, %s", re, len(names), names[0])
					}
				}
				if err != nil {
					return err
				}
				return fig.WriteFile(*out)
			}
		},
	})
}
