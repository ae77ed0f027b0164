package optimize

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/mbench/mbench/bench"
)

// fullRun returns a run as `mbench run -levels 2,3,4 -iter 5ms` stores it,
// labelled label, of three benchmarks with lognormal noise drawn from seed:
// Quiet (0.1%), Noisy (5%) and Moving (0.1%, its level times factor).
// settings false leaves out the settings, as in a run of another kind.
func fullRun(label string, seed uint64, factor float64, settings bool) *bench.Run {
	r := newRand(seed)
	run := &bench.Run{Label: label}
	if settings {
		run.Settings = map[string]string{bench.SettingLevels: "2,3,4", bench.SettingIter: "5ms"}
	}
	for _, b := range []struct {
		name         string
		level, noise float64
	}{{"Quiet", 1e-6, 0.001}, {"Noisy", 2e-6, 0.05}, {"Moving", 3e-6 * factor, 0.001}} {
		key := bench.Key{Package: "example.com/p", Name: b.name, Procs: 2}
		fork := 0
		for s := range 2 {
			for range 3 {
				fork++
				for it := range 1 + 4 {
					m := bench.Measurement{Key: key, N: 1000, Coord: bench.Coord{SuiteRun: s + 1, Fork: fork, Iteration: it}}
					if it == 0 {
						m.Coord.Phase = bench.Warmup
					}
					v := b.level * math.Exp(b.noise*r.NormFloat64())
					m.Values = []bench.Value{{Value: v, Unit: "sec/op"}}
					run.Measurements = append(run.Measurements, m)
				}
			}
		}
	}
	return run
}

// testOptions are DefaultOptions with fewer replicates, for speed.
func testOptions() Options {
	o := DefaultOptions
	o.Bootstrap.Replicates = 1000
	o.Threshold = 0.02
	return o
}

func TestOptimizeRun(t *testing.T) {
	for _, unit := range []string{"sec/op", "ns/op"} {
		rep, warnings, err := Run(fullRun("v1", 1, 1, true), unit, testOptions())
		if err != nil || len(warnings) > 0 {
			t.Fatalf("%s: %v, warnings %v", unit, err, warnings)
		}
		if rep.Unit != "sec/op" || rep.Options.IterTime != 5*time.Millisecond || rep.Levels != (bench.Levels{SuiteRuns: 2, Forks: 3, Iterations: 4}) {
			t.Errorf("%s: unit %q, iteration %v, levels %v; want sec/op, 5ms, 2,3,4", unit, rep.Unit, rep.Options.IterTime, rep.Levels)
		}
		if len(rep.Results) != 3 {
			t.Fatalf("%s: %d results, want 3", unit, len(rep.Results))
		}
		byName := map[string]Result{}
		for _, r := range rep.Results {
			byName[r.Key.Name] = r
		}
		if q, n := byName["Quiet"].Plan, byName["Noisy"].Plan; !q.Stable || q.Levels.Total() >= n.Levels.Total() {
			t.Errorf("%s: Quiet's plan %+v should be stable and cheaper than Noisy's %+v", unit, q, n)
		}
		p := NewPlan(rep)
		if len(p.Benchmarks) != 3 || p.IterTime != 5*time.Millisecond {
			t.Errorf("%s: plan of %d benchmarks at %v, want 3 at 5ms", unit, len(p.Benchmarks), p.IterTime)
		}
	}
	// An iteration time given wins over the run's.
	opts := testOptions()
	opts.IterTime = time.Second
	if rep, _, err := Run(fullRun("v1", 1, 1, true), "sec/op", opts); err != nil || rep.Options.IterTime != time.Second {
		t.Errorf("IterTime given: %v, %v", err, rep.Options.IterTime)
	}
}

// TestOptimizeRunOtherRun checks a run without the settings of `mbench run
// -levels`: levels and iteration count come from the data, with warnings
// that name the run.
func TestOptimizeRunOtherRun(t *testing.T) {
	rep, warnings, err := Run(fullRun("bare.jsonl", 1, 1, false), "sec/op", testOptions())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"bare.jsonl: not a run of mbench run -levels; levels are inferred from the coordinates",
		"bare.jsonl: no iteration time recorded; times are reported in iterations of unknown length",
	}
	if len(warnings) != len(want) {
		t.Fatalf("warnings %v, want %q", warnings, want)
	}
	for i, w := range warnings {
		if w.Error() != want[i] {
			t.Errorf("warning %d: %q, want %q", i, w, want[i])
		}
	}
	if rep.Levels != (bench.Levels{SuiteRuns: 2, Forks: 3, Iterations: 4}) || rep.Options.IterTime != 0 {
		t.Errorf("levels %v, iteration %v; want 2,3,4 inferred and 0", rep.Levels, rep.Options.IterTime)
	}
	var text bytes.Buffer
	if err := rep.Write(&text, Text); err != nil || !strings.Contains(text.String(), "72 iters") {
		t.Errorf("text without an iteration time should count iterations (72 of the full run): %v\n%s", err, &text)
	}
}

