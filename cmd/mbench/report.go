package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/mbench/mbench/bench"
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
				opts.Compare.AlphaSet = isSet(fs, "alpha")
				r, err := buildReport(e, *db, args, opts)
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

// buildReport builds the report of the inputs args or, with none, of the
// newest stored result, with the history of every stored result.
func buildReport(e *env, db string, args []string, opts reports.Options) (*reports.Report, error) {
	opts.ProfileDir = filepath.Join(noiseDir(db), "profiles") // where ab -profile keeps them
	runs, stored, err := inputsOrNewest(e, db, args, true)
	if err != nil {
		return nil, err
	}
	opts.History = stored
	r, err := reports.Build(runs, opts)
	if errors.Is(err, compare.ErrSides) {
		return nil, usagef("%v", err)
	}
	return r, err
}

// inputsOrNewest loads the inputs args or, with none, the newest stored
// result, saying so on stderr when say is set; stored is then every
// stored result, oldest first.
func inputsOrNewest(e *env, db string, args []string, say bool) (runs, stored []*bench.Run, err error) {
	if len(args) > 0 {
		runs, err = loadInputs(e, db, args)
		return runs, nil, err
	}
	st, err := openExisting(db)
	if err != nil {
		return nil, nil, err
	}
	defer st.Close()
	stored, warnings, err := reports.Stored(st)
	warnAll(e, warnings)
	if err != nil {
		return nil, nil, err
	}
	if say {
		fmt.Fprintf(e.stderr, "mbench: showing %s\n", reports.Newest(stored))
	}
	return stored[len(stored)-1:], stored, nil
}
