package vet

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mbench/mbench/internal/outfile"
	"github.com/mbench/mbench/vet/crosscheck"
	"github.com/mbench/mbench/vet/internal/benchfn"
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
	// Mapped is the file:line a //line directive maps the edit's start
	// to, when it does; such an edit is not applied.
	Mapped string `json:"-"`
}

// Options configure Vet.
type Options struct {
	// Analyzers are the analyzers to run; nil means Analyzers.
	Analyzers []*analysis.Analyzer
	// Run checks the findings by running their benchmarks (CrossCheck).
	Run bool
	// Confirmed keeps only the findings that Run confirmed.
	Confirmed bool
	// Fix applies the first suggested fix of each finding (ApplyFixes).
	Fix bool
	// Log receives the progress of Run; nil discards it.
	Log func(format string, args ...any)
	// Progress, if not nil, is told of each step as it starts, in words
	// for a status line: loading and analysing, then with Run each
	// finding's benchmark as it is built and run.
	Progress func(step string)
}

// A Report is what Vet found and what it checked.
type Report struct {
	Findings []Finding
	// Packages and Benchmarks count the packages vetted and the
	// benchmark functions (BenchmarkXxx) in their test files.
	Packages, Benchmarks int
	// NotVetted names the packages left out, or is nil.
	NotVetted *NotVettedError
	// Unconfirmed counts the findings that Confirmed left out.
	Unconfirmed int
	// Fixed counts the fixes applied, and NotFixed says why others were
	// not.
	Fixed    int
	NotFixed []string
}

// Open returns the number of findings that running did not refute: the
// findings a gate fails on.
func (r *Report) Open() int {
	n := 0
	for _, f := range r.Findings {
		if f.Check != crosscheck.Refuted {
			n++
		}
	}
	return n
}

