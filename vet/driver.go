package vet

import (
	"cmp"
	"context"
	"fmt"
	"go/format"
	"os"
	"slices"
	"strings"

	"github.com/mbench/mbench/vet/crosscheck"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// A Finding is one diagnostic, in the stable form `mbench vet -json`
// prints.
type Finding struct {
	Analyzer string `json:"analyzer"`
	Pos      string `json:"posn"`
	Message  string `json:"message"`
	// Category tells kinds of Finding of one analyzer apart (driftstate's
	// "sorted").
	Category string `json:"category,omitempty"`
	Fixes    []Fix  `json:"fixes,omitempty"`
	// Check is the outcome of -run: confirmed, refuted or undetermined,
	// with the reason.
	Check  string `json:"check,omitempty"`
	Reason string `json:"check_reason,omitempty"`
	// File and Offset place the finding for fixes and runs.
	File   string `json:"-"`
	Offset int    `json:"-"`
}

type Fix struct {
	Message string `json:"message"`
	Edits   []Edit `json:"edits"`
}

type Edit struct {
	File       string `json:"file"`
	Start, End int    `json:"-"` // byte offsets in File
	New        string `json:"new"`
	StartPos   string `json:"start"`
	EndPos     string `json:"end"`
}

// Run loads the packages with their tests and runs the analyzers. As
// go vet does, it goes on past packages that do not load or type-check
// (or whose dependencies do not): it returns the findings of the others,
// and a *NotVettedError naming each package left out with its first error.
func Run(analyzers []*analysis.Analyzer, patterns []string) ([]Finding, *NotVettedError, error) {
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Tests: true}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, nil, err
	}
	var roots []*packages.Package
	bad := new(NotVettedError)
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
	var out []Finding
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
			f := Finding{Analyzer: act.Analyzer.Name, Pos: pos.String(), Message: d.Message, Category: d.Category,
				File: pos.Filename, Offset: pos.Offset}
			key := f.Analyzer + f.Pos + f.Message
			if seen[key] {
				continue // the same test file in two package variants
			}
			seen[key] = true
			for _, sf := range d.SuggestedFixes {
				fx := Fix{Message: sf.Message}
				for _, te := range sf.TextEdits {
					start, end := fset.Position(te.Pos), fset.Position(te.End)
					if !te.End.IsValid() {
						end = start
					}
					fx.Edits = append(fx.Edits, Edit{File: start.Filename, Start: start.Offset, End: end.Offset,
						New: string(te.NewText), StartPos: start.String(), EndPos: end.String()})
				}
				f.Fixes = append(f.Fixes, fx)
			}
			out = append(out, f)
		}
	}
	slices.SortFunc(out, func(a, b Finding) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Offset, b.Offset); c != 0 {
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

// A NotVettedError lists the packages that could not be vetted, each
// with the first error that stopped it, in the order they were found.
type NotVettedError struct {
	pkgs []string
	why  map[string]string
}

func (e *NotVettedError) add(pkg, why string) {
	if e.why == nil {
		e.why = make(map[string]string)
	}
	if _, ok := e.why[pkg]; ok {
		return // another variant of the same package
	}
	e.why[pkg] = why
	e.pkgs = append(e.pkgs, pkg)
}

func (e *NotVettedError) Error() string {
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

// CrossCheck runs the benchmarks of the findings that claim the compiler
// removes or folds work (see package crosscheck) and records the outcome
// in each Finding's Check and Reason. log receives progress.
func CrossCheck(ctx context.Context, findings []Finding, log func(format string, args ...any)) error {
	var idx []int
	var cfs []crosscheck.Finding
	for i, f := range findings {
		if !crosscheck.Checks(f.Analyzer) {
			continue
		}
		cf := crosscheck.Finding{Analyzer: f.Analyzer, Category: f.Category, File: f.File, Offset: f.Offset, Message: f.Message}
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
	opts := crosscheck.DefaultOptions
	opts.Log = log
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

// OnlyConfirmed returns the findings that -run confirmed and the number
// of the others.
func OnlyConfirmed(findings []Finding) ([]Finding, int) {
	var kept []Finding
	for _, f := range findings {
		if f.Check == crosscheck.Confirmed {
			kept = append(kept, f)
		}
	}
	return kept, len(findings) - len(kept)
}

// ApplyFixes applies the first suggested Fix of each Finding, skipping
// fixes whose edits overlap an Edit already taken, and gofmts each file.
// Insertions at the same place (declarations at the end of a file,
// assignments before a loop) are all kept, in the order of the findings.
func ApplyFixes(findings []Finding) (int, error) {
	byFile := make(map[string][]Edit)
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
		slices.SortStableFunc(edits, func(a, b Edit) int { return b.Start - a.Start })
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
