package main

import (
	"bytes"
	"flag"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/mbench/mbench/compare"
	"github.com/mbench/mbench/internal/outfile"
	reports "github.com/mbench/mbench/report"
)

func init() {
	commands = append(commands, &command{
		name:      "report",
		usageLine: "[flags] [inputs...]",
		short:     "write a self-contained HTML report of runs",
		long:      helpText("report"),
		setFlags: func(fs *flag.FlagSet) func(*env, []string) error {
			opts := reports.Options{Compare: compare.DefaultOptions}
			fs.Float64Var(&opts.Compare.Alpha, "alpha", opts.Compare.Alpha, "one minus the confidence `level` of the intervals")
			fs.Float64Var(&opts.Compare.Threshold, "threshold", opts.Compare.Threshold, "smallest relative change that matters, as a `fraction`")
			fs.IntVar(&opts.Compare.Replicates, "reps", opts.Compare.Replicates, "bootstrap `replicates`")
			fs.Uint64Var(&opts.Compare.Seed, "seed", opts.Compare.Seed, "random `seed` of the bootstrap")
			fs.StringVar(&opts.Title, "title", "", "`title` of the report (default from the runs' labels)")
			format := fs.String("format", "html", "output `format`: html, markdown or text")
			out := fs.String("o", "", "output `file` (default mbench-report.html for html, standard output otherwise)")
			db := fs.String("db", defaultDB, "result database `path`")
			return func(e *env, args []string) error {
				if !slices.Contains(reports.Formats, reports.Format(*format)) {
					return usagef("-format %q: want one of %v", *format, reports.Formats)
				}
				if err := checkCompareFlags(opts.Compare); err != nil {
					return err
				}
				if *out == "" && *format == string(reports.HTML) {
					*out = "mbench-report.html"
				}
				if err := checkOutput("-o", *out, append(storeFiles(*db), argFiles("the input", args...)...)...); err != nil {
					return err
				}
				r, err := buildReport(e, *db, args, opts, false)
				if err != nil {
					return err
				}
				// The report is written whole or not at all: a failure
				// leaves no broken file behind.
				var b bytes.Buffer
				if err := r.Write(&b, reports.Format(*format)); err != nil {
					return err
				}
				if *out == "" {
					_, err = e.stdout.Write(b.Bytes())
					return err
				}
				if err := outfile.WriteFile(*out, b.Bytes()); err != nil {
					return err
				}
				for _, w := range r.Warnings() {
					e.warnf("%s", w)
				}
				fmt.Fprintf(e.stdout, "wrote %s (%d kB)\n", *out, (b.Len()+1023)/1024)
				return nil
			}
		},
	})
}

// buildReport builds the report of the inputs args (with their history when
// history is set) or, with none, of every stored run and their history.
func buildReport(e *env, db string, args []string, opts reports.Options, history bool) (*reports.Report, error) {
	opts.ProfileDir = filepath.Join(noiseDir(db), "profiles") // where ab -profile keeps them
	if len(args) > 0 {
		runs, err := loadInputs(e, db, args)
		if err != nil {
			return nil, err
		}
		if history {
			opts.History = runs
		}
		return reports.Build(runs, opts)
	}
	st, err := openExisting(db)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	runs, warnings, err := reports.Stored(st)
	warnAll(e, warnings)
	if err != nil {
		return nil, err
	}
	opts.History = runs
	return reports.Build(runs, opts)
}
