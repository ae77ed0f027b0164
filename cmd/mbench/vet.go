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
		long: `
Vet analyses the benchmarks of the packages (default ./...), in their test
files, and reports the mistakes that make benchmark results lie:

	deadresult   a result nobody uses in a b.N or pb.Next loop: the compiler
	             may delete the work
	constfold    a call whose arguments are all constants: the compiler may
	             fold it, b.Loop or not
	stoptimer    b.StopTimer/b.StartTimer inside the loop, costlier than
	             short work
	bnsize       b.N used as a problem size
	driftstate   state the loop mutates, so later iterations measure something else

Loops of b.N, b.Loop and pb.Next (in b.RunParallel) are analysed. Each
analyzer's documentation (go doc github.com/mbench/mbench/vet/NAME) says
what it reports and how to fix it; go doc github.com/mbench/mbench/vet
gives the evidence. Findings are printed as file:line:col: [analyzer]
message, followed on stderr by how many packages and benchmarks were
checked; -json prints the findings as JSON.

-fix applies the suggested fixes that are mechanically safe (rewriting a b.N
loop to b.Loop, or else assigning a dead result to a package-level sink;
passing constant inputs through package-level variables assigned before the
loop) and gofmts the files it changes, replacing each file at once. It
leaves alone code that a //line directive maps elsewhere, and says so.

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
not bear out. Findings that -run cannot check (stoptimer) are left out
with the rest; the number left out is printed on stderr.

The analyzers also run inside go vet with the mbench-vet command:

	go install github.com/mbench/mbench/cmd/mbench-vet
	go vet -vettool=$(which mbench-vet) ./...

Packages that do not load or type-check (or whose dependencies do not) are
left out and named on stderr with their first error; the others are vetted
and reported as usual, and the exit status is then 1.

Exit status is 0 with no findings (or only findings -run refuted; with
-confirmed, none confirmed), 3 with findings, 1 on errors, including
packages left out and patterns that match no package.
`,
		setFlags: func(fs *flag.FlagSet) func(*env, []string) error {
			jsonOut := fs.Bool("json", false, "print findings as JSON")
			fix := fs.Bool("fix", false, "apply suggested fixes")
			only := fs.String("only", "", "run only the analyzers in the comma-separated `list`")
			runCheck := fs.Bool("run", false, "run the benchmarks of deadresult, constfold, bnsize and driftstate findings to confirm or refute them")
			confirmed := fs.Bool("confirmed", false, "with -run, report only the findings that running confirmed")
			return func(e *env, args []string) error {
				if *confirmed && !*runCheck {
					return usagef("-confirmed needs -run")
				}
				opts := vet.Options{Run: *runCheck, Confirmed: *confirmed, Fix: *fix, Log: func(format string, args ...any) {
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
