package gen

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/tools/go/packages"
)

// FindOptions says where Find looks for segments.
type FindOptions struct {
	// Dir is the directory the patterns are relative to; "" is the
	// current directory. Positions in errors are relative to it.
	Dir string

	// Patterns are go/packages patterns ("./...", import paths); none
	// means ".".
	Patterns []string

	// AllLoops makes every for and range statement of the packages'
	// non-test files a segment, markers or not (an experiment: how many
	// loops of real code become benchmarks).
	AllLoops bool

	// Env is the environment of the go command; nil means the current
	// one.
	Env []string

	// Tags are the build tags of the go command (go build -tags).
	Tags string
}

// marker is the comment that marks a segment.
const marker = "//mbench:bench"

// loadMode is what Find needs of the packages: syntax and types of the
// packages themselves, types only (from export data) of their
// dependencies.
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedSyntax | packages.NeedTypes |
	packages.NeedTypesInfo | packages.NeedTypesSizes

// Find loads the packages matching opts.Patterns, with their tests, and
// returns their segments, analysed, in the order of package path, file
// and line.
//
// # Markers
//
// A line comment `//mbench:bench NAME` marks the statement that begins
// on the line after the marker's comment group (a simple statement, a
// block, a loop, ... inside any function or function literal), or, in a
// function's doc comment, the whole function. NAME starts with an
// upper-case letter (go test ignores BenchmarkNAME when NAME starts with
// a lower-case one) followed by letters, digits and _. With
// opts.AllLoops, markers are not read: every for and range statement of
// the non-test files, nested loops too, is a segment named
// Loop_FUNC_LINE (Loop_TYPE_METHOD_LINE for a method, Loop_VAR_LINE in
// a function literal of a package-level variable; a suffix _2, _3, ...
// separates loops starting on the same line), whose Pos is the loop's.
//
// These are errors, all returned together (errors.Join), each starting
// with file:line (relative to opts.Dir when the file is inside it): a
// package that does not build (its type errors, test files included), a
// marker without a valid NAME, a marker followed by no statement of a
// function, a marker on a function without a body, a NAME used twice in
// one package, a marker in a _test.go file. When the error is not nil, no segments are returned.
// The generated file of an earlier run (mbench_gen_test.go with the
// generated header) is hidden: its errors and markers are not the user's.
//
// # Inputs and outputs
//
// The inputs of a statement segment are the local variables (parameters,
// receivers and variables of enclosing functions captured by a function
// literal included) declared outside the segment that it reads at a
// point where the segment has not definitely assigned them yet, in order
// of first read. Taking a variable's address reads it. Package-level
// variables and constants are never inputs: the generated code refers
// to them where they are. An output declared outside the segment that
// the segment does not definitely assign on every path to its end (a
// break or continue inside it counts as a path) is an input too, after
// those read: where the segment does not assign it, its value after the
// segment is its value before (ascii := true; a loop setting ascii =
// false for some element).
//
// Its outputs are the variables it assigns (stores to the variable's own
// storage: x = , x += , x++, x.f = for a struct value x, a[i] = for an
// array value a, &x, a method with a pointer receiver called on x) that
// are declared outside it or at its top level (by the statement itself,
// or directly in the block when it is a block), and that are either read
// outside the segment's range anywhere in the function (conservative for
// loops around the segment; a named result always counts as read) or
// read nowhere at all (a result nobody reads; x += and x++ do not count
// as reads of x), in order of first assignment.
//
// Discards are the calls of expression statements that have results,
// the right-hand sides assigned to _, and the calls some of whose
// results are assigned to _.
//
// Globals are the package-level variables of the segment's package it
// reads directly that a function of the package other than init
// assigns, and whose values can be recorded.
//
// A whole-function segment's inputs are its receiver and parameters
// (named "recv" and "p0", "p1", ... when unnamed or _) and its outputs
// are its results (named "r0", "r1", ... when unnamed or _).
//
// # Sinks, mutation, rejection
//
// An output is a sink unless the final value of another sink depends
// (through assignments and the conditions steering them, loops
// included) on every assignment that may have given the output its
// final value: consuming that sink keeps the output's computation
// alive. Outputs are dropped in order of definition, so derived values
// stay sinks (avg = sum / n keeps avg, drops sum and n). All results of a
// whole function are sinks.
//
// An input is Mutated when the segment may change state reachable from
// it: a store through it or through a local variable derived from it
// (x[i] = , p.f = , m[k] = ), or passing it (or a value derived from it
// that holds pointers) to a call that is not known to only read it.
// Known readers are a few builtins (len, cap, ...), a short list of
// standard library functions (bytes.Equal, slices.Contains, ...) and
// types (the methods of regexp.Regexp, time.Time, ...), and
// functions and methods of the segment's own package whose SSA form
// (golang.org/x/tools/go/ssa) never stores through the parameter, passes
// it to a call not known to only read it, or lets it escape. append,
// copy, delete, clear and the sorts of sort and slices change their
// first argument.
//
// A segment gets a Reason, with a Detail naming the construct and its
// position, and no benchmark when, checked in this order:
//   - TypeParam: it is in a generic function or a method of a generic
//     type;
//   - Concurrent: it holds go, defer, select, a channel send, receive or
//     range;
//   - JumpsOut: a variable the program reads after an exit of the
//     segment (a return, except of a whole function, or a break,
//     continue or goto to a statement outside it; see Segment.Exits) is
//     not in scope at the exit; other exits are reported by the payload;
//   - RecoveredPanic: the function around it defers a call of recover,
//     and the segment calls panic or any function, or indexes, slices,
//     asserts, dereferences or divides integers by a variable;
//   - WritesGlobal: it assigns a package-level variable, stores through
//     one (or through a local variable derived from one), or passes one
//     to a call certain to change it: append, copy, delete, clear, a sort
//     of sort or slices, a method with a pointer receiver, a function of
//     the package that does not only read it;
//   - Unrecordable: an input or output is, or reaches through fields
//     (unexported ones included), elements and pointers, a uintptr or
//     unsafe.Pointer (values that mean nothing in another process), or a
//     type of os, net, syscall or os/exec (handles); or is, or holds in
//     its elements, a channel or function (one in a struct's field is
//     left to the recording, which skips the executions where it is not
//     nil); or its type names an unexported type of another
//     package, which the generated code cannot spell. Interfaces are
//     recorded with the dynamic types of their values: Record skips the
//     executions whose inputs hold a type the generated code cannot name,
//     and rejects the segment as Unrecordable only when it skipped every
//     execution.
//
// The segment's inputs and outputs are filled in when it is rejected
// too.
func Find(ctx context.Context, opts FindOptions) ([]*Segment, error) {
	segs, _, err := find(ctx, opts)
	return segs, err
}

