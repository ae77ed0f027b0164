package gen

import (
	"context"
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mbench/mbench/gen/internal/codec"
)

// copyFixture copies the directory src to dst.
func copyFixture(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		write(t, filepath.Join(dst, rel), string(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// snapshot returns the contents of every file under dir.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		files[path] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// recordFixture copies testdata/record into a scratch module, finds its
// segments and records them.
func recordFixture(t *testing.T, opts RecordOptions, prepare func(map[string]*Segment)) (dir string, segs map[string]*Segment, err error) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the go command")
	}
	root := t.TempDir()
	dir = filepath.Join(root, "fixture")
	copyFixture(t, filepath.Join("testdata", "record"), dir)
	scratch := filepath.Join(root, "tmp")
	if err := os.Mkdir(scratch, 0o777); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", scratch)
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	opts.Env = env

	found, err := Find(context.Background(), FindOptions{Dir: dir, Patterns: []string{"./..."}, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	segs = map[string]*Segment{}
	for _, s := range found {
		segs[s.Name] = s
	}
	if prepare != nil {
		prepare(segs)
	}
	before := snapshot(t, dir)
	err = Record(context.Background(), found, opts)

	after := snapshot(t, dir)
	for name, content := range before {
		if after[name] != content {
			t.Errorf("Record changed %s", name)
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok && !strings.Contains(filepath.ToSlash(name), "/testdata/mbench/") {
			t.Errorf("Record left %s", name)
		}
	}
	if left, _ := os.ReadDir(scratch); len(left) > 0 {
		t.Errorf("Record left %s in the temporary directory", left[0].Name())
	}
	return dir, segs, err
}

func loadRecorded(t *testing.T, dir, name string) codec.File {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "testdata", "mbench", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var f codec.File
	if err := codec.Decode(data, &f); err == nil {
		t.Fatalf("%s.json decodes as a codec value; want plain JSON", name)
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	again, _ := f.Marshal()
	if string(again) != string(data) {
		t.Errorf("%s.json is not in the canonical form:\n%s", name, data)
	}
	return f
}

func TestRecord(t *testing.T) {
	// Median sorts its input in place. Whether the analysis sees it
	// through sort.Float64s or not, Record must record a mutated input
	// after the segment too.
	dir, segs, err := recordFixture(t, RecordOptions{MaxInputs: 4}, func(segs map[string]*Segment) {
		segs["Median"].Inputs[0].Mutated = true
	})
	var failed *TestsFailed
	if !errors.As(err, &failed) || failed.Pkg != "example.com/fixture/failing" || !strings.Contains(failed.Output, "fails on purpose") {
		t.Fatalf("Record: %v, want the tests of example.com/fixture/failing failing", err)
	}
	if strings.Contains(err.Error(), "example.com/fixture:") {
		t.Errorf("Record reports a failure of example.com/fixture: %v", err)
	}

	sets := map[string]int{}
	reasons := map[string]Reason{}
	for name, s := range segs {
		sets[name], reasons[name] = s.Sets, s.Reason
	}
	wantSets := map[string]int{"SumLoop": 4, "Median": 2, "Scale": 1, "Never": 0, "Double": 1, "InLiteral": 2, "Positives": 1, "Atoi": 4, "Check": 3}
	if !maps.Equal(sets, wantSets) {
		t.Errorf("sets %v, want %v", sets, wantSets)
	}
	// Errors are recorded with their dynamic types, not skipped.
	if a := segs["Atoi"]; a.Reason != Accepted || a.Skipped != 0 {
		t.Errorf("Atoi: reason %q, %d skipped; want accepted, none skipped", a.Reason, a.Skipped)
	}
	if c := segs["Check"]; c.Reason != Accepted || c.Skipped != 0 {
		t.Errorf("Check: reason %q (%s), %d skipped; want accepted, none skipped", c.Reason, c.Detail, c.Skipped)
	}
	atoi := loadRecorded(t, dir, "Atoi")
	var atoiVars []string
	for _, set := range atoi.Sets {
		for _, v := range append(set.Inputs, set.Outputs...) {
			atoiVars = append(atoiVars, v.Name+" "+v.Type+" "+string(v.Value))
		}
	}
	numErr := func(s string) string {
		return `r1 error {"$type":"*strconv.NumError","$v":{"Func":"Atoi","Num":"` + s + `","Err":{"$type":"*errors.errorString","$v":{"s":"invalid syntax"}}}}`
	}
	if want := []string{`s string "one"`, "r0 int 0", numErr("one"), `s string "12"`, "r0 int 12", "r1 error null", `s string "two"`, "r0 int 0", numErr("two"), `s string "7"`, "r0 int 7", "r1 error null"}; !slices.Equal(atoiVars, want) {
		t.Errorf("Atoi sets\n%s\nwant\n%s", strings.Join(atoiVars, "\n"), strings.Join(want, "\n"))
	}
	if reasons["Never"] != NotReached || reasons["SumLoop"] != Accepted {
		t.Errorf("reasons %v", reasons)
	}
	if _, err := os.Stat(filepath.Join(dir, "testdata", "mbench", "Never.json")); err == nil {
		t.Errorf("a file for the unreached segment")
	}

	sum := loadRecorded(t, dir, "SumLoop")
	want := `{
  "segment": "SumLoop",
  "package": "example.com/fixture",
  "sets": [
    {
      "inputs": [
        {"name": "xs", "type": "[]int", "value": [1,2,3]},
        {"name": "total", "type": "int", "value": 0}
      ],
      "outputs": [
        {"name": "total", "type": "int", "value": 6}
      ]
    },`
	data, _ := os.ReadFile(filepath.Join(dir, "testdata", "mbench", "SumLoop.json"))
	if !strings.HasPrefix(string(data), want) {
		t.Errorf("SumLoop.json =\n%s\nwant it to start with\n%s", data, want)
	}
	var xs [][]int
	for _, set := range sum.Sets {
		var v []int
		if err := codec.Decode(set.Inputs[0].Value, &v); err != nil {
			t.Fatal(err)
		}
		xs = append(xs, v)
	}
	if !codec.Equal(xs, [][]int{{1, 2, 3}, nil, {math.MinInt64, math.MaxInt64}, {4}}) {
		t.Errorf("SumLoop inputs %v", xs)
	}

	// Median mutates its input: the input is recorded before, the
	// mutated input after, among the outputs.
	med := loadRecorded(t, dir, "Median")
	if len(med.Sets) != 2 || len(med.Sets[1].Inputs) != 1 || len(med.Sets[1].Outputs) != 2 {
		data, _ := os.ReadFile(filepath.Join(dir, "testdata", "mbench", "Median.json"))
		t.Fatalf("Median.json:\n%s", data)
	}
	var in, out []float64
	var r0 float64
	s := med.Sets[1]
	for _, d := range []struct {
		v    codec.Var
		ptr  any
		name string
	}{{s.Inputs[0], &in, "xs"}, {s.Outputs[0], &r0, "r0"}, {s.Outputs[1], &out, "xs"}} {
		if d.v.Name != d.name {
			t.Fatalf("Median set 1: %s where %s was expected", d.v.Name, d.name)
		}
		if err := codec.Decode(d.v.Value, d.ptr); err != nil {
			t.Fatal(err)
		}
	}
	if d := codec.Diff(in, []float64{math.Inf(1), math.Copysign(0, -1), 5}); d != "" {
		t.Errorf("Median input: %s", d)
	}
	if d := codec.Diff(out, []float64{math.Copysign(0, -1), 5, math.Inf(1)}); d != "" || r0 != 5 {
		t.Errorf("Median output %v (%s), result %v", out, d, r0)
	}

	// An output declared inside a marked block is recorded inside it.
	pos := loadRecorded(t, dir, "Positives")
	if o := pos.Sets[0].Outputs; len(o) != 1 || o[0].Name != "n" || string(o[0].Value) != "2" {
		t.Errorf("Positives outputs %+v, want n = 2", o)
	}

	replay(t, dir)

	scale := loadRecorded(t, dir, "Scale")
	got := []string{}
	for _, v := range append(scale.Sets[0].Inputs, scale.Sets[0].Outputs...) {
		got = append(got, v.Name+" "+v.Type+" "+string(v.Value))
	}
	wantVars := []string{
		`p point {"x":1,"y":2,"name":{"quoted":"\"p\\xff\""}}`,
		`k float64 2`,
		`p1 string "ignored"`,
		`r0 point {"x":2,"y":4,"name":{"quoted":"\"p\\xff\""}}`,
	}
	if !slices.Equal(got, wantVars) {
		t.Errorf("Scale vars\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantVars, "\n"))
	}
}

func TestTestsRan(t *testing.T) {
	tests := []struct {
		out  string
		want bool
	}{
		{"ok  \texample.com/p\t0.004s\n", true},
		{"--- FAIL: TestX (0.00s)\nFAIL\nFAIL\texample.com/p\t0.005s\nFAIL\n", true},
		{"panic: boom\n\ngoroutine 1 [running]:\nFAIL\texample.com/p\t0.010s\n", true},
		{"# example.com/p\n./p.go:3:1: syntax error\nFAIL\texample.com/p [build failed]\n", false},
		{"FAIL\texample.com/p [setup failed]\n", false},
		{"go: cannot find main module\n", false},
		{"ok  \texample.com/other\t0.004s\n", false},
	}
	for _, tt := range tests {
		if got := testsRan(tt.out, "example.com/p"); got != tt.want {
			t.Errorf("testsRan(%q) = %v, want %v", tt.out, got, tt.want)
		}
	}
}

// TestInstrumentKeepsLines checks that the instrumented file keeps every
// line where it was, so that positions in test failures stay right, and
// shows how a statement segment and a whole function are instrumented.
func TestInstrumentKeepsLines(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages with the go command")
	}
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	found, err := Find(context.Background(), FindOptions{Dir: filepath.Join("testdata", "record"), Patterns: []string{"."}, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	var idx []int
	for i := range found {
		idx = append(idx, i)
	}
	name := found[0].Pkg.Fset.File(found[0].Func.Pos()).Name()
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	got, err := instrumentFile(name, found, idx)
	if err != nil {
		t.Fatal(err)
	}
	before, after := strings.Split(string(src), "\n"), strings.Split(string(got), "\n")
	if len(before) != len(after) {
		t.Fatalf("%d lines became %d", len(before), len(after))
	}
	for _, want := range []string{
		"func Sum(xs []int) int { var mbenchRecC0 mbenchRecCall;",
		"\tif mbenchRecSegments[0].Active() { mbenchRecC0 = mbenchRecSegments[0].Begin(xs, total) }; for _, x := range xs {",
		"\t}; if mbenchRecC0.Recording() { mbenchRecC0.End(total) }",
		"func Median(xs []float64) (mbenchRecR0 float64) { if mbenchRecSegments[1].Active() { if mbenchRecC1 := mbenchRecSegments[1].Begin(xs); mbenchRecC1.Recording() { defer func() { if r := recover(); r != nil { panic(r) }; mbenchRecC1.End(mbenchRecR0, xs) }() } };",
		"func (p point) scale(k float64, mbenchRecP1 string) (mbenchRecR0 point) { if mbenchRecSegments[2].Active() { if mbenchRecC2 := mbenchRecSegments[2].Begin(p, k, mbenchRecP1); mbenchRecC2.Recording() { defer func() { if r := recover(); r != nil { panic(r) }; mbenchRecC2.End(mbenchRecR0) }() } };",
		"\tif mbenchRecC5.Recording() { mbenchRecC5.End(n) }; }",
		// An error is passed by reference: recorded as an error.
		"func Atoi(s string) (mbenchRecR0 int, mbenchRecR1 error) { if mbenchRecSegments[6].Active() { if mbenchRecC6 := mbenchRecSegments[6].Begin(s); mbenchRecC6.Recording() { defer func() { if r := recover(); r != nil { panic(r) }; mbenchRecC6.End(mbenchRecR0, mbenchRecRef{&mbenchRecR1}) }() } };",
		"\tif mbenchRecSegments[7].Active() { mbenchRecC7 = mbenchRecSegments[7].Begin(n, mbenchRecRef{&err}) }; if n < 0 {",
	} {
		if !slices.Contains(after, want) {
			t.Errorf("instrumented file lacks the line %q:\n%s", want, got)
		}
	}
}

// replayTest is a test file, like the generated one, that loads the sets
// Record wrote with the pasted support code and replays the segments.
const replayTest = `
func TestReplay(t *testing.T) {
	for i, s := range mbenchLoad(t, "SumLoop") {
		var xs []int
		var total, want int
		s.input(t, "xs", "[]int", &xs)
		s.input(t, "total", "int", &total)
		s.output(t, "total", "int", &want)
		for _, x := range xs {
			total += x
		}
		if !mbenchEqual(total, want) {
			t.Errorf("SumLoop set %d: %s", i, mbenchDiff(total, want))
		}
	}
	for i, s := range mbenchLoad(t, "Median") {
		var xs, wantXs []float64
		var want float64
		s.input(t, "xs", "[]float64", &xs)
		s.output(t, "r0", "float64", &want)
		s.output(t, "xs", "[]float64", &wantXs)
		if got := Median(xs); !mbenchEqual(got, want) || !mbenchEqual(xs, wantXs) {
			t.Errorf("Median set %d: %s; %s", i, mbenchDiff(got, want), mbenchDiff(xs, wantXs))
		}
	}
	for _, s := range mbenchLoad(t, "Scale") {
		var p, want point
		var k float64
		var name string
		s.input(t, "p", "point", &p)
		s.input(t, "k", "float64", &k)
		s.input(t, "p1", "string", &name)
		s.output(t, "r0", "point", &want)
		if got := p.scale(k, name); !mbenchEqual(got, want) || want.name != "p\xff" {
			t.Errorf("Scale: %s, name %q", mbenchDiff(got, want), want.name)
		}
	}
	for i, s := range mbenchLoad(t, "Atoi") {
		var in string
		var want int
		s.input(t, "s", "string", &in)
		s.output(t, "r0", "int", &want)
		got, err := Atoi(in)
		if !mbenchEqual(got, want) {
			t.Errorf("Atoi set %d: %s", i, mbenchDiff(got, want))
		}
		if d := s.same(t, "r1", "error", mbenchRef{&err}); d != "" {
			t.Errorf("Atoi set %d: error %s", i, d)
		}
	}
}
`

// replay has a test file holding the support code replay each set
// recorded in dir and compare the outputs.
func replay(t *testing.T, dir string) {
	t.Helper()
	decls, imports := supportSource()
	var src strings.Builder
	src.WriteString("package fixture\n\nimport (\n")
	for _, p := range imports {
		src.WriteString("\t" + strconv.Quote(p) + "\n")
	}
	src.WriteString(")\n\n" + decls + replayTest)
	write(t, filepath.Join(dir, "mbench_gen_test.go"), src.String())
	cmd := exec.Command("go", "test", "-count=1", "-run", "^TestReplay$", ".")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("replaying the recorded sets: %v\n%s", err, out)
	}
}

// TestTerminating checks the statements after which control never flows,
// where instrumenting the end of a segment would leave a function
// without a terminating statement.
func TestTerminating(t *testing.T) {
	src := `package p
func f(c bool, xs []int) int {
	for { return 1 }
	for { if c { break }; return 1 }
L:	for { for { break L } }
	for { for { break } }
	for c { return 1 }
	if c { return 1 } else { panic("x") }
	if c { return 1 }
	switch { case c: return 1; default: return 2 }
	switch { case c: return 1 }
	switch { case c: break; default: return 2 }
	{ goto M }
M:	return 0
}`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []bool{true, false, false, true, false, true, false, true, false, false, true, true}
	body := f.Decls[0].(*ast.FuncDecl).Body.List
	for i, st := range body {
		if got := terminating(st, nil); got != want[i] {
			t.Errorf("line %d: terminating = %v, want %v", fset.Position(st.Pos()).Line, got, want[i])
		}
	}
}
