package main

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"go/format"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/mbench/mbench/vet"
	"github.com/mbench/mbench/vet/crosscheck"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
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
				findings, notVetted, err := runVet(analyzers, args)
				if err != nil {
					return err
				}
				if *runCheck {
					if err := crossCheck(e, findings); err != nil {
						return err
					}
				}
				if *confirmed {
					var left int
					findings, left = onlyConfirmed(findings)
					if left > 0 {
						fmt.Fprintf(e.stderr, "mbench vet: -confirmed left out %d findings that running did not confirm\n", left)
					}
				}
				if *jsonOut {
					enc := json.NewEncoder(e.stdout)
					enc.SetIndent("", "  ")
					if findings == nil {
						findings = []finding{}
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
					n, err := applyFixes(findings)
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

// A finding is one diagnostic, in the stable form -json prints.
type finding struct {
	Analyzer string `json:"analyzer"`
	Pos      string `json:"posn"`
	Message  string `json:"message"`
	// Category tells kinds of finding of one analyzer apart (driftstate's
	// "sorted").
	Category string `json:"category,omitempty"`
	Fixes    []fix  `json:"fixes,omitempty"`
	// Check is the outcome of -run: confirmed, refuted or undetermined,
	// with the reason.
	Check  string `json:"check,omitempty"`
	Reason string `json:"check_reason,omitempty"`
	file   string
	offset int
}

type fix struct {
	Message string `json:"message"`
	Edits   []edit `json:"edits"`
}

type edit struct {
	File       string `json:"file"`
	Start, End int    `json:"-"` // byte offsets in File
	New        string `json:"new"`
	StartPos   string `json:"start"`
	EndPos     string `json:"end"`
}

// runVet loads the packages with their tests and runs the analyzers. As
// go vet does, it goes on past packages that do not load or type-check
// (or whose dependencies do not): it returns the findings of the others,
// and a *notVettedError naming each package left out with its first error.
func runVet(analyzers []*analysis.Analyzer, patterns []string) ([]finding, *notVettedError, error) {
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Tests: true}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, nil, err
	}
	var roots []*packages.Package
	bad := new(notVettedError)
	for _, p := range pkgs {
		if strings.HasSuffix(p.ID, ".test") {
			continue // the generated test main
		}
		// A package that does not load is left out; its variants share
		// its errors, so each directory is named once.
		if len(p.Errors) > 0 {
			bad.add(strings.TrimSuffix(p.PkgPath, "_test"), loadErr(p.Errors[0]))
			continue
		}
		// Benchmarks live in test files: the test variants ("p [p.test]",
		// "p_test") hold them; the plain package adds nothing.
		if len(pkgs) > 1 && !strings.Contains(p.ID, "[") && !strings.HasSuffix(p.PkgPath, "_test") {
			continue
		}
		roots = append(roots, p)
	}
	graph, err := checker.Analyze(analyzers, roots, nil)
	if err != nil {
		return nil, nil, err
	}
	var out []finding
	seen := make(map[string]bool)
	for act := range graph.All() {
		if !act.IsRoot {
			continue
		}
		if act.Err != nil {
			msg := act.Err.Error()
			if cause := rootCause(act); cause != act {
				msg = fmt.Sprintf("needs %s, which failed: %v", cause.Package.PkgPath, cause.Err)
				if errs := cause.Package.Errors; len(errs) > 0 {
					msg += fmt.Sprintf(" (the first: %v)", errs[0])
				}
			}
			bad.add(strings.TrimSuffix(act.Package.PkgPath, "_test"), msg)
			continue
		}
		fset := act.Package.Fset
		for _, d := range act.Diagnostics {
			pos := fset.Position(d.Pos)
			f := finding{Analyzer: act.Analyzer.Name, Pos: pos.String(), Message: d.Message, Category: d.Category,
				file: pos.Filename, offset: pos.Offset}
			key := f.Analyzer + f.Pos + f.Message
			if seen[key] {
				continue // the same test file in two package variants
			}
			seen[key] = true
			for _, sf := range d.SuggestedFixes {
				fx := fix{Message: sf.Message}
				for _, te := range sf.TextEdits {
					start, end := fset.Position(te.Pos), fset.Position(te.End)
					if !te.End.IsValid() {
						end = start
					}
					fx.Edits = append(fx.Edits, edit{File: start.Filename, Start: start.Offset, End: end.Offset,
						New: string(te.NewText), StartPos: start.String(), EndPos: end.String()})
				}
				f.Fixes = append(f.Fixes, fx)
			}
			out = append(out, f)
		}
	}
	slices.SortFunc(out, func(a, b finding) int {
		if c := strings.Compare(a.file, b.file); c != 0 {
			return c
		}
		if c := cmp.Compare(a.offset, b.offset); c != 0 {
			return c
		}
		return strings.Compare(a.Analyzer, b.Analyzer)
	})
	if len(bad.pkgs) == 0 {
		bad = nil
	}
	return out, bad, nil
}

