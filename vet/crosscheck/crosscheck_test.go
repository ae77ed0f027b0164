package crosscheck

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mbench/mbench/bench"
)

func TestDecide(t *testing.T) {
	k := bench.Key{Name: "X"}
	k2 := bench.Key{Name: "X/sub"}
	for _, tc := range []struct {
		name    string
		means   []map[bench.Key]float64
		outcome string
	}{
		{"implausible", []map[bench.Key]float64{{k: 0.3e-9}}, Confirmed},
		{"implausible, fix as fast", []map[bench.Key]float64{{k: 0.5e-9}, {k: 0.52e-9}}, Refuted},
		{"implausible, fix slower", []map[bench.Key]float64{{k: 0.13e-9}, {k: 0.43e-9}}, Confirmed},
		{"no fix, plausible", []map[bench.Key]float64{{k: 5e-9}}, Undetermined},
		{"fix slows it a lot", []map[bench.Key]float64{{k: 2e-9}, {k: 6e-9}}, Confirmed},
		{"fix changes nothing", []map[bench.Key]float64{{k: 2e-9}, {k: 2.1e-9}}, Refuted},
		{"in between", []map[bench.Key]float64{{k: 2e-9}, {k: 2.7e-9}}, Undetermined},
		{"one sub-benchmark changed", []map[bench.Key]float64{{k: 2e-9, k2: 3e-9}, {k: 2e-9, k2: 9e-9}}, Confirmed},
	} {
		v := Verdict{Original: math.NaN(), Protected: math.NaN()}
		decide(&v, tc.means)
		if v.Outcome != tc.outcome {
			t.Errorf("%s: %s (%s), want %s", tc.name, v.Outcome, v.Reason, tc.outcome)
		}
	}
}

func TestEnclosingBenchmark(t *testing.T) {
	src := "package p\n\nimport \"testing\"\n\nfunc helper() {}\n\nfunc BenchmarkA(b *testing.B) {\n\tfor b.Loop() {\n\t}\n\tb.Run(\"big int\", func(b *testing.B) {\n\t\tx := 1\n\t\t_ = x\n\t})\n}\n"
	file := filepath.Join(t.TempDir(), "a_test.go")
	os.WriteFile(file, []byte(src), 0o666)
	if name, sub, err := enclosingBenchmark(file, strings.Index(src, "for b.Loop")); err != nil || name != "BenchmarkA" || sub != "" {
		t.Errorf("got %q, %q, %v; want BenchmarkA and no sub-benchmark", name, sub, err)
	}
	if name, sub, err := enclosingBenchmark(file, strings.Index(src, "x := 1")); err != nil || name != "BenchmarkA" || sub != "big_int" {
		t.Errorf("got %q, %q, %v; want BenchmarkA, big_int", name, sub, err)
	}
	if _, _, err := enclosingBenchmark(file, strings.Index(src, "helper")); err == nil {
		t.Error("a finding outside a benchmark got a benchmark")
	}
}

func TestApplyEdits(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "x_test.go")
	os.WriteFile(file, []byte("abcdef"), 0o666)
	out, err := applyEdits(file, []Edit{{file, 1, 2, "XY"}, {file, 4, 4, "!"}}, dir, "patched_")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(out)
	if string(got) != "aXYcd!ef" {
		t.Errorf("got %q", got)
	}
	if orig, _ := os.ReadFile(file); string(orig) != "abcdef" {
		t.Errorf("the original changed: %q", orig)
	}
	if _, err := applyEdits(file, []Edit{{"other.go", 0, 1, ""}}, dir, "patched_"); err == nil {
		t.Error("an edit of another file was applied")
	}
	// An insertion and a replacement at one offset, as a sink assignment
	// before a call whose receiver constfold's fix replaces, in either
	// order: the insertion stays in front.
	for _, edits := range [][]Edit{
		{{file, 2, 2, "s = "}, {file, 2, 4, "v"}},
		{{file, 2, 4, "v"}, {file, 2, 2, "s = "}},
	} {
		out, err := applyEdits(file, edits, dir, "both_")
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(out); string(got) != "abs = vef" {
			t.Errorf("edits %v: got %q, want %q", edits, got, "abs = vef")
		}
	}
}

// TestSetBases checks which constfold findings are checked with a dead
// result's sink in both builds: those on a call a deadresult finding also
// reports, with that finding's last fix, the sink.
func TestSetBases(t *testing.T) {
	rewrite := []Edit{{File: "a_test.go", Start: 10, End: 30, New: "for b.Loop() "}}
	sink := []Edit{{File: "a_test.go", Start: 40, End: 40, New: "sink = "}}
	fs := []Finding{
		{Analyzer: "deadresult", File: "a_test.go", Offset: 40, Fixes: [][]Edit{rewrite, sink}},
		{Analyzer: "constfold", File: "a_test.go", Offset: 40},
		{Analyzer: "constfold", File: "a_test.go", Offset: 90},
		{Analyzer: "deadresult", File: "b_test.go", Offset: 90, Fixes: [][]Edit{sink}},
	}
	SetBases(fs)
	if got := fs[1].Base; len(got) != 1 || got[0].New != "sink = " || got[0].Start != 40 {
		t.Errorf("Base of the constfold finding on a dead call = %+v, want the sink edit", got)
	}
	if got := fs[2].Base; got != nil {
		t.Errorf("Base of a constfold finding whose call is used = %+v, want none", got)
	}
	if fs[0].Base != nil || fs[3].Base != nil {
		t.Error("a deadresult finding got a Base")
	}
}

// writeModule writes a module example.com/NAME of one test file,
// NAME_test.go holding src, to a new directory and returns the file's
// path.
func writeModule(t *testing.T, name, src string) string {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, name+"_test.go")
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/"+name+"\n\ngo 1.26\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	return file
}
