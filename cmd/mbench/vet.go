package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/mbench/mbench/vet"
)

func init() {
	commands = append(commands, &command{
		name:      "vet",
		usageLine: "[-json] [-fix] [-run [-confirmed]] [-only names] [packages]",
		short:     "find benchmark mistakes that make results lie",
		long:      helpText("vet"),
		setFlags: func(fs *flag.FlagSet) func(*env, []string) error {
			jsonOut := fs.Bool("json", false, "print findings as JSON")
			fix := fs.Bool("fix", false, "apply suggested fixes")
			only := fs.String("only", "", "run only the analyzers in the comma-separated `list`")
			runCheck := fs.Bool("run", false, "run the benchmarks of deadresult, constfold, bnsize and driftstate findings to confirm or refute them")
			confirmed := fs.Bool("confirmed", false, "with -run, report only the findings that running confirmed")
			quiet := quietFlag(fs)
			return func(e *env, args []string) error {
				if *confirmed && !*runCheck {
					return usagef("-confirmed needs -run")
				}
				status := e.status(*quiet)
				defer status.Done()
				opts := vet.Options{Run: *runCheck, Confirmed: *confirmed, Fix: *fix, Progress: status.Set, Log: func(format string, args ...any) {
					fmt.Fprintf(e.stderr, "mbench vet: "+format+"\n", args...)
				}}
				if *only != "" {
					for _, name := range strings.Split(*only, ",") {
						a := vet.Lookup(name)
						if a == nil {
							return usagef("-only: unknown analyzer %q", name)
						}
						opts.Analyzers = append(opts.Analyzers, a)
					}
				}
				ctx, stop := interruptContext(e.stderr)
				defer stop()
				r, err := vet.Vet(ctx, args, opts)
				status.Done()
				if r == nil {
					return err
				}
				if perr := printVet(e, r, *jsonOut, *fix); perr != nil {
					return perr
				}
				if err != nil {
					return err
				}
				// Packages that did not load fail the run whatever the others
				// found: a gate must not pass on code it did not see.
				if r.NotVetted != nil {
					fmt.Fprintf(e.stderr, "mbench vet: %s\n", r.Summary())
					return r.NotVetted
				}
				// A finding the benchmark's own timings refuted does not fail
				// the check.
				if n := r.Open(); n > 0 {
					return &vetFindings{summary: r.Summary(), n: n}
				}
				fmt.Fprintf(e.stderr, "mbench vet: %s\n", r.Summary())
				return nil
			}
		},
	})
}

// printVet prints the findings of r on stdout and what -confirmed and
// -fix did on stderr.
func printVet(e *env, r *vet.Report, jsonOut, fix bool) error {
	if err := r.WriteFindings(e.stdout, jsonOut); err != nil {
		return err
	}
	if r.Unconfirmed > 0 {
		fmt.Fprintf(e.stderr, "mbench vet: -confirmed left out %d findings that running did not confirm\n", r.Unconfirmed)
	}
	for _, msg := range r.NotFixed {
		fmt.Fprintf(e.stderr, "mbench vet: %s\n", msg)
	}
	if fix {
		fmt.Fprintf(e.stderr, "mbench vet: applied %d fixes\n", r.Fixed)
	}
	return nil
}

// vetFindings makes mbench vet exit 3, as a findingsError, with the
// summary of what it checked as its message.
type vetFindings struct {
	summary string
	n       int
}

func (e *vetFindings) Error() string { return e.summary }

func (e *vetFindings) Unwrap() error { return &findingsError{n: e.n} }
