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
		long: `
Plot draws one figure and writes it to the -o file, as SVG or PNG by its
extension. The kinds and their inputs:

	comparison   OLD NEW, or one input that holds two versions, as
	             'mbench compare' takes them: the relative change of each
	             benchmark with its interval, slowest first, the band of
	             ±threshold shaded, verdicts by colour and marker shape
	trace        RUN: every iteration of the first benchmark that -bench
	             matches, fork after fork in run order, warm-up values
	             open, a dashed cut where each fork's warm-up ended and a
	             line where the stopping criterion fired
	scaling      RUN: the first family of sub-benchmarks that -bench
	             matches and that vary one numeric parameter (/n=1000,
	             /size=4KiB), time against the parameter on log-log axes
	             with error bars, one line per variant, with the slope
	             of each line's fit and its interval
	history      RUNS in time order, or none for every stored run: each
	             benchmark that -bench matches across the runs, intervals
	             as bands, change points marked, in small multiples

Scaling and history draw time per op (sec/op).

Inputs are result files or runs stored by 'mbench run', by label or id.
The SVG fetches nothing, reads in light and dark colour schemes, and can be
inlined in HTML; the PNG has twice the SVG's pixels each way.
`,
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
				case (*kind == "trace" || *kind == "scaling") && len(args) != 1,
					*kind == "comparison" && len(args) != 1 && len(args) != 2:
					return usagef("-kind %s: wrong number of inputs (%d); see 'mbench help plot'", *kind, len(args))
				}
				if err := checkCompareFlags(opts); err != nil {
					return err
				}
				re, err := regexp.Compile(*benchRe)
				if err != nil {
					return usagef("-bench: %v", err)
				}
				if *kind == "scaling" || *kind == "history" {
					r, err := buildReport(e, *db, args, reports.Options{Compare: opts}, *kind == "history")
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
