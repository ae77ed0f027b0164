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
	for _, s := range segs {
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
	}
	if g, w := strings.Join(got, "\n"), strings.Join(want, "\n"); g != w {
		t.Errorf("segments:\n%s\nwant:\n%s", g, w)
	}
}

func TestFindInputsOutputs(t *testing.T) {
	segs := okSegments(t)
	for _, tt := range []struct{ name, want string }{
		// s is read by s += x before the segment assigns it.
		{"Sum", "in: xs []int, s int; out: s int"},
		// The literal is in xs, a variable: an input; scale stays a
		// constant and limit a package-level variable.
		{"Literals", "in: xs []int, t int; out: t int"},
		// sum and n are read in the segment only: temporaries.
		{"Mean", "in: xs []float64, sum float64, n int; out: avg float64"},
		{"MeanAll", "in: xs []float64, sum float64, n int; out: sum float64, n int, avg float64"},
		// n is read nowhere: a result nobody reads.
		{"Count", "in: xs []int; out: n int"},
		// y is assigned on one branch only before it is read.
		{"Cond", "in: c bool, x int, y int; out: x int"},
		// t is assigned before it is read.
		{"Def", "in: x int; out: x int"},
		{"Both", "in: c bool, x int; out: x int"},
		{"InClosure", "in: xs []int, m int, k int; out: m int"},
		{"Nested", "in: xs []int, best int; out: best int"},
		{"Drop", "in: s string; out: n int; discards: parse(s), math.Sqrt(float64(len(s)))"},
		{"Decl", "in: a float64, b float64; out: h float64"},
		// p.X += d reads and changes p itself.
		{"Move", "in: p example.com/ok/seg.Point, d float64; out: p example.com/ok/seg.Point"},
		{"Norm", "in: v []float64; out: r0 float64"},
		{"Scale", "in: p *example.com/ok/seg.Point, k float64, p1 int; out: "},
		{"DivMod", "in: a int, b int; out: r0 int, r1 int"},
		// A named result is read by the function's caller.
		{"Named", "in: xs []int, n int; out: n int"},
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
		"markers/a.go:4: //mbench:bench TopLevel is not followed by a statement of a function",
		"markers/a.go:9: //mbench:bench marker without NAME",
		"markers/a.go:11: //mbench:bench lower: NAME must be an upper-case letter followed by letters, digits or _",
		`markers/a.go:13: //mbench:bench Two: unexpected "Words" after NAME`,
		"markers/a.go:17: //mbench:bench End is not followed by a statement of a function",
		"markers/a.go:21: //mbench:bench Blank is not followed by a statement of a function",
		"markers/a.go:26: //mbench:bench AfterBlank is not followed by a statement of a function",
		"markers/b.go:5: duplicate NAME Dup in package example.com/bad/markers, first at markers/a.go:15",
		"markers/markers_test.go:6: //mbench:bench InTest in a _test.go file: mark code of the package's non-test files",
	}
	if got, w := err.Error(), strings.Join(want, "\n"); got != w {
		t.Errorf("error:\n%s\nwant:\n%s", got, w)
	}
}
