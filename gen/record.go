package gen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mbench/mbench/gen/internal/codec"
	"github.com/mbench/mbench/internal/outfile"
	"github.com/mbench/mbench/internal/proc"
)

// DefaultMaxInputs is how many distinct input sets Record keeps per
// segment when RecordOptions.MaxInputs is 0.
const DefaultMaxInputs = 5

// maxCalls bounds how many executions of a segment the recording code
// examines for distinct inputs: a segment the tests run a million times on
// the same inputs must not make them encode those inputs a million times.
const maxCalls = 1000

// RecordOptions says how Record runs the packages' tests.
type RecordOptions struct {
	// MaxInputs is how many distinct input sets to keep per segment;
	// 0 means DefaultMaxInputs.
	MaxInputs int

	// Env is the environment of the go command; nil means the current
	// one.
	Env []string

	// Timeout bounds each package's tests (go test -timeout); 0 means
	// go test's default.
	Timeout time.Duration

	// Tags are the build tags of go test, as Find was given them.
	Tags string

	// Log, when not nil, receives the output of go test as it runs.
	Log io.Writer

	// Stage, when not empty, is a directory where Record writes the
	// recorded files instead of the packages' testdata/mbench: under
	// Stage/ID, for the package ID (stagedDir), for the caller to move
	// into place once the generated code is checked.
	Stage string
}

// A TestsFailed error reports a package whose tests failed while Record
// ran them. The input sets recorded before the failure are kept.
type TestsFailed struct {
	Pkg    string // import path
	Output string // the end of go test's output
}

func (e *TestsFailed) Error() string {
	return fmt.Sprintf("%s: tests failed while recording inputs; kept the sets recorded before the failure:\n%s", e.Pkg, e.Output)
}

// Record runs the tests of the packages holding the accepted segments of
// segs, recording the segments' inputs and outputs, after AutoJMH's
// retrieval of inputs for the payload (Rodriguez-Cancio, Combemale &
// Baudry, "Automatic Microbenchmark Generation to Prevent Dead Code
// Elimination and Constant Folding", ASE 2016, §3.6).
//
// The user's files are never modified: each package is instrumented
// through go test -overlay. The overlay replaces each file holding a
// segment with a copy where the segment is surrounded by calls of the
// recording code (on the same lines, so that positions in test failures
// stay right): a statement segment gets a call before it, which encodes
// its inputs, and one after it, which encodes its outputs and the
// inputs it mutates, and each of its exits a call that records how it
// left (with the mutated inputs and the values returned, for a return);
// a whole function gets a call on entry and a
// deferred one on return (its unnamed results and parameters are named
// for it). The overlay adds mbench_record.go, the recording code (the
// codec, standard library only, every name starting with mbenchRec), and
// hides an existing mbench_gen_test.go. The tests run once (go test
// -count=1 -run . -bench ^$); each segment keeps the first
// opts.MaxInputs sets of distinct inputs, each written as soon as the
// execution ends, so a crash keeps what was recorded before.
//
// A variable of interface type is recorded with the dynamic type of its
// value (null when nil). An execution holding a value that cannot be
// recorded (a func) is skipped, without taking the place of another set,
// and counted; so is, when the sets are collected, one whose inputs hold
// in an interface a type the generated code cannot name (errors.New's).
//
// Record then writes testdata/mbench/NAME.json in each package's
// directory (when its content changed), sets each segment's Sets and
// Skipped, and gives Reason NotReached to a segment no test completed, or
// Unrecordable to one every execution of which was skipped. A package whose tests fail
// yields what was recorded and a *TestsFailed among the returned errors
// (errors.Join); a package whose instrumented code does not build, or
// whose files changed since they were loaded, is an error and its
// segments keep their reasons.
func Record(ctx context.Context, segs []*Segment, opts RecordOptions) error {
	if opts.MaxInputs == 0 {
		opts.MaxInputs = DefaultMaxInputs
	}
	if opts.MaxInputs < 0 {
		return fmt.Errorf("max inputs %d: want at least 1", opts.MaxInputs)
	}
	byPkg := map[string][]*Segment{}
	var dirs []string
	for _, s := range segs {
		if s.Reason != Accepted {
			continue
		}
		dir := filepath.Dir(s.Pkg.Fset.File(s.Func.Pos()).Name())
		if byPkg[dir] == nil {
			dirs = append(dirs, dir)
		}
		byPkg[dir] = append(byPkg[dir], s)
	}
	sort.Strings(dirs)
	var errs []error
	for _, dir := range dirs {
		if err := recordPackage(ctx, dir, byPkg[dir], opts); err != nil {
			errs = append(errs, err)
		}
		if ctx.Err() != nil {
			break
		}
	}
	return errors.Join(errs...)
}