// find is Find, also returning the markers in files that the build
// constraints leave out, as "file:line".
func find(ctx context.Context, opts FindOptions) ([]*Segment, []string, error) {
	patterns := opts.Patterns
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	cfg := &packages.Config{
		Context:    ctx,
		Fset:       token.NewFileSet(),
		Mode:       loadMode,
		Dir:        opts.Dir,
		Env:        opts.Env,
		BuildFlags: tagFlags(opts.Tags),
		Tests:      true,
	}
	overlay, excluded, err := hideGenerated(cfg, patterns)
	if err != nil {
		return nil, nil, err
	}
	cfg.Overlay = overlay
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, nil, fmt.Errorf("loading %s: %w", strings.Join(patterns, " "), err)
	}
	f := &finder{dir: opts.Dir, fset: cfg.Fset, seen: map[string]bool{}, files: map[string]bool{}}
	if f.dir == "" {
		f.dir = "."
	}
	if abs, err := filepath.Abs(f.dir); err == nil {
		f.dir = abs
	}
	slices.SortFunc(pkgs, func(a, b *packages.Package) int { return cmp.Compare(a.ID, b.ID) })
	for _, pkg := range pkgs {
		f.packageErrors(pkg)
	}
	f.dropUnplaced()
	for _, pkg := range pkgs {
		f.scan(pkg, opts.AllLoops)
	}
	if len(f.errs) > 0 {
		return nil, nil, f.err()
	}
	slices.SortStableFunc(f.segs, func(a, b *Segment) int {
		return cmp.Or(
			cmp.Compare(a.Pkg.PkgPath, b.Pkg.PkgPath),
			cmp.Compare(a.Pos.Filename, b.Pos.Filename),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Column, b.Pos.Column))
	})
	// The package compiled with its _test.go files, for the types the
	// generated file, one of them, may name.
	tests := map[string]*types.Package{}
	for _, pkg := range pkgs {
		if isTestVariant(pkg) && pkg.Types != nil && !strings.HasSuffix(pkg.PkgPath, ".test") && !strings.HasSuffix(pkg.Name, "_test") {
			tests[pkg.PkgPath] = pkg.Types
		}
	}
	for _, s := range f.segs {
		s.testTypes = tests[s.Pkg.PkgPath]
	}
	cache := &ssaCache{}
	for _, s := range f.segs {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		analyze(s, cache)
	}
	return f.segs, excluded, nil
}

