package history

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mbench/mbench/bench"
)

// level returns the time per op of benchmark b in run i.
type levelFunc func(b, i int) float64

// makeRuns returns n runs of the benchmarks names, each measured in forks
// processes of iters iterations with relative noise sd around level.
func makeRuns(seed uint64, n int, names []string, forks, iters int, sd float64, level levelFunc) []*bench.Run {
	r := rand.New(rand.NewPCG(seed, 1))
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	runs := make([]*bench.Run, n)
	for i := range runs {
		run := &bench.Run{ID: fmt.Sprintf("run%02d", i+1), Label: fmt.Sprintf("c%02d", i+1), Start: t0.Add(time.Duration(i) * time.Hour)}
		for b, name := range names {
			for f := range forks {
				for it := range iters {
					v := level(b, i) * (1 + sd*r.NormFloat64())
					run.Measurements = append(run.Measurements, bench.Measurement{
						Key:    bench.Key{Package: "example.com/p", Name: name, Procs: 4},
						Coord:  bench.Coord{Fork: f, Iteration: it},
						N:      1000,
						Values: []bench.Value{{Value: v * 1e-9, Unit: "sec/op"}},
					})
				}
			}
		}
		runs[i] = run
	}
	return runs
}

// step is +25% from run 7 on for benchmark 0, flat for the others.
func step(b, i int) float64 {
	if b == 0 && i >= 6 {
		return 125
	}
	return 100
}

