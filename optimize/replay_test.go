package optimize

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/stats"
)

// level returns a 1×forks×iters benchmark whose values are at v, except
// the first n iterations of fork 0 (the prefix of plan 1,1,3), which are at
// first; every value jitters by ±0.2% so that intervals have a width.
func level(name string, forks, iters int, v, first float64, n int) *Benchmark {
	b := &Benchmark{Key: bench.Key{Package: "p", Name: name}, Levels: bench.Levels{SuiteRuns: 1, Forks: forks, Iterations: iters}}
	for k := range forks * iters {
		x := v
		if k < n {
			x = first
		}
		b.Values = append(b.Values, x*(1+0.001*float64(k%5-2)))
	}
	return b
}

// TestReplayKnown replays hand-built versions whose answers are known. The
// plan measures 1,1,3 (the first three iterations of the first fork) of a
// 1,3,5 run. From v1 (everything at 100) to v2:
//
//	Slower      all at 110                       full slower, plan slower: TP
//	Small       all at 102: intervals apart,     both unchanged: TN
//	            but a change under 3%
//	Faster      all at 90                        both faster: TP
//	FalseAlarm  prefix at 110, the rest at 100   full +2% unchanged, plan slower: FP
//	Missed      prefix at 100, the rest at 125   full +20% slower, plan unchanged: FN
//	Reversed    prefix at 90, the rest at 130    full +22% slower, plan faster: FN, reversed
//
// (The full intervals of Missed and Reversed stay above v1's: a resample
// of 15 holds at most 7 of the 3 prefix values in 99.5% of replicates.)
// v3 repeats v2 without Slower and with Extra, which is not in the plan:
// five comparisons, all unchanged.
func TestReplayKnown(t *testing.T) {
	v1, v2 := Version{Label: "v1"}, Version{Label: "v2"}
	for _, c := range []struct {
		name       string
		v2, v2pref float64
	}{
		{"Slower", 110, 110},
		{"Small", 102, 102},
		{"Faster", 90, 90},
		{"FalseAlarm", 100, 110},
		{"Missed", 125, 100},
		{"Reversed", 130, 90},
	} {
		v1.Benchmarks = append(v1.Benchmarks, level(c.name, 3, 5, 100, 100, 3))
		v2.Benchmarks = append(v2.Benchmarks, level(c.name, 3, 5, c.v2, c.v2pref, 3))
	}
	v3 := Version{Label: "v3", Benchmarks: append(slices.Clone(v2.Benchmarks[1:]), level("Extra", 3, 5, 100, 100, 3))}
	plan := &Plan{Levels: bench.Levels{SuiteRuns: 1, Forks: 3, Iterations: 5}, Metric: RCIWMean, Threshold: 0.01, Bootstrap: stats.DefaultBootstrap}
	for _, b := range v1.Benchmarks {
		plan.Benchmarks = append(plan.Benchmarks, PlanBenchmark{Key: b.Key, Levels: bench.Levels{SuiteRuns: 1, Forks: 1, Iterations: 3}, Stable: true})
	}

	rep, warns, err := Replay([]Version{v1, v2, v3}, plan, DefaultReplayOptions)
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 1 || !strings.Contains(warns[0].Error(), "p.Extra: not in the plan") {
		t.Errorf("warnings %v, want one about Extra", warns)
	}
	if len(rep.Pairs) != 2 || rep.Pairs[0].Old != "v1" || rep.Pairs[0].New != "v2" || rep.Pairs[1].Old != "v2" {
		t.Fatalf("pairs %+v", rep.Pairs)
	}
	want := map[string]struct {
		full, plan Direction
		outcome    Outcome
	}{
		"Slower":     {Slower, Slower, TruePositive},
		"Small":      {Unchanged, Unchanged, TrueNegative},
		"Faster":     {Faster, Faster, TruePositive},
		"FalseAlarm": {Unchanged, Slower, FalsePositive},
		"Missed":     {Slower, Unchanged, FalseNegative},
		"Reversed":   {Slower, Faster, FalseNegative},
	}
	p := rep.Pairs[0]
	if len(p.Comparisons) != len(want) {
		t.Fatalf("%d comparisons, want %d", len(p.Comparisons), len(want))
	}
	for _, c := range p.Comparisons {
		w := want[c.Key.Name]
		if c.Full.Direction != w.full || c.Plan.Direction != w.plan || c.Outcome() != w.outcome || c.Levels != (bench.Levels{SuiteRuns: 1, Forks: 1, Iterations: 3}) {
			t.Errorf("%s: full %v (%+.3f, %v vs %v) plan %v (%+.3f) → %v; want %v %v → %v",
				c.Key.Name, c.Full.Direction, c.Full.Change, c.Full.Old, c.Full.New, c.Plan.Direction, c.Plan.Change, c.Outcome(), w.full, w.plan, w.outcome)
		}
	}
	if want := (Counts{TP: 2, FP: 1, FN: 2, TN: 1, Reversed: 1}); p.Counts != want {
		t.Errorf("v1→v2 counts %+v, want %+v", p.Counts, want)
	}
	if p.Counts.FPR() != 0.5 || p.Counts.FNR() != 0.5 {
		t.Errorf("FPR %v FNR %v, want 0.5 and 0.5", p.Counts.FPR(), p.Counts.FNR())
	}
	q := rep.Pairs[1]
	if len(q.Comparisons) != 5 || q.Counts != (Counts{TN: 5}) || !math.IsNaN(q.Counts.FNR()) || q.Counts.FPR() != 0 {
		t.Errorf("v2→v3: %d comparisons, counts %+v", len(q.Comparisons), q.Counts)
	}
	if rep.Counts != (Counts{TP: 2, FP: 1, FN: 2, TN: 6, Reversed: 1}) {
		t.Errorf("total counts %+v", rep.Counts)
	}
}