// hideGenerated returns an overlay that empties the generated files of
// the packages the patterns match, leaving their package clause: the file
// of an earlier run is not the user's code. Stale, it may no longer
// compile (a function it calls was renamed), and the payload of a segment
// holding a nested one copies the nested marker; neither may stop the
// regeneration. A file of that name without the generated header stays.
// It also returns the markers in the packages' files that the build
// constraints leave out (excludedMarkers).
func hideGenerated(cfg *packages.Config, patterns []string) (map[string][]byte, []string, error) {
	c := *cfg
	c.Mode, c.Tests, c.Fset = packages.NeedName|packages.NeedFiles, false, nil
	pkgs, err := packages.Load(&c, patterns...)
	if err != nil {
		return nil, nil, fmt.Errorf("loading %s: %w", strings.Join(patterns, " "), err)
	}
	overlay := map[string][]byte{}
	var excluded []string
	for _, p := range pkgs {
		excluded = append(excluded, excludedMarkers(p.IgnoredFiles)...)
		dir := p.Dir
		if dir == "" && len(p.GoFiles) > 0 {
			dir = filepath.Dir(p.GoFiles[0])
		}
		if dir == "" {
			continue
		}
		file := filepath.Join(dir, GeneratedFile)
		src, err := os.ReadFile(file)
		if err != nil || !bytes.HasPrefix(src, []byte(header)) {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, src, parser.PackageClauseOnly)
		if err != nil {
			continue // the type check reports it
		}
		overlay[file] = []byte(header + "\npackage " + f.Name.Name + "\n")
	}
	return overlay, excluded, nil
}

// excludedMarkers returns the markers in files, as "file:line": the
// package's files that the build constraints leave out (go list's
// IgnoredGoFiles). Markers in _test.go files, which are not allowed, and
// in files that do not parse are not looked for.
func excludedMarkers(files []string) []string {
	var out []string
	for _, file := range files {
		if !strings.HasSuffix(file, ".go") || strings.HasSuffix(file, "_test.go") {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, file, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				rest, ok := strings.CutPrefix(c.Text, marker)
				if ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
					p := fset.Position(c.Pos())
					out = append(out, fmt.Sprintf("%s:%d", p.Filename, p.Line))
				}
			}
		}
	}
	return out
}

// A finder collects the segments and errors of the loaded packages.
type finder struct {
	dir   string // absolute; positions are shown relative to it
	fset  *token.FileSet
	segs  []*Segment
	errs  []posError
	seen  map[string]bool // errors already recorded
	files map[string]bool // files already scanned
}

// A posError is an error at a position of a file.
type posError struct {
	file      string
	line, col int
	msg       string
}

