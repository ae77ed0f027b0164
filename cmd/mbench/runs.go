package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/internal/outfile"
	"github.com/mbench/mbench/store"
)

func init() {
	commands = append(commands, &command{
		name:      "runs",
		usageLine: "[-db path]",
		short:     "list the runs in the result database",
		long:      helpText("runs"),
		setFlags: func(fs *flag.FlagSet) func(*env, []string) error {
			db := fs.String("db", defaultDB, "result database `path`")
			return func(e *env, args []string) error {
				if len(args) != 0 {
					return usagef("runs takes no arguments")
				}
				st, err := openExisting(*db)
				if err != nil {
					return err
				}
				defer st.Close()
				runs, err := st.Runs()
				if err != nil {
					return err
				}
				return store.WriteRuns(e.stdout, runs)
			}
		},
	})
	commands = append(commands, &command{
		name:      "export",
		usageLine: "[-db path] [-format text|json] [-warmup] [-o file] RUN",
		short:     "write a stored run as a result file",
		long:      helpText("export"),
		setFlags: func(fs *flag.FlagSet) func(*env, []string) error {
			db := fs.String("db", defaultDB, "result database `path`")
			format := fs.String("format", "text", "`format`: text (Go benchmark format) or json (JSON Lines)")
			warmup := fs.Bool("warmup", false, "include warm-up iterations in text output")
			out := fs.String("o", "", "write to `file` instead of stdout")
			return func(e *env, args []string) error {
				if len(args) != 1 {
					return usagef("want one run, RUN; got %d arguments", len(args))
				}
				if *format != "text" && *format != "json" {
					return usagef("-format %q: want text or json", *format)
				}
				if err := checkOutput("-o", *out, storeFiles(*db)...); err != nil {
					return err
				}
				st, err := openExisting(*db)
				if err != nil {
					return err
				}
				defer st.Close()
				run, warnings, err := st.LoadRef(args[0])
				warnAll(e, warnings)
				if err != nil {
					return err
				}
				write := func(w io.Writer) error {
					if *format == "json" {
						return bench.WriteJSON(w, run)
					}
					return bench.WriteBenchfmt(w, run, bench.BenchfmtOptions{Warmup: *warmup})
				}
				if *out != "" {
					return outfile.Write(*out, write)
				}
				return write(e.stdout)
			}
		},
	})
}

// openExisting opens the result database at path, which must exist, for
// reading only.
func openExisting(path string) (*store.Store, error) {
	st, err := store.OpenReadOnly(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("no result database at %s (mbench run creates it; -db chooses another)", path)
	}
	return st, err
}
