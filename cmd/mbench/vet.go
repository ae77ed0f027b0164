package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os/signal"
	"strings"
	"syscall"

	"github.com/mbench/mbench/vet"
	"github.com/mbench/mbench/vet/crosscheck"
)

func init() {
	commands = append(commands, &command{
		name:      "vet",
		usageLine: "[-json] [-fix] [-run [-confirmed]] [-all | -only names] [packages]",
		short:     "find benchmark mistakes that make results lie",
		long: `
Vet analyses the benchmarks of the packages (default ./...), in their test
files, and reports the mistakes that make benchmark results lie:

	deadresult   a result nobody uses in a b.N loop: the compiler may delete the work
	constfold    a call whose arguments are all constants: the compiler may fold it,
	             b.Loop or not
	stoptimer    b.StopTimer/b.StartTimer inside the loop, costlier than short work
	bnsize       b.N used as a problem size
	driftstate   state the loop mutates, so later iterations measure something else

and, only with -all or -only, the experimental

	timedsetup   setup before a b.N loop, measured by the timer (on modules its
	             rules were not tuned on, none of its findings held up)
	cachehot     a search for the same key in every iteration, in a collection
	             the setup filled with many keys (the cheapest, cache-hot case;
	             6 of 27 findings held up when checked on unseen modules)

'mbench help vet' and each analyzer's documentation (go doc
github.com/mbench/mbench/vet/NAME) give the evidence for each. Findings are
printed as file:line:col: [analyzer] message; -json prints them as JSON.
-fix applies the suggested fixes that are mechanically safe (rewriting a b.N
loop to b.Loop, or else assigning a dead result to a package-level sink;
passing constant inputs through package-level variables assigned before the
loop; inserting b.ResetTimer) and gofmts the files it changes.

-run checks findings by running their benchmarks. deadresult and constfold
findings run as written and, where the finding has a fix, with the fix
applied through go test -overlay (your files are not changed), in one
interleaved run: a benchmark that gets much slower once its work is
protected was measuring work that was not done (confirmed); one that does
not change was not (refuted). A constfold finding on a call whose result
is also dead is checked with the dead result's sink in both builds
(so run deadresult with it: -only constfold alone leaves the call deleted
on both sides, and the check cannot see the folding).
Without a fix, only an implausibly fast result (under 1 ns/op) can
confirm. bnsize and driftstate findings, which say that ns/op depends on
b.N, run at b.N = 1,000 (or less) and at up to a
thousand times that: ns/op at least doubling confirms them (halving, for
data sorted in every iteration), ns/op within 30% at every b.N run refutes
them. Other load slows long runs more than short ones, so the check
measures the CPU other processes use meanwhile and raises the bar for a
confirmation by it; a quiet machine gives the clearest verdicts.

-confirmed, with -run, prints and counts only the findings that running
confirmed, for a CI gate that must not fail on a warning the timings do
not bear out. Findings that -run cannot check (stoptimer, timedsetup, cachehot) are
left out with the rest; the number left out is printed on stderr.

The default analyzers run inside go vet with the mbench-vet command:

	go install github.com/mbench/mbench/cmd/mbench-vet
	go vet -vettool=$(which mbench-vet) ./...

Packages that do not load or type-check (or whose dependencies do not) are
left out and named on stderr with their first error; the others are vetted
and reported as usual, and the exit status is then 1.

Exit status is 0 with no findings (or only findings -run refuted; with
-confirmed, none confirmed), 3 with findings, 1 on errors, including
packages left out.
`,
		setFlags: func(fs *flag.FlagSet) func(*env, []string) error {
			jsonOut := fs.Bool("json", false, "print findings as JSON")
			fix := fs.Bool("fix", false, "apply suggested fixes")
			only := fs.String("only", "", "run only the analyzers in the comma-separated `list` (experimental ones too)")
			all := fs.Bool("all", false, "also run the experimental analyzers (timedsetup, cachehot)")
			runCheck := fs.Bool("run", false, "run the benchmarks of deadresult, constfold, bnsize and driftstate findings to confirm or refute them")
			confirmed := fs.Bool("confirmed", false, "with -run, report only the findings that running confirmed")
			return func(e *env, args []string) error {
				if *confirmed && !*runCheck {
					return usagef("-confirmed needs -run")
				}
				analyzers := vet.Analyzers
				if *all {
					analyzers = vet.All
				}
				if *only != "" {
					analyzers = nil
					for _, name := range strings.Split(*only, ",") {
						a := vet.Lookup(name)
						if a == nil {
							return usagef("-only: unknown analyzer %q", name)
						}
						analyzers = append(analyzers, a)
					}
				}
				findings, notVetted, err := vet.Run(analyzers, args)
				if err != nil {
					return err
				}
				if *runCheck {
					ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
					err := vet.CrossCheck(ctx, findings, func(format string, args ...any) {
						fmt.Fprintf(e.stderr, "mbench vet: "+format+"\n", args...)
					})
					stop()
					if err != nil {
						return err
					}
				}
				if *confirmed {
					var left int
					findings, left = vet.OnlyConfirmed(findings)
					if left > 0 {
						fmt.Fprintf(e.stderr, "mbench vet: -confirmed left out %d findings that running did not confirm\n", left)
					}
				}
				if *jsonOut {
					enc := json.NewEncoder(e.stdout)
					enc.SetIndent("", "  ")
					if findings == nil {
						findings = []vet.Finding{}
					}
					if err := enc.Encode(findings); err != nil {
						return err
					}
				} else {
					for _, f := range findings {
						fmt.Fprintf(e.stdout, "%s: [%s] %s\n", f.Pos, f.Analyzer, f.Message)
						if f.Check != "" {
							fmt.Fprintf(e.stdout, "\t%s by running it: %s\n", f.Check, f.Reason)
						}
					}
				}
				if *fix {
					n, err := vet.ApplyFixes(findings)
					if err != nil {
						return err
					}
					fmt.Fprintf(e.stderr, "mbench vet: applied %d fixes\n", n)
				}
				// Packages that did not load fail the run whatever the others
				// found: a gate must not pass on code it did not see.
				if notVetted != nil {
					return notVetted
				}
				// A finding the benchmark's own timings refuted does not fail
				// the check.
				open := 0
				for _, f := range findings {
					if f.Check != crosscheck.Refuted {
						open++
					}
				}
				if open > 0 {
					return &findingsError{n: open}
				}
				return nil
			}
		},
	})
}
