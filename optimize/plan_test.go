package optimize

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/stats"
)

func testPlan() *Plan {
	return &Plan{
		Levels:    bench.Levels{SuiteRuns: 3, Forks: 5, Iterations: 5},
		IterTime:  50 * time.Millisecond,
		Metric:    RCIWMean,
		Threshold: 0.01,
		Bootstrap: stats.DefaultBootstrap,
		Seed:      1 << 60,
		Benchmarks: []PlanBenchmark{
			{Key: bench.Key{Package: "example.com/demo", Name: "Parse/large", Procs: 2}, Levels: bench.Levels{SuiteRuns: 1, Forks: 3, Iterations: 1}, Metric: 0.0071234567890123, Stable: true},
			{Key: bench.Key{Name: "Noisy"}, Levels: bench.Levels{SuiteRuns: 3, Forks: 5, Iterations: 5}, Metric: math.NaN(), Stable: false},
		},
	}
}

// samePlan compares plans, NaN metrics equal.
func samePlan(a, b *Plan) bool {
	if a.Levels != b.Levels || a.IterTime != b.IterTime || a.Metric != b.Metric || a.Threshold != b.Threshold ||
		a.Bootstrap != b.Bootstrap || a.Seed != b.Seed || len(a.Benchmarks) != len(b.Benchmarks) {
		return false
	}
	for k, x := range a.Benchmarks {
		y := b.Benchmarks[k]
		if x.Key != y.Key || x.Levels != y.Levels || !same(x.Metric, y.Metric) || x.Stable != y.Stable {
			return false
		}
	}
	return true
}