// err joins the errors, sorted by position.
func (f *finder) err() error {
	slices.SortFunc(f.errs, func(a, b posError) int {
		return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.line, b.line),
			cmp.Compare(a.col, b.col), cmp.Compare(a.msg, b.msg))
	})
	errs := make([]error, len(f.errs))
	for i, e := range f.errs {
		pos := f.rel(e.file)
		if e.line > 0 {
			pos += ":" + strconv.Itoa(e.line)
		}
		if e.col > 0 {
			pos += ":" + strconv.Itoa(e.col)
		}
		if pos == "" {
			errs[i] = errors.New(e.msg)
		} else {
			errs[i] = errors.New(pos + ": " + e.msg)
		}
	}
	return errors.Join(errs...)
}

// errorf records an error at pos, once.
func (f *finder) errorf(pos token.Position, format string, args ...any) {
	f.add(posError{file: pos.Filename, line: pos.Line, msg: fmt.Sprintf(format, args...)})
}

func (f *finder) add(e posError) {
	key := fmt.Sprintf("%s:%d:%d: %s", e.file, e.line, e.col, e.msg)
	if f.seen[key] {
		return
	}
	f.seen[key] = true
	f.errs = append(f.errs, e)
}

// rel returns file relative to the finder's directory when it is inside
// it.
func (f *finder) rel(file string) string {
	if r, err := filepath.Rel(f.dir, file); err == nil && filepath.IsLocal(r) {
		return r
	}
	return file
}

// packageErrors records the errors of loading or type-checking pkg.
func (f *finder) packageErrors(pkg *packages.Package) {
	for _, e := range pkg.Errors {
		pe := posError{msg: e.Msg}
		// e.Pos is "file:line:col", "file:line", "file" or "".
		parts := strings.Split(e.Pos, ":")
		for len(parts) > 1 {
			n, err := strconv.Atoi(parts[len(parts)-1])
			if err != nil {
				break
			}
			pe.col, pe.line = pe.line, n
			parts = parts[:len(parts)-1]
		}
		if pe.line == 0 {
			pe.line, pe.col = pe.col, 0
		}
		pe.file = strings.Join(parts, ":")
		if pe.file == "-" {
			pe.file = ""
		}
		if pe.file == "" && pkg.PkgPath != "" {
			pe.msg = pkg.PkgPath + ": " + pe.msg
		}
		f.add(pe)
	}
}

// dropUnplaced drops the errors without a position (the go command's
// summary of a failed build: "# pkg" and its errors again) when others
// have one.
func (f *finder) dropUnplaced() {
	placed := slices.DeleteFunc(slices.Clone(f.errs), func(e posError) bool { return e.file == "" })
	if len(placed) > 0 {
		f.errs = placed
	}
}

// isTestVariant reports whether pkg is a package compiled for go test
// (a package with its _test.go files, an external test package, or the
// generated test main) rather than the package itself.
func isTestVariant(pkg *packages.Package) bool {
	return pkg.ID != pkg.PkgPath
}

// scan finds the segments of pkg's non-test files and reports markers
// in its test files.
func (f *finder) scan(pkg *packages.Package, allLoops bool) {
	names := map[string]token.Position{}
	used := map[string]bool{}
	for _, file := range pkg.Syntax {
		name := f.fset.File(file.Pos()).Name()
		isTest := strings.HasSuffix(name, "_test.go")
		if !isTest && isTestVariant(pkg) || f.files[name] {
			continue // a non-test file again in a test variant
		}
		f.files[name] = true
		if isTest {
			if !allLoops {
				f.testMarkers(file)
			}
			continue
		}
		var segs []*Segment
		if allLoops {
			segs = f.loops(pkg, file, used)
		} else {
			segs = f.markers(pkg, file)
		}
		for _, s := range segs {
			if first, dup := names[s.Name]; dup {
				f.errorf(s.Pos, "duplicate NAME %s in package %s, first at %s:%d", s.Name, pkg.PkgPath, f.rel(first.Filename), first.Line)
				continue
			}
			names[s.Name] = s.Pos
			f.segs = append(f.segs, s)
		}
	}
}