// recordPackage records the segments of the package in dir.
func recordPackage(ctx context.Context, dir string, segs []*Segment, opts RecordOptions) error {
	pkg := segs[0].Pkg
	tmp, err := os.MkdirTemp("", "mbench-record-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	overlay, err := instrument(dir, tmp, segs, opts.MaxInputs)
	if err != nil {
		return fmt.Errorf("%s: %v", pkg.PkgPath, err)
	}
	overlayFile := filepath.Join(tmp, "overlay.json")
	data, err := json.Marshal(struct{ Replace map[string]string }{overlay})
	if err != nil {
		return err
	}
	if err := os.WriteFile(overlayFile, data, 0o666); err != nil {
		return err
	}

	setsDir := filepath.Join(tmp, "sets")
	args := append([]string{"test", "-count=1", "-run", ".", "-bench", "^$", "-overlay", overlayFile}, tagFlags(opts.Tags)...)
	if opts.Timeout > 0 {
		args = append(args, "-timeout", opts.Timeout.String())
	}
	args = append(args, ".")
	cmd := proc.Command(ctx, "go", args...)
	cmd.Dir = dir
	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	env, err = scratchEnv(env, tmp)
	if err != nil {
		return err
	}
	cmd.Env = append(env, codec.RecordDirEnv+"="+setsDir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if opts.Log != nil {
		cmd.Stdout = io.MultiWriter(&out, opts.Log)
		cmd.Stderr = cmd.Stdout
	}
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var failed error
	if runErr != nil {
		var exit *exec.ExitError
		if !errors.As(runErr, &exit) {
			return fmt.Errorf("%s: cannot run go test: %v", pkg.PkgPath, runErr)
		}
		text := out.String()
		if !testsRan(text, pkg.PkgPath) {
			return fmt.Errorf("%s: go test did not run the tests of the package instrumented for recording: %v\n%s", pkg.PkgPath, runErr, tail(text, 40))
		}
		failed = &TestsFailed{Pkg: pkg.PkgPath, Output: tail(text, 40)}
	}
	for i, s := range segs {
		out := filepath.Join(dir, "testdata", "mbench")
		if opts.Stage != "" {
			out = stagedDir(opts.Stage, s.Pkg.ID)
		}
		if err := collect(out, setsDir, i, s, opts.MaxInputs); err != nil {
			return errors.Join(failed, err)
		}
	}
	return failed
}

// scratchEnv returns env with the temporary directories of the go command
// and of the tests it runs inside tmp, which the caller removes: killed
// when its context is cancelled, the go command cannot remove its build
// directory, nor the tests their t.TempDir.
func scratchEnv(env []string, tmp string) ([]string, error) {
	dir := filepath.Join(tmp, "tmp")
	if err := os.Mkdir(dir, 0o777); err != nil {
		return nil, err
	}
	return append(env[:len(env):len(env)], "TMPDIR="+dir, "GOTMPDIR="+dir), nil
}

// testsRan reports whether go test's output says the test binary of
// package path ran (passing, failing or crashing), rather than the
// package failing to build or the go command failing to start.
func testsRan(output, path string) bool {
	for _, line := range strings.Split(output, "\n") {
		for _, prefix := range []string{"ok  \t", "FAIL\t"} {
			rest, ok := strings.CutPrefix(line, prefix+path+"\t")
			if ok && !strings.Contains(rest, "[") {
				return true
			}
		}
	}
	return false
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"..."}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// recordDirName is the directory under the sets directory where segment i
// of a package is recorded.
func recordDirName(i int, s *Segment) string {
	return strconv.Itoa(i) + "-" + s.Name
}

// stagedDir is the directory under stage where Record writes the recorded
// files of the package with ID id.
func stagedDir(stage, id string) string {
	return filepath.Join(stage, url.PathEscape(id))
}

// collect reads the sets the recording code wrote for segment i, writes
// NAME.json in out (testdata/mbench, or a staging directory) and sets
// s.Sets and, when none was recorded, s.Reason.
func collect(out, setsDir string, i int, s *Segment, max int) error {
	recDir := filepath.Join(setsDir, recordDirName(i, s))
	_, err := os.Stat(filepath.Join(recDir, "reached"))
	reached := err == nil
	problem, _ := os.ReadFile(filepath.Join(recDir, "error"))
	skipped, _ := os.ReadFile(filepath.Join(recDir, "skipped"))
	s.Skipped, _ = strconv.Atoi(string(skipped))
	entries, _ := os.ReadDir(recDir)
	type numbered struct {
		n    int
		name string
	}
	var files []numbered
	for _, e := range entries {
		num, ok := strings.CutPrefix(e.Name(), "set-")
		num, ok2 := strings.CutSuffix(num, ".json")
		if n, err := strconv.Atoi(num); ok && ok2 && err == nil {
			files = append(files, numbered{n, e.Name()})
		}
	}
	sort.Slice(files, func(a, b int) bool { return files[a].n < files[b].n })

	ins, outs := recordedVars(s)
	f := codec.File{Segment: s.Name, Package: s.Pkg.PkgPath}
	for _, file := range files {
		data, err := os.ReadFile(filepath.Join(recDir, file.name))
		if err != nil {
			return err
		}
		var raw struct {
			Exit            int
			Inputs, Outputs []json.RawMessage
		}
		err = json.Unmarshal(data, &raw)
		if err == nil && (raw.Exit < 0 || raw.Exit > len(s.Exits)) {
			err = fmt.Errorf("exit %d of %d", raw.Exit, len(s.Exits))
		}
		outs := exitVars(s, raw.Exit, outs)
		if err != nil || len(raw.Inputs) != len(ins) || len(raw.Outputs) != len(outs) {
			return fmt.Errorf("%s: recorded set %s is malformed (%v)", s.Pos, file.name, err)
		}
		// An input holding a value whose type the generated code
		// cannot name cannot be rebuilt: the set is skipped.
		leaves, why := rebuildable(s.Pkg.Types, s.testTypes, raw.Inputs)
		if why != "" {
			s.Skipped++
			if len(problem) == 0 {
				problem = []byte("rebuild: " + why)
			}
			continue
		}
		if len(f.Sets) == max {
			continue
		}
		for _, l := range leaves {
			if !slices.Contains(s.registry, l) {
				s.registry = append(s.registry, l)
			}
		}
		set := codec.Set{Exit: raw.Exit, Inputs: []codec.Var{}, Outputs: []codec.Var{}}
		for j, v := range ins {
			set.Inputs = append(set.Inputs, codec.Var{Name: v.Name, Type: typeString(s, v.Type), Value: raw.Inputs[j]})
		}
		for j, v := range outs {
			set.Outputs = append(set.Outputs, codec.Var{Name: v.Name, Type: typeString(s, v.Type), Value: raw.Outputs[j]})
		}
		f.Sets = append(f.Sets, set)
	}
	s.Sets = len(f.Sets)
	if s.Sets == 0 {
		switch {
		case len(problem) > 0:
			s.Reason, s.Detail = Unrecordable, skippedDetail(s, string(problem))
		case reached:
			s.Reason, s.Detail = NotReached, "reached, but no execution of it completed"
		default:
			s.Reason = NotReached
		}
		return nil
	}
	data, err := f.Marshal()
	if err != nil {
		return err
	}
	name := filepath.Join(out, s.Name+".json")
	if old, err := os.ReadFile(name); err == nil && bytes.Equal(old, data) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
		return err
	}
	return outfile.WriteFile(name, data)
}

// skippedDetail says why no execution of s could be recorded: problem is
// the recorder's first ("output 1: ...", numbering the values of
// recordedVars from 0).
func skippedDetail(s *Segment, problem string) string {
	if why, ok := strings.CutPrefix(problem, "rebuild: "); ok {
		return fmt.Sprintf("no execution the tests made (%d) can be rebuilt: an input holds a value of type %s", s.Skipped, why)
	}
	where, msg, _ := strings.Cut(problem, ": ")
	kind, num, _ := strings.Cut(where, " ")
	i, err := strconv.Atoi(num)
	ins, outs := recordedVars(s)
	vars := outs
	if kind == "input" {
		vars = ins
	}
	if err != nil || kind != "input" && kind != "output" || i < 0 || i >= len(vars) {
		return "while recording: " + problem
	}
	v := vars[i]
	return fmt.Sprintf("no execution the tests made (%d) could be recorded: %s %s: %s", s.Skipped, kind, v.Name, msg)
}

// recordedVars returns the variables recorded before and after segment s:
// its inputs followed by the package-level variables it reads (named
// "pkg.name": globalVars), and its outputs followed by the inputs it
// mutates (unless an output has the same name).
func recordedVars(s *Segment) (ins, outs []Var) {
	outs = append(outs, s.Outputs...)
	for _, v := range s.Inputs {
		if v.Mutated && !hasVar(outs, v.Name) {
			outs = append(outs, v)
		}
	}
	return append(slices.Clone(s.Inputs), globalVars(s)...), outs
}

// globalVars returns s.Globals as recorded, named "pkg.name" after the
// package's name, which no local variable's name can be.
func globalVars(s *Segment) []Var {
	var vars []Var
	for _, v := range s.Globals {
		v.Name = s.Pkg.Types.Name() + "." + v.Name
		vars = append(vars, v)
	}
	return vars
}

// beginArgs returns the arguments of Begin for s: its inputs, then the
// package-level variables it reads, by name; names, when not nil, name
// the inputs.
func beginArgs(s *Segment, names []string) string {
	vars := append(slices.Clone(s.Inputs), s.Globals...)
	if names != nil || len(s.Globals) > 0 {
		if names == nil {
			for _, v := range s.Inputs {
				names = append(names, v.Name)
			}
		}
		names = slices.Clone(names)
		for _, v := range s.Globals {
			names = append(names, v.Name)
		}
	}
	return recArgs(vars, names)
}

// exitVars returns the variables recorded after segment s left by exit
// code: outs, those after its end, unless the exit returns, when they are
// the inputs it mutates and the values returned.
func exitVars(s *Segment, code int, outs []Var) []Var {
	if code < 1 || code > len(s.Exits) || !s.Exits[code-1].Returns() {
		return outs
	}
	var vars []Var
	for _, v := range s.Inputs {
		if v.Mutated {
			vars = append(vars, v)
		}
	}
	return append(vars, s.Returns...)
}

func hasVar(vars []Var, name string) bool {
	for _, v := range vars {
		if v.Name == name {
			return true
		}
	}
	return false
}

// typeString spells t as the package holding s does.
func typeString(s *Segment, t types.Type) string {
	return types.TypeString(t, types.RelativeTo(s.Pkg.Types))
}

// instrument writes the instrumented files of the package in dir into tmp
// and returns the overlay's replacements.
func instrument(dir, tmp string, segs []*Segment, maxInputs int) (map[string]string, error) {
	overlay := map[string]string{}
	recFile := filepath.Join(dir, "mbench_record.go")
	if _, err := os.Stat(recFile); err == nil {
		return nil, fmt.Errorf("%s exists: mbench needs the name for its recording code", recFile)
	}
	if gen := filepath.Join(dir, "mbench_gen_test.go"); fileExists(gen) {
		overlay[gen] = ""
	}

	byFile := map[string][]int{}
	var files []string
	for i, s := range segs {
		name := s.Pkg.Fset.File(s.Func.Pos()).Name()
		if byFile[name] == nil {
			files = append(files, name)
		}
		byFile[name] = append(byFile[name], i)
	}
	sort.Strings(files)
	for k, name := range files {
		src, err := instrumentFile(name, segs, byFile[name])
		if err != nil {
			return nil, err
		}
		out := filepath.Join(tmp, fmt.Sprintf("%d-%s", k, filepath.Base(name)))
		if err := os.WriteFile(out, src, 0o666); err != nil {
			return nil, err
		}
		overlay[name] = out
	}

	src, err := recorderSource(segs[0].Pkg.Name, segs, maxInputs)
	if err != nil {
		return nil, err
	}
	out := filepath.Join(tmp, "mbench_record.go")
	if err := os.WriteFile(out, src, 0o666); err != nil {
		return nil, err
	}
	overlay[recFile] = out
	return overlay, nil
}

func fileExists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

// recorderSource returns mbench_record.go for package pkgName: the codec's
// recording code and one recorder per segment.
func recorderSource(pkgName string, segs []*Segment, maxInputs int) ([]byte, error) {
	// The recording code needs neither the loading nor the writing of
	// recorded files.
	src, err := renameCodec("mbenchRec", []string{"load.go", "file.go", "marshal.go"}, func(_, name string) string { return "mbenchRec" + name })
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("// Code generated by mbench gen to record inputs while the tests run; it\n")
	b.WriteString("// exists only in the overlay of one go test run. DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "package %s\n\nimport (\n", pkgName)
	for _, p := range src.imports {
		fmt.Fprintf(&b, "\t%s %q\n", src.aliases[p], p)
	}
	b.WriteString(")\n\n")
	b.WriteString("var mbenchRecSegments = [...]*mbenchRecRecorder{\n")
	for i, s := range segs {
		fmt.Fprintf(&b, "\t{Name: %q, Max: %d, MaxCalls: %d},\n", recordDirName(i, s), maxInputs, maxCalls)
	}
	b.WriteString("}\n\n")
	b.WriteString(src.decls)
	return b.Bytes(), nil
}

// A recEdit inserts text at a byte offset of a file, or replaces the bytes
// up to end. Edits at one offset apply in the order of their rank: a
// segment's start (0), its exits (1), its end (2).
type recEdit struct {
	off, end int
	text     string
	rank     int
}

// instrumentFile returns the source of file name with the segments idx of
// segs instrumented.
func instrumentFile(name string, segs []*Segment, idx []int) ([]byte, error) {
	src, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	tf := segs[idx[0]].Pkg.Fset.File(segs[idx[0]].Func.Pos())
	if tf.Size() != len(src) {
		return nil, fmt.Errorf("%s changed since it was loaded", name)
	}
	off := func(p token.Pos) int { return tf.Offset(p) }
	var edits []recEdit
	insert := func(p token.Pos, text string, rank int) {
		edits = append(edits, recEdit{off(p), off(p), text, rank})
	}
	for _, i := range idx {
		s := segs[i]
		call := fmt.Sprintf("mbenchRecC%d", i)
		if s.Whole {
			e, err := wholeEdits(s, i, call, off)
			if err != nil {
				return nil, err
			}
			edits = append(edits, e...)
			continue
		}
		body := funcBody(s.Func)
		_, outs := recordedVars(s)
		insert(body.Lbrace+1, fmt.Sprintf(" var %s mbenchRecCall;", call), 0)
		insert(s.Stmt.Pos(), fmt.Sprintf("if mbenchRecSegments[%d].Active() { %s = mbenchRecSegments[%d].Begin(%s) }; ", i, call, i, beginArgs(s, nil)), 0)
		end := fmt.Sprintf("if %s.Recording() { %s.End(%s) }", call, call, recArgs(outs, nil))
		// A block's outputs may be declared in it: then end it inside.
		// A statement that never ends (for {} left by returns) has no
		// end to record, and a call after it would end the function
		// with a statement that is not terminating.
		if terminating(s.Stmt, nil) {
			continue
		}
		if b, ok := unlabel(s.Stmt).(*ast.BlockStmt); ok && declaredIn(outs, b) {
			insert(b.Rbrace, end+"; ", 2)
		} else {
			insert(s.Stmt.End(), "; "+end, 2)
		}
	}
	exits, err := exitEdits(src, segs, idx, off)
	if err != nil {
		return nil, err
	}
	edits = append(edits, exits...)
	sort.SliceStable(edits, func(a, b int) bool {
		if edits[a].off != edits[b].off {
			return edits[a].off < edits[b].off
		}
		return edits[a].rank < edits[b].rank
	})
	var out bytes.Buffer
	pos := 0
	for _, e := range edits {
		if e.off < pos {
			return nil, fmt.Errorf("%s: overlapping instrumentation at offset %d", name, e.off)
		}
		out.Write(src[pos:e.off])
		out.WriteString(e.text)
		pos = e.end
	}
	out.Write(src[pos:])
	if _, err := parser.ParseFile(token.NewFileSet(), name, out.Bytes(), parser.SkipObjectResolution); err != nil {
		return nil, fmt.Errorf("instrumenting %s: %v", name, err)
	}
	return out.Bytes(), nil
}

// exitEdits records the exits of the segments idx of segs, in the file
// whose source is src: each exit statement gets the calls that end the
// executions of the segments it leaves (one statement may leave nested
// segments), with the exit's code, before it runs. A return's values are
// first put into temporaries of the function's result types (spelled
// as the file spells them), recorded, and returned.
func exitEdits(src []byte, segs []*Segment, idx []int, off func(token.Pos) int) ([]recEdit, error) {
	type leave struct {
		seg, code int
	}
	byStmt := map[ast.Stmt][]leave{}
	var stmts []ast.Stmt
	for _, i := range idx {
		for k, x := range segs[i].Exits {
			if byStmt[x.Stmt] == nil {
				stmts = append(stmts, x.Stmt)
			}
			byStmt[x.Stmt] = append(byStmt[x.Stmt], leave{i, k + 1})
		}
	}
	var edits []recEdit
	for _, st := range stmts {
		leaves := byStmt[st]
		first := segs[leaves[0].seg]
		calls := func(rets []string) string {
			var b strings.Builder
			for _, l := range leaves {
				s := segs[l.seg]
				call := fmt.Sprintf("mbenchRecC%d", l.seg)
				var args string
				if rets != nil {
					var mutated []Var
					var names []string
					for _, v := range s.Inputs {
						if v.Mutated {
							mutated, names = append(mutated, v), append(names, v.Name)
						}
					}
					args = recArgs(append(mutated, s.Returns...), append(names, rets...))
				} else {
					_, outs := recordedVars(s)
					args = recArgs(outs, nil)
				}
				if args != "" {
					args = ", " + args
				}
				fmt.Fprintf(&b, "if %s.Recording() { %s.Exit(%d%s) }; ", call, call, l.code, args)
			}
			return b.String()
		}
		switch st := st.(type) {
		case *ast.BranchStmt:
			edits = append(edits, recEdit{off(st.Pos()), off(st.End()), "{ " + calls(nil) + string(src[off(st.Pos()):off(st.End())]) + " }", 1})
		case *ast.ReturnStmt:
			types, err := resultTypes(src, first.Func, off)
			if err != nil {
				return nil, err
			}
			var decls strings.Builder
			rets := make([]string, len(types))
			for k, t := range types {
				rets[k] = fmt.Sprintf("mbenchRecR%d", k)
				fmt.Fprintf(&decls, "var %s %s; ", rets[k], t)
			}
			if rets == nil {
				rets = []string{}
			}
			list := strings.Join(rets, ", ")
			if len(st.Results) > 0 {
				edits = append(edits,
					recEdit{off(st.Pos()), off(st.Results[0].Pos()), "{ " + decls.String() + list + " = ", 1},
					recEdit{off(st.End()), off(st.End()), "; " + calls(rets) + "return " + list + " }", 1})
				continue
			}
			// A bare return: the named results.
			text := "{ " + decls.String()
			var to, from []string
			for k, name := range namedResults(first.Pkg.TypesInfo, first.Func) {
				if name != "_" {
					to, from = append(to, rets[k]), append(from, name)
				}
			}
			if len(to) > 0 {
				text += strings.Join(to, ", ") + " = " + strings.Join(from, ", ") + "; "
			}
			edits = append(edits, recEdit{off(st.Pos()), off(st.End()), text + calls(rets) + "return }", 1})
		}
	}
	return edits, nil
}

// resultTypes returns the source text of the result types of fn, one per
// result.
func resultTypes(src []byte, fn ast.Node, off func(token.Pos) int) ([]string, error) {
	var ft *ast.FuncType
	switch f := fn.(type) {
	case *ast.FuncDecl:
		ft = f.Type
	case *ast.FuncLit:
		ft = f.Type
	}
	if ft == nil {
		return nil, fmt.Errorf("no function around a return")
	}
	var out []string
	if ft.Results == nil {
		return nil, nil
	}
	for _, f := range ft.Results.List {
		t := string(src[off(f.Type.Pos()):off(f.Type.End())])
		for range max(1, len(f.Names)) {
			out = append(out, t)
		}
	}
	return out, nil
}

// terminating reports whether s is a terminating statement (The Go
// Programming Language Specification, "Terminating statements"): control
// never flows past it. label is the label of s, when it has one.
func terminating(s ast.Stmt, label *ast.Ident) bool {
	switch s := s.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return s.Tok == token.GOTO || s.Tok == token.FALLTHROUGH
	case *ast.ExprStmt:
		if call, ok := s.X.(*ast.CallExpr); ok {
			id, ok := ast.Unparen(call.Fun).(*ast.Ident)
			return ok && id.Name == "panic"
		}
	case *ast.BlockStmt:
		return len(s.List) > 0 && terminating(s.List[len(s.List)-1], nil)
	case *ast.LabeledStmt:
		return terminating(s.Stmt, s.Label)
	case *ast.IfStmt:
		return s.Else != nil && terminating(s.Body, nil) && terminating(s.Else, nil)
	case *ast.ForStmt:
		return s.Cond == nil && !breaks(s.Body, label)
	case *ast.SwitchStmt:
		return clausesTerminate(s.Body, label)
	case *ast.TypeSwitchStmt:
		return clausesTerminate(s.Body, label)
	case *ast.SelectStmt:
		return clausesTerminate(s.Body, label)
	}
	return false
}

// clausesTerminate reports whether a switch or select whose clauses are
// body terminates: it has a default (a select need not), no break leaves
// it, and every clause ends in a terminating statement.
func clausesTerminate(body *ast.BlockStmt, label *ast.Ident) bool {
	hasDefault := false
	for _, c := range body.List {
		var list []ast.Stmt
		switch c := c.(type) {
		case *ast.CaseClause:
			list, hasDefault = c.Body, hasDefault || c.List == nil
		case *ast.CommClause:
			list, hasDefault = c.Body, true
		}
		if len(list) == 0 || !terminating(list[len(list)-1], nil) {
			return false
		}
		for _, st := range list {
			if breaks(st, label) {
				return false
			}
		}
	}
	return hasDefault
}

// breaks reports whether n holds a break of the statement around it: an
// unlabelled one outside nested loops, switches and selects, or one to
// label.
func breaks(n ast.Node, label *ast.Ident) bool {
	found := false
	var walk func(n ast.Node, nested bool)
	walk = func(n ast.Node, nested bool) {
		ast.Inspect(n, func(c ast.Node) bool {
			if found || c == nil {
				return false
			}
			switch c := c.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if c != n {
					walk(c, true)
					return false
				}
			case *ast.BranchStmt:
				if c.Tok == token.BREAK && (c.Label == nil && !nested || c.Label != nil && label != nil && c.Label.Name == label.Name) {
					found = true
				}
			}
			return true
		})
	}
	walk(n, false)
	return found
}

// declaredIn reports whether one of vars is declared inside b.
func declaredIn(vars []Var, b *ast.BlockStmt) bool {
	for _, v := range vars {
		if v.Obj != nil && b.Pos() < v.Obj.Pos() && v.Obj.Pos() < b.End() {
			return true
		}
	}
	return false
}

// unlabel returns the statement s labels, or s.
func unlabel(s ast.Stmt) ast.Stmt {
	for {
		l, ok := s.(*ast.LabeledStmt)
		if !ok {
			return s
		}
		s = l.Stmt
	}
}

func funcBody(fn ast.Node) *ast.BlockStmt {
	if lit, ok := fn.(*ast.FuncLit); ok {
		return lit.Body
	}
	return fn.(*ast.FuncDecl).Body
}

// recArgs returns the arguments of Begin or End for vars: each variable,
// named names[i] when names is not nil, or, for a variable of interface
// type, mbenchRecRef{&name}, so that the recorder encodes it as an
// interface, not as the dynamic value it holds.
func recArgs(vars []Var, names []string) string {
	args := make([]string, len(vars))
	for i, v := range vars {
		name := v.Name
		if names != nil {
			name = names[i]
		}
		args[i] = name
		if types.IsInterface(v.Type) {
			args[i] = "mbenchRecRef{&" + name + "}"
		}
	}
	return strings.Join(args, ", ")
}

// wholeEdits instruments the whole function of segment s (number i):
// unnamed or blank receiver, parameters and results get names, the
// inputs are recorded on entry and the outputs by a deferred call, unless
// the function panics.
func wholeEdits(s *Segment, i int, call string, off func(token.Pos) int) ([]recEdit, error) {
	fd := s.Func.(*ast.FuncDecl)
	var edits []recEdit
	names := map[*types.Var]string{} // signature variable → name in the instrumented code
	obj, _ := s.Pkg.TypesInfo.Defs[fd.Name].(*types.Func)
	if obj == nil {
		return nil, fmt.Errorf("%s: no type information for %s", s.Pos, fd.Name.Name)
	}
	sig := obj.Signature()
	// name gives each variable of the fields a usable name, editing the
	// source where it has none; paren says a lone unnamed field lacks
	// parentheses.
	name := func(fields *ast.FieldList, vars []*types.Var, prefix string) {
		if fields == nil {
			return
		}
		k := 0
		for _, f := range fields.List {
			if len(f.Names) == 0 {
				n := fmt.Sprintf("mbenchRec%s%d", prefix, k)
				names[vars[k]] = n
				if !fields.Opening.IsValid() {
					edits = append(edits, recEdit{off(f.Type.Pos()), off(f.Type.Pos()), "(" + n + " ", 0}, recEdit{off(f.Type.End()), off(f.Type.End()), ")", 0})
				} else {
					edits = append(edits, recEdit{off(f.Type.Pos()), off(f.Type.Pos()), n + " ", 0})
				}
				k++
				continue
			}
			for _, id := range f.Names {
				n := id.Name
				if n == "_" {
					n = fmt.Sprintf("mbenchRec%s%d", prefix, k)
					edits = append(edits, recEdit{off(id.Pos()), off(id.End()), n, 0})
				}
				names[vars[k]] = n
				k++
			}
		}
	}
	tuple := func(t *types.Tuple) []*types.Var {
		vars := make([]*types.Var, t.Len())
		for k := range vars {
			vars[k] = t.At(k)
		}
		return vars
	}
	if sig.Recv() != nil {
		name(fd.Recv, []*types.Var{sig.Recv()}, "Recv")
	}
	name(fd.Type.Params, tuple(sig.Params()), "P")
	name(fd.Type.Results, tuple(sig.Results()), "R")

	results := tuple(sig.Results())
	expr := func(v Var) (string, error) {
		if v.Obj != nil {
			if n, ok := names[v.Obj]; ok {
				return n, nil
			}
		}
		if r, ok := strings.CutPrefix(v.Name, "r"); ok {
			if k, err := strconv.Atoi(r); err == nil && k < len(results) {
				return names[results[k]], nil
			}
		}
		return "", fmt.Errorf("%s: %s is not a receiver, parameter or result of %s", s.Pos, v.Name, fd.Name.Name)
	}
	exprs := func(vars []Var) ([]string, error) {
		var es []string
		for _, v := range vars {
			e, err := expr(v)
			if err != nil {
				return nil, err
			}
			es = append(es, e)
		}
		return es, nil
	}
	list := func(vars []Var) (string, error) {
		es, err := exprs(vars)
		return recArgs(vars, es), err
	}
	_, outs := recordedVars(s)
	inNames, err := exprs(s.Inputs)
	if err != nil {
		return nil, err
	}
	in := beginArgs(s, inNames)
	out, err := list(outs)
	if err != nil {
		return nil, err
	}
	// The deferred call records only a return: a panic is passed on.
	text := fmt.Sprintf(" if mbenchRecSegments[%d].Active() { if %s := mbenchRecSegments[%d].Begin(%s); %s.Recording() { defer func() { if r := recover(); r != nil { panic(r) }; %s.End(%s) }() } };", i, call, i, in, call, call, out)
	p := off(fd.Body.Lbrace + 1)
	edits = append(edits, recEdit{p, p, text, 0})
	return edits, nil
}