// TestPlanFile checks the documented form (docs/formats.md) and the round
// trip through a file.
func TestPlanFile(t *testing.T) {
	p := testPlan()
	var buf bytes.Buffer
	if err := WritePlan(&buf, p); err != nil {
		t.Fatal(err)
	}
	want := `{
  "format": "mbench-plan/v1",
  "levels": {
    "s": 3,
    "i": 5,
    "d": 5
  },
  "iter_time": "50ms",
  "metric": "rciw-mean",
  "threshold": 0.01,
  "bootstrap": {
    "level": 0.99,
    "replicates": 10000
  },
  "seed": 1152921504606846976,
  "benchmarks": [
    {"pkg":"example.com/demo","name":"Parse/large","procs":2,"s":1,"i":3,"d":1,"metric":0.0071234567890123,"stable":true},
    {"pkg":"","name":"Noisy","procs":0,"s":3,"i":5,"d":5,"metric":null,"stable":false}
  ]
}
`
	if buf.String() != want {
		t.Errorf("WritePlan wrote\n%s\nwant\n%s", buf.String(), want)
	}
	path := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(path, buf.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
	got, err := ReadPlanFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !samePlan(got, p) {
		t.Errorf("read back %+v, want %+v", got, p)
	}
	if b, ok := got.Lookup(bench.Key{Name: "Noisy"}); !ok || b.Levels != (bench.Levels{SuiteRuns: 3, Forks: 5, Iterations: 5}) {
		t.Errorf("Lookup(Noisy) = %+v, %v", b, ok)
	}
	if _, ok := got.Lookup(bench.Key{Name: "Noisy", Procs: 2}); ok {
		t.Error("Lookup found a key with other procs")
	}
	// min_forks is written when set, and read back.
	p.MinForks = 3
	buf.Reset()
	if err := WritePlan(&buf, p); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"min_forks": 3`) {
		t.Errorf("plan with MinForks 3 lacks min_forks:\n%s", &buf)
	}
	if got, err := ReadPlan(&buf, "plan.json"); err != nil || got.MinForks != 3 {
		t.Errorf("read back MinForks %v, %v; want 3", got, err)
	}
}

// TestReadPlanErrors checks that each problem is an error naming the file
// and, where there is one, the benchmark.
func TestReadPlanErrors(t *testing.T) {
	var buf bytes.Buffer
	if err := WritePlan(&buf, testPlan()); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	first := `{"pkg":"example.com/demo","name":"Parse/large","procs":2,"s":1,"i":3,"d":1,`
	for _, c := range []struct {
		name, old, new, want string
	}{
		{"unknown benchmark field", first, `{"pkg":"example.com/demo","name":"Parse/large","procs":2,"s":1,"i":3,"d":1,"forks":2,`, `benchmark 1: json: unknown field "forks"`},
		{"unknown field", `"seed"`, `"sed"`, `unknown field "sed"`},
		{"non-positive level", first, `{"pkg":"example.com/demo","name":"Parse/large","procs":2,"s":1,"i":0,"d":1,`, "benchmark 1 (example.com/demo.Parse/large-2): levels 1,0,1: every level must be at least 1"},
		{"missing level", `"s":1,"i":3,"d":1,`, `"s":1,"i":3,`, "levels 1,3,0"},
		{"larger than the full run", `"s":1,"i":3,"d":1,`, `"s":1,"i":3,"d":6,`, "levels 1,3,6 exceed the full run's 3,5,5"},
		{"duplicate", `"pkg":"","name":"Noisy","procs":0`, `"pkg":"example.com/demo","name":"Parse/large","procs":2`, "benchmark 2 (example.com/demo.Parse/large-2): duplicate of benchmark 1"},
		{"no name", `"name":"Noisy"`, `"name":""`, "benchmark 2: no name"},
		{"full levels", `"s": 3`, `"s": 0`, "full run: levels 0,5,5"},
		{"format", PlanFormat, "mbench-plan/v2", `format "mbench-plan/v2"`},
		{"metric", `"rciw-mean"`, `"rciw"`, `unknown stability metric "rciw"`},
		{"threshold", `"threshold": 0.01`, `"threshold": -1`, "threshold -1"},
		{"iteration time", `"50ms"`, `"50"`, "iter_time"},
		{"trailing data", "]\n}\n", "]\n}\n{}", "data after the plan"},
		{"not JSON", good, "goos: linux", "not a plan"},
		{"no benchmarks", good[strings.Index(good, "    {"):strings.Index(good, "  ]")], "", "no benchmarks"},
	} {
		in := strings.Replace(good, c.old, c.new, 1)
		if in == good {
			t.Fatalf("%s: %q not in the plan", c.name, c.old)
		}
		_, err := ReadPlan(strings.NewReader(in), "plan.json")
		if err == nil || !strings.HasPrefix(err.Error(), "plan.json: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want plan.json: …%s…", c.name, err, c.want)
		}
	}
}

func TestWritePlanRefusesInvalid(t *testing.T) {
	p := testPlan()
	p.Benchmarks[1].Levels.Forks = 6
	if err := WritePlan(&bytes.Buffer{}, p); err == nil || !strings.Contains(err.Error(), "exceed") {
		t.Errorf("WritePlan of an invalid plan: %v", err)
	}
}

// FuzzReadPlan checks that no input panics ReadPlan and that what it
// accepts writes back and reads back the same.
func FuzzReadPlan(f *testing.F) {
	var buf bytes.Buffer
	WritePlan(&buf, testPlan())
	f.Add(buf.String())
	f.Add(`{"format":"mbench-plan/v1"}`)
	f.Add(`{"format":"mbench-plan/v1","levels":{"s":1,"i":1,"d":3},"iter_time":"1s","metric":"cv","threshold":1e-300,"bootstrap":{"level":0,"replicates":0},"seed":0,"benchmarks":[{"name":"A","s":1,"i":1,"d":1}]}`)
	f.Fuzz(func(t *testing.T, in string) {
		p, err := ReadPlan(strings.NewReader(in), "fuzz")
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := WritePlan(&out, p); err != nil {
			t.Fatalf("read a plan it cannot write: %v", err)
		}
		q, err := ReadPlan(&out, "again")
		if err != nil {
			t.Fatalf("cannot read what it wrote: %v\n%s", err, out.String())
		}
		if !samePlan(p, q) {
			t.Fatalf("round trip changed the plan: %+v, %+v", p, q)
		}
	})
}

// TestPlanDocExample reads the example of docs/formats.md, so the
// documentation cannot drift from the reader.
func TestPlanDocExample(t *testing.T) {
	doc, err := os.ReadFile("../docs/formats.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	at := strings.Index(s, "## mbench plan")
	if at < 0 {
		t.Fatal(`no "## mbench plan" section`)
	}
	s = s[at:]
	start := strings.Index(s, "```json\n")
	end := strings.Index(s[start+8:], "```")
	if start < 0 || end < 0 {
		t.Fatal("no JSON example in the plan section")
	}
	p, err := ReadPlan(strings.NewReader(s[start+8:start+8+end]), "docs/formats.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Benchmarks) != 2 || p.Benchmarks[0].Levels != (bench.Levels{SuiteRuns: 1, Forks: 3, Iterations: 1}) || p.IterTime != 50*time.Millisecond {
		t.Errorf("example read as %+v", p)
	}
}

func TestWritePlanFile(t *testing.T) {
	rep, _, err := Run(fullRun("v1", 1, 1, true), "sec/op", testOptions())
	if err != nil {
		t.Fatal(err)
	}
	p := NewPlan(rep)
	path := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(path, []byte("the old plan"), 0o666); err != nil {
		t.Fatal(err)
	}
	// A plan that does not validate is not written, and the old file stays.
	if err := WritePlanFile(path, &Plan{}); err == nil {
		t.Error("WritePlanFile wrote an empty plan")
	}
	if b, _ := os.ReadFile(path); string(b) != "the old plan" {
		t.Errorf("a failed write changed the file to %q", b)
	}
	if ents, _ := os.ReadDir(filepath.Dir(path)); len(ents) != 1 {
		t.Errorf("a failed write left files: %v", ents)
	}
	if err := WritePlanFile(path, p); err != nil {
		t.Fatal(err)
	}
	got, err := ReadPlanFile(path)
	if err != nil || len(got.Benchmarks) != 3 || got.IterTime != 5*time.Millisecond {
		t.Fatalf("plan read back: %v, %+v", err, got)
	}
	// The empty path is no file, and gets none.
	dir := t.TempDir()
	t.Chdir(dir)
	if err := WritePlanFile("", p); err == nil {
		t.Error("WritePlanFile wrote a plan to the empty path")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("a write to the empty path left files: %v", ents)
	}
	// A device is written to, not replaced.
	if err := WritePlanFile(os.DevNull, p); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(os.DevNull); err != nil || st.Mode().IsRegular() {
		t.Fatalf("%s after WritePlanFile: %v, %v", os.DevNull, st.Mode(), err)
	}
}