func TestOptimizeRunErrors(t *testing.T) {
	badLevels := fullRun("v1", 1, 1, true)
	badLevels.Settings[bench.SettingLevels] = "2,x,4"
	bad := testOptions()
	bad.Threshold = math.NaN()
	for _, c := range []struct {
		run  *bench.Run
		unit string
		opts Options
		want string
	}{
		{badLevels, "sec/op", testOptions(), `v1: levels setting "2,x,4"`},
		{fullRun("v1", 1, 1, true), "B/op", testOptions(), "v1: no benchmark with complete B/op measurements"},
		{fullRun("v1", 1, 1, true), "sec/op", bad, "threshold NaN: "},
	} {
		if _, _, err := Run(c.run, c.unit, c.opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one containing %q", err, c.want)
		}
	}
	if _, err := IterTime(&bench.Run{Settings: map[string]string{bench.SettingIter: "soon"}}); err == nil || !strings.Contains(err.Error(), `"soon"`) {
		t.Errorf("IterTime of an unparsable setting: %v", err)
	}
}

// TestReplayRuns replays two versions in which Moving got 20% slower: the
// full configuration detects it, and a plan made of the first run, given
// or not, gives the same report.
func TestReplayRuns(t *testing.T) {
	runs := []*bench.Run{fullRun("v1", 1, 1, true), fullRun("v2", 2, 1.2, true)}
	opts, ro := testOptions(), DefaultReplayOptions
	ro.Bootstrap.Replicates = 1000
	rr, warnings, err := ReplayRuns(runs, "sec/op", nil, opts, ro)
	if err != nil || len(warnings) > 0 {
		t.Fatalf("ReplayRuns: %v, warnings %v", err, warnings)
	}
	if len(rr.Pairs) != 1 || rr.Pairs[0].Old != "v1" || rr.Pairs[0].New != "v2" || len(rr.Pairs[0].Comparisons) != 3 {
		t.Fatalf("pairs %+v, want v1 → v2 with 3 comparisons", rr.Pairs)
	}
	for _, c := range rr.Pairs[0].Comparisons {
		if want := c.Key.Name == "Moving"; (c.Full.Direction == Slower) != want {
			t.Errorf("%s: full detection %v, change %.3f", c.Key.Name, c.Full.Direction, c.Full.Change)
		}
	}
	rep, _, err := Run(runs[0], "sec/op", opts)
	if err != nil {
		t.Fatal(err)
	}
	given, _, err := ReplayRuns(runs, "sec/op", NewPlan(rep), opts, ro)
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	rr.Write(&a, JSON)
	given.Write(&b, JSON)
	if a.String() != b.String() {
		t.Errorf("replay with the plan of the first run differs from replay without a plan:\n%s\n%s", &a, &b)
	}

	bad := ro
	bad.MinChange = math.Inf(1)
	for _, c := range []struct {
		runs []*bench.Run
		ro   ReplayOptions
		want string
	}{
		{runs[:1], ro, "1 full runs, need at least two"},
		{runs, bad, "min-change +Inf: "},
	} {
		if _, _, err := ReplayRuns(c.runs, "sec/op", nil, opts, c.ro); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one containing %q", err, c.want)
		}
	}
}

// TestReportFormats checks that the JSON forms are valid JSON with null
// where a number is not finite, and that the text forms carry their
// tables.
func TestReportFormats(t *testing.T) {
	runs := []*bench.Run{fullRun("v1", 1, 1, true), fullRun("v2", 2, 1.2, true)}
	rep, _, err := Run(runs[0], "sec/op", testOptions())
	if err != nil {
		t.Fatal(err)
	}
	var js bytes.Buffer
	if err := rep.Write(&js, JSON); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Metric     string
		Benchmarks []struct {
			Full struct{ Metric *float64 }
		}
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil || doc.Metric != "rciw-mean" || len(doc.Benchmarks) != 3 {
		t.Fatalf("report JSON: %v, %+v\n%s", err, doc, &js)
	}
	nulls := 0
	for k, b := range doc.Benchmarks {
		if math.IsNaN(rep.Results[k].Full.Metric) != (b.Full.Metric == nil) {
			t.Errorf("benchmark %d: full metric %v in JSON for %v", k, b.Full.Metric, rep.Results[k].Full.Metric)
		}
		if b.Full.Metric == nil {
			nulls++
		}
	}
	if nulls == 0 {
		t.Error("no full metric was left uncomputed; the test does not exercise null")
	}
	var text bytes.Buffer
	if err := rep.Write(&text, Text); err != nil || !strings.Contains(text.String(), "full configuration 2,3,4 (suite runs × forks × iterations) of 5ms") ||
		!strings.Contains(text.String(), "within 3%") {
		t.Errorf("report text: %v\n%s", err, &text)
	}

	rr, _, err := ReplayRuns(runs, "sec/op", nil, testOptions(), DefaultReplayOptions)
	if err != nil {
		t.Fatal(err)
	}
	js.Reset()
	if err := rr.Write(&js, JSON); err != nil || !json.Valid(js.Bytes()) || !strings.Contains(js.String(), `"outcome": "true-positive"`) {
		t.Errorf("replay JSON: %v\n%s", err, &js)
	}
	text.Reset()
	if err := rr.Write(&text, Text); err != nil || !strings.Contains(text.String(), "v1 → v2 example.com/p.Moving-2: full slower +") {
		t.Errorf("replay text: %v\n%s", err, &text)
	}
	if err := rep.Write(&text, "xml"); err == nil {
		t.Error("Write accepted format xml")
	}
}