func TestAnalyzeStep(t *testing.T) {
	runs := makeRuns(1, 12, []string{"Zeta", "Alpha"}, 3, 5, 0.03, step)
	series, err := Analyze(runs, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if len(series) != 2 || series[0].Name != "Zeta-4" || series[1].Name != "Alpha-4" || series[0].Pkg != "example.com/p" {
		t.Fatalf("series %v, want Zeta-4 then Alpha-4 of example.com/p, in input order", names(series))
	}
	z := series[0]
	if len(z.Points) != 12 {
		t.Fatalf("%d points, want 12", len(z.Points))
	}
	for _, p := range z.Points {
		if !(p.Lo < p.Center && p.Center < p.Hi) {
			t.Errorf("point %s: center %v outside its interval [%v, %v]", p.Run, p.Center, p.Lo, p.Hi)
		}
	}
	if len(z.Changes) != 1 {
		t.Fatalf("changes %+v, want one", z.Changes)
	}
	c := z.Changes[0]
	if c.Index != 6 || c.Run != "run07" || c.Label != "c07" {
		t.Errorf("change at %d (%s, %s), want 6 (run07, c07)", c.Index, c.Run, c.Label)
	}
	if math.Abs(c.Ratio-1.25) > 0.02 || !(c.Lo < c.Ratio && c.Ratio < c.Hi) || c.Lo < 1.15 || c.P > DefaultOptions.Alpha {
		t.Errorf("change ratio %v [%v, %v] p %v, want about 1.25 inside a narrow interval", c.Ratio, c.Lo, c.Hi, c.P)
	}
	if len(series[1].Changes) != 0 {
		t.Errorf("flat benchmark: changes %+v", series[1].Changes)
	}
}

func TestAnalyzeFlat(t *testing.T) {
	for seed := range uint64(20) {
		runs := makeRuns(seed, 8, []string{"A", "B", "C"}, 3, 5, 0.05, func(int, int) float64 { return 100 })
		series, err := Analyze(runs, DefaultOptions)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range series {
			if len(s.Changes) != 0 {
				t.Errorf("seed %d, %s: changes %+v in a flat series", seed, s.Name, s.Changes)
			}
		}
	}
}

// TestAnalyzeThreshold checks that a significant step within ±threshold
// is not reported, and is once the threshold is below it.
func TestAnalyzeThreshold(t *testing.T) {
	runs := makeRuns(2, 20, []string{"A"}, 3, 5, 0.002, func(_, i int) float64 {
		if i >= 10 {
			return 102
		}
		return 100
	})
	for _, c := range []struct {
		threshold float64
		want      int
	}{{0.03, 0}, {0.01, 1}} {
		opts := DefaultOptions
		opts.Threshold = c.threshold
		series, err := Analyze(runs, opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(series[0].Changes); got != c.want {
			t.Errorf("threshold %v: %d changes of a 2%% step, want %d", c.threshold, got, c.want)
		}
	}
}

func TestAnalyzeCheapIntervals(t *testing.T) {
	// More points than MaxBootstrap: t intervals over fork means.
	names := make([]string, MaxBootstrap/10+1)
	for i := range names {
		names[i] = fmt.Sprintf("B%d", i)
	}
	runs := makeRuns(3, 10, names, 3, 2, 0.03, func(int, int) float64 { return 100 })
	series, err := Analyze(runs, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range series[:5] {
		for _, p := range s.Points {
			if !(p.Lo < p.Center && p.Center < p.Hi) || p.Hi-p.Lo > 0.5*p.Center {
				t.Errorf("%s %s: interval [%v, %v] around %v", s.Name, p.Run, p.Lo, p.Hi, p.Center)
			}
		}
	}
}

func TestAnalyzeInputs(t *testing.T) {
	runs := makeRuns(4, 3, []string{"A", "Join/n=10"}, 1, 3, 0.01, step)
	opts := DefaultOptions
	opts.Bench = regexp.MustCompile(`^Join/`)
	series, err := Analyze(runs, opts)
	if err != nil || len(series) != 1 || series[0].Name != "Join/n=10-4" {
		t.Fatalf("-bench ^Join/: %v, %v", names(series), err)
	}
	// One fork: no interval.
	if p := series[0].Points[0]; !math.IsNaN(p.Lo) || !math.IsNaN(p.Hi) {
		t.Errorf("one fork: interval [%v, %v], want none", p.Lo, p.Hi)
	}
	opts.Bench = regexp.MustCompile(`Nothing`)
	if _, err := Analyze(runs, opts); err == nil || !strings.Contains(err.Error(), "Nothing") {
		t.Errorf("no match: %v", err)
	}
	if _, err := Analyze(nil, DefaultOptions); err == nil {
		t.Error("no runs: no error")
	}
	opts = DefaultOptions
	opts.Unit = "B/op"
	if _, err := Analyze(runs, opts); err == nil || !strings.Contains(err.Error(), "B/op") {
		t.Errorf("missing unit: %v", err)
	}
	opts = DefaultOptions
	opts.Unit = "ns/op"
	if s, err := Analyze(runs, opts); err != nil || s[0].Unit != "sec/op" {
		t.Errorf("ns/op: %v", err)
	}
	for _, bad := range []func(*Options){
		func(o *Options) { o.Alpha = 0 }, func(o *Options) { o.Threshold = -1 }, func(o *Options) { o.Threshold = math.NaN() },
		func(o *Options) { o.Window = 1 }, func(o *Options) { o.Permutations = -1 }, func(o *Options) { o.MinRuns = -1 },
	} {
		o := DefaultOptions
		bad(&o)
		if _, err := Analyze(runs, o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
	// A benchmark measured in some runs only has points for those.
	runs[1].Measurements = runs[1].Measurements[:3] // A only
	series, err = Analyze(runs, DefaultOptions)
	if err != nil || len(series[1].Points) != 2 || series[1].Points[1].Run != "run03" {
		t.Errorf("benchmark missing from a run: %+v, %v", series, err)
	}
}

// TestAnalyzeVersions checks that a run holding two versions, an A/B
// session, contributes its last (new) version.
func TestAnalyzeVersions(t *testing.T) {
	runs := makeRuns(5, 2, []string{"A"}, 2, 3, 0.01, func(int, int) float64 { return 100 })
	ab := makeRuns(6, 1, []string{"A"}, 2, 3, 0.01, func(int, int) float64 { return 200 })[0]
	for i := range ab.Measurements {
		ab.Measurements[i].Coord.Version = "new"
	}
	old := makeRuns(7, 1, []string{"A"}, 2, 3, 0.01, func(int, int) float64 { return 50 })[0]
	for i := range old.Measurements {
		old.Measurements[i].Coord.Version = "old"
	}
	ab.Measurements = append(old.Measurements, ab.Measurements...)
	series, err := Analyze(append(runs, ab), DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	p := series[0].Points[2]
	if math.Abs(p.Center/200e-9-1) > 0.02 || p.Label != "c01 new" {
		t.Errorf("A/B run: point %+v, want the new version's 200ns", p)
	}
}

func TestAnalyzeSeeded(t *testing.T) {
	runs := makeRuns(8, 12, []string{"A", "B"}, 3, 5, 0.03, step)
	a, _ := Analyze(runs, DefaultOptions)
	b, _ := Analyze(runs, DefaultOptions)
	var wa, wb bytes.Buffer
	Write(&wa, "json", a)
	Write(&wb, "json", b)
	if wa.String() != wb.String() {
		t.Error("one seed, two answers")
	}
}

func TestWrite(t *testing.T) {
	runs := makeRuns(1, 12, []string{"Zeta"}, 3, 5, 0.03, step)
	one := makeRuns(1, 1, []string{"Solo"}, 1, 3, 0.03, step)
	series, err := Analyze(runs, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	solo, err := Analyze(one, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	series = append(series, solo...)
	var text bytes.Buffer
	if err := Write(&text, "text", series); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"example.com/p.Zeta-4 (sec/op)", "run07  c07", "+25.", "1 change in 12 runs",
		"one run: a change needs runs before and after it"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text output lacks %q:\n%s", want, &text)
		}
	}
	var js bytes.Buffer
	if err := Write(&js, "json", series); err != nil {
		t.Fatal(err)
	}
	var got []struct {
		Pkg, Name string
		Points    []struct {
			Run, Label     string
			Center, Lo, Hi *float64
		}
		Changes []struct {
			Run, Label       string
			Ratio, Lo, Hi, P float64
		}
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, &js)
	}
	if len(got) != 2 || got[0].Name != "Zeta-4" || len(got[0].Points) != 12 || len(got[0].Changes) != 1 ||
		got[0].Changes[0].Run != "run07" || got[1].Points[0].Lo != nil || got[1].Changes == nil {
		t.Errorf("json:\n%s", &js)
	}
	var csv bytes.Buffer
	if err := Write(&csv, "csv", series); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(csv.String()), "\n")
	if len(lines) != 14 || !strings.HasPrefix(lines[0], "pkg,name,unit,run") || !strings.Contains(lines[7], "run07,c07") ||
		strings.HasSuffix(lines[7], ",,,") || !strings.HasSuffix(lines[6], ",,,,") {
		t.Errorf("csv:\n%s", &csv)
	}
	if err := Write(&csv, "xml", series); err == nil {
		t.Error("format xml: no error")
	}
}

func names(series []*Series) []string {
	var out []string
	for _, s := range series {
		out = append(out, s.Name)
	}
	return out
}

// BenchmarkAnalyze analyses the history of a suite of 1,000 benchmarks over
// 200 runs, each measured in 3 forks of 2 iterations.
func BenchmarkAnalyze(b *testing.B) {
	names := make([]string, 1000)
	for i := range names {
		names[i] = fmt.Sprintf("B%d", i)
	}
	runs := makeRuns(9, 200, names, 3, 2, 0.02, func(bi, i int) float64 {
		if bi%10 == 0 && i >= 120 {
			return 110
		}
		return 100
	})
	b.ResetTimer()
	for b.Loop() {
		if _, err := Analyze(runs, DefaultOptions); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAnalyzePermutations checks the permutation test end to end: it finds
// the step, reproducibly, at a p no smaller than 1/(1+permutations).
func TestAnalyzePermutations(t *testing.T) {
	runs := makeRuns(1, 12, []string{"Zeta"}, 3, 5, 0.03, step)
	opts := DefaultOptions
	opts.Permutations, opts.Alpha = 199, 0.01
	a, err := Analyze(runs, opts)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Analyze(runs, opts)
	if len(a[0].Changes) != 1 || a[0].Changes[0].Index != 6 || a[0].Changes[0].P < 1.0/200 {
		t.Fatalf("changes %+v, want one at 6 with p ≥ 1/200", a[0].Changes)
	}
	if a[0].Changes[0] != b[0].Changes[0] {
		t.Errorf("one seed, two answers: %+v, %+v", a[0].Changes[0], b[0].Changes[0])
	}
}

// TestWriteTooFew checks that a history too short for a step to show says
// so, with how many runs it needs, and never "no change": four runs whose
// time doubles after the second hold no step that three runs on each side
// could show. With -min-runs 1 the same runs show it.
func TestWriteTooFew(t *testing.T) {
	double := func(b, i int) float64 {
		if i >= 2 {
			return 200
		}
		return 100
	}
	runs := makeRuns(1, 4, []string{"Doubles"}, 3, 5, 0.01, double)
	summary := func(o Options) string {
		t.Helper()
		series, err := Analyze(runs, o)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := Write(&b, "text", series); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(b.String()), "\n")
		return lines[len(lines)-1]
	}
	want := "too few runs to see a step: 4 runs, and a step needs 3 runs on each side (6 in all)"
	if got := summary(DefaultOptions); got != want {
		t.Errorf("default options: %q, want %q", got, want)
	}
	o := DefaultOptions
	o.MinRuns = 1
	if got := summary(o); got != "1 change in 4 runs" {
		t.Errorf("min runs 1: %q, want one change", got)
	}
	// Enough runs, and a tail too short to show a step after it.
	flat := makeRuns(1, 7, []string{"Flat"}, 3, 5, 0.01, func(b, i int) float64 { return 100 })
	series, err := Analyze(flat, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	want = "no change in 7 runs; a step in the last 2 runs would not show yet (it needs 3 runs after it)"
	if got := Summary(series[0]); got != want {
		t.Errorf("flat: %q, want %q", got, want)
	}
	var js bytes.Buffer
	if err := Write(&js, "json", series); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"min_runs": 3`) {
		t.Errorf("json lacks min_runs:\n%s", &js)
	}
}