// loadErr returns the text of a load error, without the "-" that stands
// for no position (a directory that does not exist).
func loadErr(e packages.Error) string {
	if e.Pos == "" || e.Pos == "-" {
		return e.Msg
	}
	return e.Error()
}

// A notVettedError lists the packages that could not be vetted, each
// with the first error that stopped it, in the order they were found.
type notVettedError struct {
	pkgs []string
	why  map[string]string
}

func (e *notVettedError) add(pkg, why string) {
	if e.why == nil {
		e.why = make(map[string]string)
	}
	if _, ok := e.why[pkg]; ok {
		return // another variant of the same package
	}
	e.why[pkg] = why
	e.pkgs = append(e.pkgs, pkg)
}

func (e *notVettedError) Error() string {
	var b strings.Builder
	if len(e.pkgs) == 1 {
		b.WriteString("1 package not vetted:")
	} else {
		fmt.Fprintf(&b, "%d packages not vetted:", len(e.pkgs))
	}
	for _, p := range e.pkgs {
		fmt.Fprintf(&b, "\n\t%s: %s", p, e.why[p])
	}
	return b.String()
}

// crossCheck runs the benchmarks of the findings that claim the compiler
// removes or folds work (see package crosscheck) and records the outcome.
func crossCheck(e *env, findings []finding) error {
	var idx []int
	var cfs []crosscheck.Finding
	for i, f := range findings {
		if !crosscheck.Checks(f.Analyzer) {
			continue
		}
		cf := crosscheck.Finding{Analyzer: f.Analyzer, Category: f.Category, File: f.file, Offset: f.offset, Message: f.Message}
		for _, fx := range f.Fixes {
			var edits []crosscheck.Edit
			for _, ed := range fx.Edits {
				edits = append(edits, crosscheck.Edit{File: ed.File, Start: ed.Start, End: ed.End, New: ed.New})
			}
			cf.Fixes = append(cf.Fixes, edits)
		}
		idx = append(idx, i)
		cfs = append(cfs, cf)
	}
	if len(cfs) == 0 {
		return nil
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	opts := crosscheck.DefaultOptions
	opts.Log = func(format string, args ...any) { fmt.Fprintf(e.stderr, "mbench vet: "+format+"\n", args...) }
	verdicts, err := crosscheck.Check(ctx, cfs, opts)
	for i, v := range verdicts {
		findings[idx[i]].Check, findings[idx[i]].Reason = v.Outcome, v.Reason
	}
	return err
}

// rootCause returns the action whose own failure made act fail: the
// checker reports a failed prerequisite only as "failed prerequisites",
// which names neither the package nor what went wrong in it (a
// dependency that does not type-check).
func rootCause(act *checker.Action) *checker.Action {
	for _, dep := range act.Deps {
		if dep.Err != nil {
			return rootCause(dep)
		}
	}
	return act
}

// onlyConfirmed returns the findings that -run confirmed and the number
// of the others.
func onlyConfirmed(findings []finding) ([]finding, int) {
	var kept []finding
	for _, f := range findings {
		if f.Check == crosscheck.Confirmed {
			kept = append(kept, f)
		}
	}
	return kept, len(findings) - len(kept)
}

// applyFixes applies the first suggested fix of each finding, skipping
// fixes whose edits overlap an edit already taken, and gofmts each file.
// Insertions at the same place (declarations at the end of a file,
// assignments before a loop) are all kept, in the order of the findings.
func applyFixes(findings []finding) (int, error) {
	byFile := make(map[string][]edit)
	applied := 0
	for _, f := range findings {
		if len(f.Fixes) == 0 {
			continue
		}
		edits := f.Fixes[0].Edits
		ok := true
		for _, e := range edits {
			for _, have := range byFile[e.File] {
				inserts := e.Start == e.End && have.Start == have.End
				if e.Start < have.End && have.Start < e.End || e.Start == have.Start && !inserts {
					ok = false
				}
			}
		}
		if !ok {
			continue
		}
		for _, e := range edits {
			byFile[e.File] = append(byFile[e.File], e)
		}
		applied++
	}
	for file, edits := range byFile {
		src, err := os.ReadFile(file)
		if err != nil {
			return 0, err
		}
		// From the end of the file backwards, so that offsets stay valid;
		// of insertions at one place the last taken goes in first, and so
		// ends up last.
		slices.Reverse(edits)
		slices.SortStableFunc(edits, func(a, b edit) int { return b.Start - a.Start })
		for _, e := range edits {
			src = append(src[:e.Start:e.Start], append([]byte(e.New), src[e.End:]...)...)
		}
		if formatted, err := format.Source(src); err == nil {
			src = formatted
		}
		if err := os.WriteFile(file, src, 0o666); err != nil {
			return 0, err
		}
	}
	return applied, nil
}
