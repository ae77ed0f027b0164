package gen

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
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
	wantSets := map[string]int{"SumLoop": 4, "Median": 2, "Scale": 1, "Never": 0, "Double": 1, "InLiteral": 2}
	if !maps.Equal(sets, wantSets) {
		t.Errorf("sets %v, want %v", sets, wantSets)
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