// TestReplayFullPlan checks that a plan of full configurations agrees with
// the full configuration everywhere: both use the same stream, so even the
// intervals are identical.
func TestReplayFullPlan(t *testing.T) {
	r := newRand(9)
	var vs []Version
	for v := range 3 {
		ver := Version{Label: fmt.Sprint("v", v)}
		for k := range 8 {
			ver.Benchmarks = append(ver.Benchmarks, synth(r, fmt.Sprint("B", k), bench.Levels{SuiteRuns: 2, Forks: 3, Iterations: 4}, 100*(1+0.05*float64(v*k%3)), 0.01, 0.002))
		}
		vs = append(vs, ver)
	}
	plan := &Plan{Levels: bench.Levels{SuiteRuns: 2, Forks: 3, Iterations: 4}, Metric: CV, Threshold: 0.01}
	for _, b := range vs[0].Benchmarks {
		plan.Benchmarks = append(plan.Benchmarks, PlanBenchmark{Key: b.Key, Levels: b.Levels})
	}
	opts := DefaultReplayOptions
	opts.Bootstrap.Replicates = 1000
	rep, warns, err := Replay(vs, plan, opts)
	if err != nil || len(warns) > 0 {
		t.Fatalf("Replay: %v, %v", err, warns)
	}
	if rep.Counts.FP+rep.Counts.FN != 0 || rep.Counts.TP == 0 || rep.Counts.TN == 0 {
		t.Errorf("counts %+v, want only true outcomes of both kinds", rep.Counts)
	}
	for _, p := range rep.Pairs {
		for _, c := range p.Comparisons {
			if c.Full != c.Plan {
				t.Errorf("%s: full %+v, plan %+v", c.Key, c.Full, c.Plan)
			}
		}
	}
}

