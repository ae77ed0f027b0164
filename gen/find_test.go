package gen

import (
	"context"
	"fmt"
	"go/ast"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fixtureEnv keeps the fixture modules of testdata/analyze independent
// of any go.work around them.
var fixtureEnv = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")

// loaded caches Find's results on the fixture modules: loading packages
// takes seconds, so the subtests share them.
var loaded struct {
	sync.Mutex
	m map[string]loadResult
}

type loadResult struct {
	segs []*Segment
	err  error
}

// findFixture returns Find's results on testdata/analyze/dir/... .
func findFixture(t *testing.T, dir string, allLoops bool) ([]*Segment, error) {
	t.Helper()
	loaded.Lock()
	defer loaded.Unlock()
	key := fmt.Sprint(dir, allLoops)
	if r, ok := loaded.m[key]; ok {
		return r.segs, r.err
	}
	segs, err := Find(context.Background(), FindOptions{
		Dir:      filepath.Join("testdata", "analyze", dir),
		Patterns: []string{"./..."},
		AllLoops: allLoops,
		Env:      fixtureEnv,
	})
	if loaded.m == nil {
		loaded.m = map[string]loadResult{}
	}
	loaded.m[key] = loadResult{segs, err}
	return segs, err
}

// okSegments returns the segments of the fixture module ok by name.
func okSegments(t *testing.T) map[string]*Segment {
	t.Helper()
	segs, err := findFixture(t, "ok", false)
	if err != nil {
		t.Fatalf("Find: %v", err)
	}
	m := map[string]*Segment{}
	for _, s := range segs {
		m[s.Name] = s
	}
	return m
}

// describe summarises a segment's analysis: inputs (* when mutated),
// outputs (+ when a sink), discards and reason.
func describe(s *Segment) string {
	var in, out, disc []string
	for _, v := range s.Inputs {
		n := v.Name + " " + v.Type.String()
		if v.Mutated {
			n += "*"
		}
		in = append(in, n)
	}
	for _, v := range s.Outputs {
		n := v.Name + " " + v.Type.String()
		if v.Sink {
			n += "+"
		}
		out = append(out, n)
	}
	for _, e := range s.Discards {
		disc = append(disc, types.ExprString(e))
	}
	d := fmt.Sprintf("in: %s; out: %s", strings.Join(in, ", "), strings.Join(out, ", "))
	if len(disc) > 0 {
		d += "; discards: " + strings.Join(disc, ", ")
	}
	if len(s.Exits) > 0 {
		var exits []string
		for _, x := range s.Exits {
			exits = append(exits, x.Desc)
		}
		d += "; exits: " + strings.Join(exits, ", ")
		for _, v := range s.Returns {
			d += "; " + v.Name + " " + v.Type.String()
		}
	}
	if s.Reason != Accepted {
		d += "; " + string(s.Reason)
	}
	return d
}

func TestFindMarkers(t *testing.T) {
	segs, err := findFixture(t, "ok", false)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, s := range segs {
		if i > 0 {
			p := segs[i-1]
			if p.Pkg.PkgPath > s.Pkg.PkgPath || p.Pkg.PkgPath == s.Pkg.PkgPath &&
				(p.Pos.Filename > s.Pos.Filename || p.Pos.Filename == s.Pos.Filename && p.Pos.Line >= s.Pos.Line) {
				t.Errorf("%s at %s before %s at %s", p.Name, p.Pos, s.Name, s.Pos)
			}
		}
		if s.Pkg.PkgPath != "example.com/ok/seg" {
			continue
		}
		kind := "stmt"
		switch {
		case s.Whole:
			kind = "whole"
		case s.Stmt == nil:
			kind = "nil"
		}
		if _, lit := s.Func.(*ast.FuncLit); lit {
			kind += " in literal"
		}
		got = append(got, fmt.Sprintf("%s %s:%d %s", s.Name, filepath.Base(s.Pos.Filename), s.Pos.Line, kind))
	}
	want := []string{
		"Sum seg.go:16 stmt",
		"Literals seg.go:28 stmt",
		"Mean seg.go:39 stmt",
		"MeanAll seg.go:54 stmt",
		"Count seg.go:67 stmt",
		"Cond seg.go:81 stmt",
		"Def seg.go:94 stmt",
		"Both seg.go:105 stmt",
		"InClosure seg.go:123 stmt in literal",
		"Nested seg.go:135 stmt",
		"Drop seg.go:148 stmt",
		"Decl seg.go:159 stmt",
		"Move seg.go:169 stmt",
		"Norm seg.go:176 whole",
		"Scale seg.go:187 whole",
		"DivMod seg.go:195 whole",
		"Named seg.go:202 stmt",
		"Handler seg.go:212 stmt in literal",
		"Kinds seg.go:227 stmt",
		"Fib seg.go:246 stmt",
		"Overwritten seg.go:257 stmt",
		"Partial seg.go:269 stmt",
		"SwitchBreak seg.go:281 stmt",
		"SkipPost seg.go:298 stmt",
		"Incr seg.go:310 stmt",
	}
	if g, w := strings.Join(got, "\n"), strings.Join(want, "\n"); g != w {
		t.Errorf("segments:\n%s\nwant:\n%s", g, w)
	}
}

func TestFindAnalysis(t *testing.T) {
	segs := okSegments(t)
	for _, tt := range []struct{ name, want string }{
		// s is read by s += x before the segment assigns it.
		{"Sum", "in: xs []int, s int; out: s int+"},
		// The literal is in xs, a variable: an input; scale stays a
		// constant and limit a package-level variable.
		{"Literals", "in: xs []int, t int; out: t int+"},
		// sum and n are read in the segment only: temporaries.
		{"Mean", "in: xs []float64, sum float64, n int; out: avg float64+"},
		{"MeanAll", "in: xs []float64, sum float64, n int; out: sum float64, n int, avg float64+"},
		// n is read nowhere: a result nobody reads.
		{"Count", "in: xs []int; out: n int+"},
		// y is assigned on one branch only before it is read.
		{"Cond", "in: c bool, x int, y int; out: x int+"},
		// t is assigned before it is read.
		{"Def", "in: x int; out: x int+"},
		{"Both", "in: c bool, x int; out: x int+"},
		{"InClosure", "in: xs []int, m int, k int; out: m int+"},
		{"Nested", "in: xs []int, best int; out: best int+"},
		{"Drop", "in: s string; out: n int+; discards: parse(s), math.Sqrt(float64(len(s))), parse(s)"},
		{"Decl", "in: a float64, b float64; out: h float64+"},
		// p.X += d reads and changes p itself.
		{"Move", "in: p example.com/ok/seg.Point, d float64; out: p example.com/ok/seg.Point+"},
		{"Norm", "in: v []float64; out: r0 float64+"},
		{"Scale", "in: p *example.com/ok/seg.Point*, k float64, p1 int; out: "},
		{"DivMod", "in: a int, b int; out: r0 int+, r1 int+"},
		// A named result is read by the function's caller.
		{"Named", "in: xs []int, n int; out: n int+"},
		// b's final value depends on every assignment of a: b alone
		// keeps both alive.
		{"Fib", "in: n int, b int, a int; out: a int, b int+"},
		// b depends on a's value before the segment, not on a = 7.
		{"Overwritten", "in: a int; out: b int+, a int+"},
		{"Handler", "in: xs []int, n int; out: n int+"},
		// v is declared in the segment: its interface type is no input.
		{"Kinds", "in: xs []int, n int; out: n int+"},
		// ascii keeps its value from before the segment on the paths
		// that do not assign it: an input too.
		{"Partial", "in: s string, ascii bool; out: ascii bool+"},
		// A break leaves the switch before r = 2.
		{"SwitchBreak", "in: c bool, d bool, r int; out: r int+"},
		// A continue reaches the post statement before t = xs[i].
		{"SkipPost", "in: xs []int, n int, t int; out: n int+"},
		// x++ and y += 2 read x and y.
		{"Incr", "in: x int, y int; out: x int+, y int+"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := segs[tt.name]
			if s == nil {
				t.Fatalf("no segment %s", tt.name)
			}
			if got := describe(s); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestFindErrors(t *testing.T) {
	_, err := findFixture(t, "bad", false)
	if err == nil {
		t.Fatal("Find: no error")
	}
	want := []string{
		`broken/broken.go:5:9: cannot use "one" (untyped string constant) as int value in return statement`,
		"markers/a.go:6: //mbench:bench TopLevel is not followed by a statement of a function",
		"markers/a.go:11: //mbench:bench marker without NAME",
		"markers/a.go:13: //mbench:bench lower: NAME must be an upper-case letter followed by letters, digits or _",
		`markers/a.go:15: //mbench:bench Two: unexpected "Words" after NAME`,
		"markers/a.go:19: //mbench:bench End is not followed by a statement of a function",
		"markers/a.go:23: //mbench:bench Blank is not followed by a statement of a function",
		"markers/a.go:28: //mbench:bench AfterBlank is not followed by a statement of a function",
		"markers/a.go:33: //mbench:bench NoBody: function nanotime has no body",
		"markers/b.go:5: duplicate NAME Dup in package example.com/bad/markers, first at markers/a.go:17",
		"markers/markers_test.go:6: //mbench:bench InTest in a _test.go file: mark code of the package's non-test files",
	}
	if got, w := err.Error(), strings.Join(want, "\n"); got != w {
		t.Errorf("error:\n%s\nwant:\n%s", got, w)
	}
}

func TestFindEffects(t *testing.T) {
	segs := okSegments(t)
	for _, tt := range []struct{ name, want string }{
		// Passing a slice to a function of another package may change it.
		{"SortInPlace", "in: xs []int*; out: "},
		{"SlicesSort", "in: xs []string*; out: "},
		{"Store", "in: xs []int*; out: "},
		{"Fill", "in: keys []string, m map[string]int*; out: "},
		{"Through", "in: p *example.com/ok/effects.Point*, d int; out: "},
		{"Alias", "in: xs []int*; out: "},
		{"RangePtr", "in: ps []*example.com/ok/effects.Point*; out: "},
		// SSA of the package's functions: sumOf reads a, zero writes b,
		// indirect calls zero with c; slices.Contains only reads d.
		{"Calls", "in: a []int, b []int*, c []int*, d []int; out: n int+"},
		// append may write the backing array of xs.
		{"Append", "in: xs []int*; out: xs []int+"},
		// An array value is copied: a is changed, not its caller's.
		{"Array", "in: a [3]int; out: a [3]int+"},
		// Unexported fields of the segment's own package are recordable.
		{"Own", "in: c example.com/ok/effects.counter; out: n int+"},
		{"Return", "in: xs []int; out: ; exits: return at effects.go:143:4; return 0 int"},
		{"BreakOuter", "in: row []int, n int; out: n int+; exits: break outer at effects.go:157:5"},
		// Labels and loops inside the segment are fine.
		{"BreakInner", "in: rows [][]int, n int; out: n int+"},
		{"Continue", "in: x int; out: ; exits: continue at effects.go:190:4"},
		{"Goto", "in: xs []int, n int; out: n int+; exits: goto done at effects.go:203:4"},
		// At the break, n is another variable: the n read after it
		// cannot be recorded there.
		{"Shadowed", "in: row []int, n int; out: n int+; exits: break outer at globals.go:109:6; jumps out of the segment (break outer at globals.go:109:6: n is not in scope there)"},
		{"Safe", "in: xs []int, i int; out: v int+; panics to a recovering caller (may panic at effects.go:219:6, recovered by the defer at effects.go:213:2)"},
		{"Chan", "in: ch chan int; out: n int+; reads a value that cannot be recorded (input ch of type chan int: it holds a channel)"},
		{"Func", "in: f func(int) int, x int; out: y int+; reads a value that cannot be recorded (input f of type func(int) int: it holds a function)"},
		{"Reader", "in: r io.Reader*, buf []byte*; out: n int+; discards: r.Read(buf)"},
		{"File", "in: f *os.File*; out: n int+; reads a value that cannot be recorded (input f of type *os.File: it holds os.File, an operating system handle)"},
		// The methods of time.Time only read (readOnlyTypes), and its
		// unexported fields are recorded.
		{"Time", "in: ts example.com/ok/effects.Times, s int64; out: s int64+"},
		{"Generic", "in: xs []T, s T; out: s T+; depends on a type parameter (generic function Generic at effects.go:269:1)"},
		{"WholeGeneric", "in: x T; out: r0 T+; depends on a type parameter (generic function WholeGeneric at effects.go:281:1)"},
		{"Global", "in: xs []int; out: ; changes package-level state (changes total at effects.go:287:3)"},
		{"GlobalMap", "in: k string; out: ; changes package-level state (changes cache at effects.go:294:2)"},
		{"GlobalAlias", "in: ; out: ; changes package-level state (changes last at effects.go:303:3)"},
		// Calls that only read package-level tables are fine; sorting
		// one, a pointer method on one, or a writer of the package are
		// changes.
		{"GlobalRead", "in: s string, n int; out: n int+"},
		{"GlobalSort", "in: ; out: ; changes package-level state (changes table at globals.go:29:12)"},
		{"GlobalMethod", "in: s string; out: ; discards: sb.WriteString(s); changes package-level state (changes sb at globals.go:36:2)"},
		{"GlobalWriter", "in: ; out: ; changes package-level state (changes table at globals.go:43:7)"},
		{"Go", "in: xs []int; out: ; starts goroutines or defers (go statement at effects.go:310:2)"},
		{"Defer", "in: xs []int*; out: ; starts goroutines or defers (defer statement at effects.go:317:2)"},
		{"Send", "in: ch chan int, x int; out: ; starts goroutines or defers (channel send at effects.go:323:2)"},
		{"Receive", "in: ch chan int; out: n int+; starts goroutines or defers (channel receive at effects.go:340:6)"},
		{"Select", "in: a chan int, b chan int; out: n int+; starts goroutines or defers (select statement at effects.go:348:2)"},
		{"Raw", "in: p unsafe.Pointer; out: n int+; reads a value that cannot be recorded (input p of type unsafe.Pointer: it holds an unsafe.Pointer)"},
		{"Addr", "in: q uintptr; out: q uintptr+; reads a value that cannot be recorded (input q of type uintptr: it holds a uintptr, an address)"},
		// A deferred method of the package recovers; 100 / x may panic.
		{"Guarded", "in: xs []int, n int; out: n int+; panics to a recovering caller (may panic at globals.go:69:8, recovered by the defer at globals.go:65:2)"},
		// keep lets a escape: a change; count only reads b, recursively.
		{"Escape", "in: a []int*, b []int; out: n int+"},
		// Interfaces are recorded with the dynamic types of their
		// values: the recording decides whether those can be rebuilt.
		{"Parse", "in: s string; out: r0 int+, r1 error+"},
		{"Errs", "in: errs []error, n int; out: n int+"},
		{"Stringer", "in: err error, s fmt.Stringer*, n int; out: n int+"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := segs[tt.name]
			if s == nil {
				t.Fatalf("no segment %s", tt.name)
			}
			got := describe(s)
			if s.Detail != "" {
				got += " (" + s.Detail + ")"
			}
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestFindAllLoops(t *testing.T) {
	segs, err := findFixture(t, "ok", true)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range segs {
		if s.Pkg.PkgPath != "example.com/ok/loops" {
			continue
		}
		line := fmt.Sprintf("%s %s:%d %s", s.Name, filepath.Base(s.Pos.Filename), s.Pos.Line, s.Reason)
		if l, ok := s.Stmt.(*ast.LabeledStmt); ok {
			line += " " + l.Label.Name + ":"
		}
		if len(s.Exits) > 0 {
			line += fmt.Sprintf(" %d exits", len(s.Exits))
		}
		got = append(got, line)
	}
	want := []string{
		"Loop_init_7 a.go:7 changes package-level state",
		"Loop_T_Sum_18 a.go:18 ",
		"Loop_T_Sum_19 a.go:19 ",
		"Loop_G_Len_32 a.go:32 depends on a type parameter",
		// The loop is in a function literal of Lit.
		"Loop_Lit_42 a.go:42 ",
		// Another init, in another file: the name stays unique.
		"Loop_init_6 b.go:6 changes package-level state",
		// A loop in a function literal of a package-level variable.
		"Loop_Each_13 b.go:13 ",
		// A labelled loop continued by its label: the segment holds
		// the label, so the continue does not leave it.
		"Loop_Labelled_23 b.go:23  top:",
	}
	if g, w := strings.Join(got, "\n"), strings.Join(want, "\n"); g != w {
		t.Errorf("loops:\n%s\nwant:\n%s", g, w)
	}
	// Markers are not read, and the loops of every package are found.
	names := map[string]bool{}
	for _, s := range segs {
		if names[s.Name] && s.Pkg.PkgPath == "example.com/ok/loops" {
			t.Errorf("duplicate name %s", s.Name)
		}
		names[s.Name] = true
	}
	if !names["Loop_Sum_17"] || names["Sum"] {
		t.Errorf("names in package seg: want Loop_Sum_17 and no Sum, got %v", names)
	}
}

// TestFindAllLoopsSameLine checks that loops starting on one line get
// distinct names, in code gofmt would not leave that way.
func TestFindAllLoopsSameLine(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/line\n\ngo 1.26\n",
		"a.go":   "package line\n\nfunc F() (s int) {\n\tfor range 2 { for range 3 { s++ } }\n\treturn\n}\n",
		"b.go":   "package line\n\nfunc init() {\n\tfor range 2 {}\n}\n",
		"c.go":   "package line\n\nfunc init() {\n\tfor range 2 {}\n}\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	find := func() string {
		segs, err := Find(context.Background(), FindOptions{Dir: dir, AllLoops: true, Env: fixtureEnv})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, s := range segs {
			names = append(names, s.Name)
		}
		return strings.Join(names, " ")
	}
	got := find()
	if want := "Loop_F_4 Loop_F_4_2 Loop_init_4 Loop_init_4_2"; got != want {
		t.Errorf("names %s, want %s", got, want)
	}
	if again := find(); again != got {
		t.Errorf("second run: %s, first %s", again, got)
	}
}

func TestFindBadPattern(t *testing.T) {
	_, err := Find(context.Background(), FindOptions{
		Dir:      filepath.Join("testdata", "analyze", "ok"),
		Patterns: []string{"./nosuchdir"},
		Env:      fixtureEnv,
	})
	if err == nil || !strings.Contains(err.Error(), "nosuchdir") {
		t.Errorf("Find(./nosuchdir): error %v, want one naming the directory", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Find(ctx, FindOptions{Dir: filepath.Join("testdata", "analyze", "ok"), Env: fixtureEnv}); err == nil {
		t.Errorf("Find with a cancelled context: no error")
	}
}

// TestFindIgnoresGeneratedFile: the generated file of an earlier run is
// not the user's code. Stale, it may no longer compile (a function it
// calls was renamed), and the payload of a segment holding a nested one
// copies the nested marker; neither may stop the regeneration. A
// hand-written file of the same name is the user's.
func TestFindIgnoresGeneratedFile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), "module example.com/g\n\ngo 1.24\n")
	write(t, filepath.Join(dir, "g.go"), "package g\n\nfunc Twice(x int) int {\n\t//mbench:bench Twice\n\tx *= 2\n\treturn x\n}\n")
	stale := header + "\npackage g\n\nfunc mbenchPayloadOld(x int) int {\n\t//mbench:bench Old\n\treturn Renamed(x)\n}\n"
	gen := filepath.Join(dir, GeneratedFile)
	write(t, gen, stale)
	segs, err := Find(context.Background(), FindOptions{Dir: dir})
	if err != nil {
		t.Fatalf("Find with a stale generated file: %v", err)
	}
	if len(segs) != 1 || segs[0].Name != "Twice" {
		t.Errorf("Find: %d segments, want Twice", len(segs))
	}
	if data, err := os.ReadFile(gen); err != nil || string(data) != stale {
		t.Errorf("Find changed %s: %v", gen, err)
	}

	write(t, gen, strings.TrimPrefix(stale, header))
	_, err = Find(context.Background(), FindOptions{Dir: dir})
	if err == nil || !strings.Contains(err.Error(), GeneratedFile+":5: //mbench:bench Old in a _test.go file") {
		t.Errorf("Find with a hand-written %s: %v, want its marker and type errors", GeneratedFile, err)
	}
}
