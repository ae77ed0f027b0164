package main

import (
	"errors"
	"flag"
	"path/filepath"
	"regexp"
	"slices"

	"github.com/mbench/mbench/compare"
	reports "github.com/mbench/mbench/report"
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
			opts := reports.PlotOptions{Compare: compare.DefaultOptions}
			fs.StringVar(&opts.Compare.Metric, "metric", opts.Compare.Metric, "draw `unit`: sec/op (or ns/op), B/op, allocs/op, or a custom unit")
			fs.Float64Var(&opts.Compare.Threshold, "threshold", opts.Compare.Threshold, "comparison: smallest relative change that matters, as a `fraction`")
			return func(e *env, args []string) error {
				switch ext := filepath.Ext(*out); {
				case ext != ".svg" && ext != ".png":
					return usagef("-o %q: want a file ending in .svg or .png", *out)
				case !slices.Contains(reports.Kinds, *kind):
					return usagef("-kind %q: want comparison, trace, scaling or history", *kind)
				case (*kind == "trace" || *kind == "scaling") && len(args) > 1:
					return usagef("-kind %s: want one input, RUN (a stored run or a result file), or none for the newest stored result; got %d", *kind, len(args))
				case *kind == "comparison" && len(args) > 2:
					return usagef("-kind comparison: want two inputs, OLD and NEW, one that holds two versions, or none for the newest stored result; got %d", len(args))
				}
				if err := checkCompareFlags(opts.Compare); err != nil {
					return err
				}
				re, err := regexp.Compile(*benchRe)
				if err != nil {
					return usagef("-bench: %v", err)
				}
				if err := checkOutput("-o", *out, append(storeFiles(*db), argFiles("the input", args...)...)...); err != nil {
					return err
				}
				runs, stored, err := inputsOrNewest(e, *db, args, *kind != "history")
				if err != nil {
					return err
				}
				if *kind == "history" && stored != nil {
					runs = stored
				}
				opts.Kind, opts.Match, opts.Pattern = *kind, re.MatchString, re.String()
				fig, warnings, err := reports.Plot(runs, opts)
				warnAll(e, warnings)
				if errors.Is(err, compare.ErrSides) {
					return usagef("%v", err)
				} else if err != nil {
					return err
				}
				return fig.WriteFile(*out)
			}
		},
	})
}