func TestReplayProblems(t *testing.T) {
	a := level("A", 3, 5, 100, 100, 3)
	short := level("A", 2, 5, 100, 100, 3)
	plan := &Plan{Levels: bench.Levels{SuiteRuns: 1, Forks: 3, Iterations: 5}, Metric: CV, Threshold: 0.01,
		Benchmarks: []PlanBenchmark{{Key: a.Key, Levels: bench.Levels{SuiteRuns: 1, Forks: 3, Iterations: 1}}}}
	rep, warns, err := Replay([]Version{{"v1", []*Benchmark{a}}, {"v2", []*Benchmark{short}}}, plan, DefaultReplayOptions)
	if err != nil || len(rep.Pairs[0].Comparisons) != 0 || len(warns) != 1 || !strings.Contains(warns[0].Error(), "levels 1,3,1 exceed version v2's 1,2,5") {
		t.Errorf("plan beyond a version's data: %v, warnings %v", err, warns)
	}
	for name, c := range map[string]struct {
		vs   []Version
		plan *Plan
		edit func(*ReplayOptions)
		want string
	}{
		"one version": {[]Version{{"v1", []*Benchmark{a}}}, plan, func(*ReplayOptions) {}, "1 versions"},
		"duplicate":   {[]Version{{"v1", []*Benchmark{a, a}}, {"v2", nil}}, plan, func(*ReplayOptions) {}, "version v1: benchmark p.A given twice"},
		"bad plan":    {[]Version{{"v1", nil}, {"v2", nil}}, &Plan{}, func(*ReplayOptions) {}, "plan: full run"},
		"level":       {[]Version{{"v1", nil}, {"v2", nil}}, plan, func(o *ReplayOptions) { o.Bootstrap.Level = 0 }, "level 0"},
		"stat":        {[]Version{{"v1", nil}, {"v2", nil}}, plan, func(o *ReplayOptions) { o.Stat = 7 }, "unknown statistic"},
		"level NaN":   {[]Version{{"v1", nil}, {"v2", nil}}, plan, func(o *ReplayOptions) { o.Bootstrap.Level = math.NaN() }, "level NaN: "},
		"reps":        {[]Version{{"v1", nil}, {"v2", nil}}, plan, func(o *ReplayOptions) { o.Bootstrap.Replicates = 1e12 }, "reps 1000000000000: "},
		"change NaN":  {[]Version{{"v1", nil}, {"v2", nil}}, plan, func(o *ReplayOptions) { o.MinChange = math.NaN() }, "min-change NaN: "},
		"change Inf":  {[]Version{{"v1", nil}, {"v2", nil}}, plan, func(o *ReplayOptions) { o.MinChange = math.Inf(1) }, "min-change +Inf: "},
		"change < 0":  {[]Version{{"v1", nil}, {"v2", nil}}, plan, func(o *ReplayOptions) { o.MinChange = -0.01 }, "min-change -0.01: "},
		"workers":     {[]Version{{"v1", nil}, {"v2", nil}}, plan, func(o *ReplayOptions) { o.Workers = -1 }, "workers -1: "},
	} {
		opts := DefaultReplayOptions
		c.edit(&opts)
		if _, _, err := Replay(c.vs, c.plan, opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", name, err, c.want)
		}
	}
}

// TestDetect checks the rule on intervals given by hand: no overlap and a
// change of at least MinChange, in either direction; touching intervals
// overlap; NaN bounds detect nothing.
func TestDetect(t *testing.T) {
	iv := func(lo, c, hi float64) stats.Interval { return stats.Interval{Center: c, Lo: lo, Hi: hi, Level: 0.99} }
	for _, c := range []struct {
		old, new stats.Interval
		want     Direction
	}{
		{iv(99, 100, 101), iv(102, 103, 104), Slower},
		{iv(99, 100, 101), iv(96, 97, 98), Faster},
		{iv(99, 100, 101), iv(101, 103, 104), Unchanged}, // touching
		{iv(99, 100, 101), iv(101.5, 102, 102.5), Unchanged},
		{iv(99, 100, 101), iv(math.NaN(), 110, math.NaN()), Unchanged},
	} {
		if d := detect(c.old, c.new, 0.03); d.Direction != c.want {
			t.Errorf("%v → %v: %v (change %v), want %v", c.old, c.new, d.Direction, d.Change, c.want)
		}
	}
	for d, s := range map[Direction]string{Slower: "slower", Faster: "faster", Unchanged: "unchanged"} {
		if d.String() != s {
			t.Errorf("%d.String() = %q", d, d.String())
		}
	}
}