// markerName returns the NAME of c, and whether c is a marker at all.
// The NAME is "" after an error, which markerName records.
func (f *finder) markerName(c *ast.Comment) (string, bool) {
	rest, ok := strings.CutPrefix(c.Text, marker)
	if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return "", false
	}
	pos := f.fset.Position(c.Pos())
	fields := strings.Fields(rest)
	switch {
	case len(fields) == 0:
		f.errorf(pos, "%s marker without NAME", marker)
		return "", true
	case len(fields) > 1:
		f.errorf(pos, "%s %s: unexpected %q after NAME", marker, fields[0], strings.Join(fields[1:], " "))
		return "", true
	case !validName(fields[0]):
		f.errorf(pos, "%s %s: NAME must be an upper-case letter followed by letters, digits or _", marker, fields[0])
		return "", true
	}
	return fields[0], true
}

// validName reports whether BenchmarkNAME is a benchmark go test runs.
func validName(name string) bool {
	for i, r := range name {
		switch {
		case i == 0 && (!unicode.IsLetter(r) || unicode.IsLower(r)):
			return false
		case !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_':
			return false
		}
	}
	return name != ""
}

// testMarkers reports the markers of a _test.go file.
func (f *finder) testMarkers(file *ast.File) {
	for _, cg := range file.Comments {
		for _, c := range cg.List {
			if name, ok := f.markerName(c); ok && name != "" {
				f.errorf(f.fset.Position(c.Pos()), "%s %s in a _test.go file: mark code of the package's non-test files", marker, name)
			}
		}
	}
}

// markers returns the segments the markers of file mark.
func (f *finder) markers(pkg *packages.Package, file *ast.File) []*Segment {
	docs := map[*ast.CommentGroup]*ast.FuncDecl{}
	for _, d := range file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Doc != nil {
			docs[fd.Doc] = fd
		}
	}
	var segs []*Segment
	for _, cg := range file.Comments {
		for _, c := range cg.List {
			name, ok := f.markerName(c)
			if !ok || name == "" {
				continue
			}
			pos := f.fset.Position(c.Pos())
			seg := &Segment{Name: name, Pos: pos, Pkg: pkg, File: file}
			if fd := docs[cg]; fd != nil {
				if fd.Body == nil {
					f.errorf(pos, "%s %s: function %s has no body", marker, name, fd.Name.Name)
					continue
				}
				seg.Func, seg.Whole = fd, true
				segs = append(segs, seg)
				continue
			}
			fn, stmt := f.markedStmt(file, cg)
			if stmt == nil {
				f.errorf(pos, "%s %s is not followed by a statement of a function", marker, name)
				continue
			}
			seg.Func, seg.Stmt = fn, stmt
			segs = append(segs, seg)
		}
	}
	return segs
}

// markedStmt returns the statement that starts on the line after cg, in
// the innermost function around cg, and that function.
func (f *finder) markedStmt(file *ast.File, cg *ast.CommentGroup) (ast.Node, ast.Stmt) {
	var fn ast.Node
	var body *ast.BlockStmt
	ast.Inspect(file, func(n ast.Node) bool {
		if n == nil || n.End() <= cg.Pos() || n.Pos() > cg.End() {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Body != nil && n.Body.Lbrace < cg.Pos() {
				fn, body = n, n.Body
			}
		case *ast.FuncLit:
			if n.Body.Lbrace < cg.Pos() {
				fn, body = n, n.Body
			}
		}
		return true
	})
	if body == nil {
		return nil, nil
	}
	line := f.fset.Position(cg.End()).Line + 1
	var found ast.Stmt
	ast.Inspect(body, func(n ast.Node) bool {
		if found != nil || n == nil {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false // statements of a function inside fn's body
		}
		if n.End() <= cg.End() {
			return false
		}
		var list []ast.Stmt
		switch n := n.(type) {
		case *ast.BlockStmt:
			list = n.List
		case *ast.CaseClause:
			list = n.Body
		case *ast.CommClause:
			list = n.Body
		}
		for _, s := range list {
			if s.Pos() > cg.End() && f.fset.Position(s.Pos()).Line == line {
				switch s.(type) {
				case *ast.CaseClause, *ast.CommClause:
				default:
					found = s
					return false
				}
			}
		}
		return true
	})
	return fn, found
}