// Summary returns one line saying how many packages and benchmarks were
// checked and how many findings there are, so that a run without findings
// cannot be mistaken for one that checked nothing.
func (r *Report) Summary() string {
	if r.Packages == 0 {
		return "no packages checked"
	}
	pkgs := plural(r.Packages, "package", "packages")
	if r.Benchmarks == 0 {
		return pkgs + " checked, no benchmarks found"
	}
	line := pkgs + ", " + plural(r.Benchmarks, "benchmark", "benchmarks") + " checked, "
	if len(r.Findings) == 0 {
		return line + "no findings"
	}
	return line + plural(len(r.Findings), "finding", "findings")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Vet loads the packages matched by patterns (default ./...) with their
// tests, runs the analyzers on them and, as opts ask, checks the findings
// by running them and applies their fixes. Packages that do not load are
// named in the Report's NotVetted; a pattern that matches no package is an
// error. If applying the fixes fails, Vet returns the Report with the
// error.
func Vet(ctx context.Context, patterns []string, opts Options) (*Report, error) {
	if opts.Confirmed && !opts.Run {
		return nil, errors.New("Confirmed needs Run")
	}
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	analyzers := opts.Analyzers
	if analyzers == nil {
		analyzers = Analyzers
	}
	if opts.Progress != nil {
		opts.Progress(fmt.Sprintf("loading %s and running %d analyzers", strings.Join(patterns, " "), len(analyzers)))
	}
	r, err := run(analyzers, patterns)
	if err != nil {
		return nil, err
	}
	if r.Packages == 0 && r.NotVetted == nil {
		return nil, fmt.Errorf("no packages matched %s", strings.Join(patterns, " "))
	}
	if opts.Run {
		if err := CrossCheck(ctx, r.Findings, opts); err != nil {
			return nil, err
		}
	}
	if opts.Confirmed {
		r.Findings, r.Unconfirmed = OnlyConfirmed(r.Findings)
	}
	if opts.Fix {
		r.Fixed, r.NotFixed, err = ApplyFixes(r.Findings)
		if err != nil {
			return r, err
		}
	}
	return r, nil
}

// run loads the packages with their tests and runs the analyzers. As
// go vet does, it goes on past packages that do not load or type-check
// (or whose dependencies do not): it reports the findings of the others,
// and names each package left out with its first error.
func run(analyzers []*analysis.Analyzer, patterns []string) (*Report, error) {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Tests: true}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	var roots []*packages.Package
	bad := new(NotVettedError)
	vetted := make(map[string]bool)
	for _, p := range pkgs {
		if strings.HasSuffix(p.ID, ".test") {
			continue // the generated test main
		}
		// A package that does not load is left out; its variants share
		// its errors, so each directory is named once.
		path := strings.TrimSuffix(p.PkgPath, "_test")
		if len(p.Errors) > 0 {
			bad.add(path, loadErr(p.Errors[0]))
			continue
		}
		vetted[path] = true
		// Benchmarks live in test files: the test variants ("p [p.test]",
		// "p_test") hold them; the plain package adds nothing.
		if len(pkgs) > 1 && !strings.Contains(p.ID, "[") && !strings.HasSuffix(p.PkgPath, "_test") {
			continue
		}
		roots = append(roots, p)
	}
	graph, err := checker.Analyze(analyzers, roots, nil)
	if err != nil {
		return nil, err
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
		for _, d := range act.Diagnostics {
			f := finding(act.Package.Fset, act.Analyzer.Name, d)
			key := f.Analyzer + f.Pos + f.Message
			if seen[key] {
				continue // the same test file in two package variants
			}
			seen[key] = true
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
	r := &Report{Findings: out}
	benchmarks := make(map[token.Position]bool)
	for _, p := range roots {
		if bad.why[strings.TrimSuffix(p.PkgPath, "_test")] != "" {
			continue
		}
		for _, pos := range benchmarkFuncs(p) {
			benchmarks[pos] = true
		}
	}
	for path := range vetted {
		if bad.why[path] == "" {
			r.Packages++
		}
	}
	r.Benchmarks = len(benchmarks)
	if len(bad.pkgs) > 0 {
		r.NotVetted = bad
	}
	return r, nil
}

// finding converts a diagnostic of the analyzer into a Finding. Pos and
// the edits' StartPos and EndPos are as the compiler reports them, after
// //line directives; File and the offsets are where the bytes are.
func finding(fset *token.FileSet, analyzer string, d analysis.Diagnostic) Finding {
	pos := fset.Position(d.Pos)
	at := fset.PositionFor(d.Pos, false)
	f := Finding{Analyzer: analyzer, Pos: pos.String(), Message: d.Message, Category: d.Category,
		File: at.Filename, Offset: at.Offset}
	for _, sf := range d.SuggestedFixes {
		fx := Fix{Message: sf.Message}
		for _, te := range sf.TextEdits {
			endPos := te.End
			if !endPos.IsValid() {
				endPos = te.Pos
			}
			start, end := fset.PositionFor(te.Pos, false), fset.PositionFor(endPos, false)
			mstart, mend := fset.Position(te.Pos), fset.Position(endPos)
			e := Edit{File: start.Filename, Start: start.Offset, End: end.Offset,
				New: string(te.NewText), StartPos: mstart.String(), EndPos: mend.String()}
			if mstart.Filename != start.Filename || mstart.Line != start.Line {
				e.Mapped = mstart.Filename + ":" + strconv.Itoa(mstart.Line)
			}
			fx.Edits = append(fx.Edits, e)
		}
		f.Fixes = append(f.Fixes, fx)
	}
	return f
}

// benchmarkFuncs returns the positions of the benchmark functions of p's
// test files: func BenchmarkXxx(b *testing.B), as go test finds them.
func benchmarkFuncs(p *packages.Package) []token.Position {
	var out []token.Position
	for _, f := range p.Syntax {
		name := p.Fset.PositionFor(f.Pos(), false).Filename
		if !strings.HasSuffix(name, "_test.go") {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || !isBenchmarkName(fd.Name.Name) {
				continue
			}
			obj, ok := p.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			sig := obj.Signature()
			if sig.Params().Len() == 1 && sig.Results().Len() == 0 && benchfn.IsTestingB(sig.Params().At(0).Type()) {
				out = append(out, p.Fset.PositionFor(fd.Pos(), false))
			}
		}
	}
	return out
}

// isBenchmarkName reports whether name is Benchmark or Benchmark followed
// by a character that is not a lower-case letter, the names go test runs.
func isBenchmarkName(name string) bool {
	rest, ok := strings.CutPrefix(name, "Benchmark")
	if !ok {
		return false
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return rest == "" || !unicode.IsLower(r)
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
// in each Finding's Check and Reason. It tells opts.Log and
// opts.Progress what it does; the other options do not apply.
func CrossCheck(ctx context.Context, findings []Finding, opts Options) error {
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
	co := crosscheck.DefaultOptions
	co.Log, co.Progress = opts.Log, opts.Progress
	verdicts, err := crosscheck.Check(ctx, cfs, co)
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
//
// A fix that edits code a //line directive maps elsewhere (generated
// code) is not applied: notFixed says so, naming the file. An edit
// outside its file or overlapping another edit of its fix is an error,
// and then no file is changed. Each file is replaced at once: written to
// a temporary file in its directory, with its mode, and renamed over it.
func ApplyFixes(findings []Finding) (applied int, notFixed []string, err error) {
	byFile := make(map[string][]Edit)
	for _, f := range findings {
		if len(f.Fixes) == 0 {
			continue
		}
		edits := f.Fixes[0].Edits
		if m := mappedEdit(edits); m != nil {
			notFixed = append(notFixed, fmt.Sprintf("%s: not fixed: the fix of %s edits code that a //line directive maps to %s",
				m.File, f.Pos, m.Mapped))
			continue
		}
		if err := overlapping(edits); err != nil {
			return 0, nil, fmt.Errorf("the fix of %s: %v", f.Pos, err)
		}
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
	// Check every file before writing any.
	files := slices.Sorted(maps.Keys(byFile))
	srcs := make([][]byte, len(files))
	for i, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			return 0, nil, err
		}
		for _, e := range byFile[file] {
			if e.Start < 0 || e.Start > e.End || e.End > len(src) {
				return 0, nil, fmt.Errorf("%s: an edit of bytes %d to %d lies outside the file's %d bytes (did it change after vet loaded it?); no file changed",
					file, e.Start, e.End, len(src))
			}
		}
		srcs[i] = src
	}
	for i, file := range files {
		src, edits := srcs[i], byFile[file]
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
		if err := outfile.WriteFile(file, src); err != nil {
			return 0, nil, err
		}
	}
	return applied, notFixed, nil
}

// mappedEdit returns the first edit that a //line directive maps, or nil.
func mappedEdit(edits []Edit) *Edit {
	for i := range edits {
		if edits[i].Mapped != "" {
			return &edits[i]
		}
	}
	return nil
}

// overlapping returns an error if two edits of one fix overlap: the fix
// would not say what the file becomes.
func overlapping(edits []Edit) error {
	for i, a := range edits {
		for _, b := range edits[:i] {
			if a.File == b.File && a.Start < b.End && b.Start < a.End {
				return fmt.Errorf("%s: edits of bytes %d to %d and %d to %d overlap", a.File, b.Start, b.End, a.Start, a.End)
			}
		}
	}
	return nil
}

// WriteFindings writes r's findings to w, one line each with how running
// the benchmark decided it, or as an indented JSON array when asJSON is set.
func (r *Report) WriteFindings(w io.Writer, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if r.Findings == nil {
			return enc.Encode([]Finding{})
		}
		return enc.Encode(r.Findings)
	}
	for _, f := range r.Findings {
		fmt.Fprintf(w, "%s: [%s] %s\n", f.Pos, f.Analyzer, f.Message)
		if f.Check != "" {
			fmt.Fprintf(w, "\t%s by running it: %s\n", f.Check, f.Reason)
		}
	}
	return nil
}
