package optimize

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mbench/mbench/bench"
)

// synthInstances returns a benchmark measured on n instances in levels l:
// instance levels vary by relative spread inst around level, then as synth.
func synthInstances(r *rand.Rand, name string, n int, l bench.Levels, level, inst, within, between float64) *Benchmark {
	b := &Benchmark{Key: bench.Key{Package: "example.com/synth", Name: name, Procs: 2}, Levels: l, Instances: n}
	for range n {
		one := synth(r, name, l, level*math.Exp(inst*r.NormFloat64()), within, between)
		b.Values = append(b.Values, one.Values...)
	}
	return b
}

func TestInstancePrefix(t *testing.T) {
	vals := make([][][][]float64, 2)
	for k := range vals {
		vals[k] = make([][][]float64, 2)
		for s := range vals[k] {
			vals[k][s] = make([][]float64, 2)
			for i := range vals[k][s] {
				for d := range 3 {
					vals[k][s][i] = append(vals[k][s][i], float64(1000*k+100*s+10*i+d))
				}
			}
		}
	}
	b, err := NewInstancesBenchmark(bench.Key{Name: "X"}, vals)
	if err != nil {
		t.Fatal(err)
	}
	l := bench.Levels{SuiteRuns: 1, Forks: 2, Iterations: 2}
	if got, want := b.InstancePrefix(nil, 1, l), []float64{0, 1, 10, 11}; !equal(got, want) {
		t.Errorf("InstancePrefix(1, %v) = %v, want %v", l, got, want)
	}
	if got, want := b.Prefix(nil, l), []float64{0, 1, 10, 11, 1000, 1001, 1010, 1011}; !equal(got, want) {
		t.Errorf("Prefix(%v) = %v, want %v", l, got, want)
	}
	if _, err := NewInstancesBenchmark(bench.Key{Name: "X"}, [][][][]float64{vals[0], vals[1][:1]}); err == nil || !strings.Contains(err.Error(), "instance 1 has 1 suite runs") {
		t.Errorf("ragged instances: error %v", err)
	}
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestOptimizeInstances: benchmarks measured on 4 instances in 3×5×5, 1%
// noise within forks. Whether the plan needs several instances depends only
// on how much the instances differ: not at all, one instance suffices; by
// 0.3% (so that one instance's 99% interval is about 1.5% wide), a few
// make the mean stable at 1%; by 5%, no configuration is stable and the
// plan keeps every instance.
func TestOptimizeInstances(t *testing.T) {
	l := bench.Levels{SuiteRuns: 3, Forks: 5, Iterations: 5}
	opts := DefaultOptions
	opts.Bootstrap.Replicates = 2000
	for _, c := range []struct {
		name     string
		inst     float64
		min, max int // instances of the plan
		stable   bool
	}{
		{"agree", 0, 1, 1, true},
		{"differ a little", 0.003, 2, 4, true},
		{"differ", 0.05, 4, 4, false},
	} {
		r := newRand(31)
		var bs []*Benchmark
		for k := range 3 {
			bs = append(bs, synthInstances(r, c.name+string(rune('A'+k)), 4, l, 1e-6, c.inst, 0.01, 0.002))
		}
		rep, err := Optimize(bs, opts)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Instances != 4 {
			t.Errorf("%s: report of %d instances, want 4", c.name, rep.Instances)
		}
		for _, res := range rep.Results {
			t.Logf("%s: %s: plan %d×%v metric %.4f stable %v", c.name, res.Key.Name, res.Plan.Instances, res.Plan.Levels, res.Plan.Metric, res.Plan.Stable)
			if n := res.Plan.Instances; n < c.min || n > c.max || res.Plan.Stable != c.stable {
				t.Errorf("%s: %s: plan on %d instances (stable %v), want %d–%d (stable %v)", c.name, res.Key.Name, n, res.Plan.Stable, c.min, c.max, c.stable)
			}
			if res.Full.Instances != 4 || res.Full.cost() != 4*l.Total() {
				t.Errorf("%s: full configuration on %d instances costing %d", c.name, res.Full.Instances, res.Full.cost())
			}
		}
		if c.name == "differ" {
			continue
		}
		// The plan survives a round trip, instances included, and a run
		// of it on one machine says what to do.
		plan := NewPlan(rep)
		var buf bytes.Buffer
		if err := WritePlan(&buf, plan); err != nil {
			t.Fatal(err)
		}
		back, err := ReadPlan(&buf, "plan.json")
		if err != nil {
			t.Fatal(err)
		}
		if back.Instances != 4 || max(1, back.Benchmarks[0].Instances) != plan.Benchmarks[0].Instances {
			t.Errorf("%s: read back %d instances, benchmark %d; wrote 4, %d", c.name, back.Instances, back.Benchmarks[0].Instances, plan.Benchmarks[0].Instances)
		}
		note := back.InstanceNote()
		if c.min == 1 && note != "" || c.min > 1 && !strings.Contains(note, "this run measures one") {
			t.Errorf("%s: instance note %q", c.name, note)
		}
	}
}

// TestSearchMatchesExhaustiveInstances: with instances as a level the
// search still gives the exhaustive answer.
func TestSearchMatchesExhaustiveInstances(t *testing.T) {
	l := bench.Levels{SuiteRuns: 2, Forks: 3, Iterations: 3}
	opts := DefaultOptions
	opts.Bootstrap.Replicates = 500
	for _, m := range []Metric{RCIWMean, RCIWMedian, RCIWT, CV} {
		opts.Metric = m
		r := newRand(5)
		for k, inst := range []float64{0, 0.003, 0.02} {
			b := synthInstances(r, "X", 3, l, 1, inst, 0.01, 0.002)
			cs := candidates(b.Levels, 0)
			got := optimizeOne(newEvaluator(m, opts.Bootstrap), b, cs, &opts, false)
			want := optimizeOne(newEvaluator(m, opts.Bootstrap), b, cs, &opts, true)
			if got.Plan != want.Plan && !(same(got.Plan.Metric, want.Plan.Metric) && got.Plan.Levels == want.Plan.Levels && got.Plan.Instances == want.Plan.Instances) {
				t.Errorf("%v, case %d: search %+v, exhaustive %+v", m, k, got.Plan, want.Plan)
			}
		}
	}
}

// TestPlanInstancesFormat: a plan of one instance is written as before
// (no "instances"), one of several names them at the full run and at each
// benchmark that needs more than one, and a plan without the field reads as
// one instance.
func TestPlanInstancesFormat(t *testing.T) {
	p := &Plan{Levels: bench.Levels{SuiteRuns: 3, Forks: 5, Iterations: 5}, Metric: RCIWMean, Threshold: 0.01,
		Bootstrap: DefaultOptions.Bootstrap, Seed: 1,
		Benchmarks: []PlanBenchmark{{Key: bench.Key{Package: "p", Name: "A", Procs: 2}, Levels: bench.Levels{SuiteRuns: 1, Forks: 3, Iterations: 2}, Metric: 0.005, Stable: true}}}
	var one bytes.Buffer
	if err := WritePlan(&one, p); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(one.String(), "instances") {
		t.Errorf("plan of one instance mentions instances:\n%s", one.String())
	}
	back, err := ReadPlan(&one, "old.json")
	if err != nil || back.Instances != 0 || back.MaxInstances() != 1 || back.InstanceNote() != "" {
		t.Errorf("plan without instances: %v, instances %d, max %d, note %q", err, back.Instances, back.MaxInstances(), back.InstanceNote())
	}

	p.Instances = 3
	p.Benchmarks[0].Instances = 2
	var many bytes.Buffer
	if err := WritePlan(&many, p); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"levels": {` + "\n" + `    "instances": 3,`, `"procs":2,"instances":2,"s":1`} {
		if !strings.Contains(many.String(), want) {
			t.Errorf("plan of 3 instances lacks %q:\n%s", want, many.String())
		}
	}
	back, err = ReadPlan(&many, "new.json")
	if err != nil || back.Instances != 3 || back.Benchmarks[0].Instances != 2 {
		t.Fatalf("read back: %v, %+v", err, back)
	}
	if note := back.InstanceNote(); !strings.Contains(note, "up to 2 instances") || !strings.Contains(note, "run it on 2 machines under one -label") {
		t.Errorf("note %q", note)
	}

	p.Benchmarks[0].Instances = 4
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "4 instances") {
		t.Errorf("more instances than the full run: %v", err)
	}
	p.Benchmarks[0].Instances, p.Instances = 1, -1
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "-1 instances") {
		t.Errorf("negative instances: %v", err)
	}
}

// TestReplayInstances: versions measured on two instances that agree; the
// new version is 20% slower. The full configuration detects it, and so does
// a plan that is the full configuration (the same intervals); a plan on
// one instance is compared on the first; a plan on more instances than a
// version has is not compared.
func TestReplayInstances(t *testing.T) {
	l := bench.Levels{SuiteRuns: 2, Forks: 5, Iterations: 5}
	r := newRand(8)
	version := func(label string, level float64) Version {
		b := synthInstances(r, "X", 2, l, level, 0, 0.01, 0.002)
		return Version{Label: label, Benchmarks: []*Benchmark{b}}
	}
	vs := []Version{version("v1", 1), version("v2", 1.2)}
	plan := &Plan{Levels: l, Instances: 2, Metric: RCIWMean, Threshold: 0.01, Bootstrap: DefaultOptions.Bootstrap,
		Benchmarks: []PlanBenchmark{{Key: vs[0].Benchmarks[0].Key, Levels: l, Instances: 2, Stable: true}}}
	ro := DefaultReplayOptions
	ro.Bootstrap.Replicates = 1000
	rep, warns, err := Replay(vs, plan, ro)
	if err != nil || len(warns) > 0 {
		t.Fatalf("Replay: %v, warnings %v", err, warns)
	}
	c := rep.Pairs[0].Comparisons[0]
	if c.Instances != 2 || c.Full.Direction != Slower || c.Plan != c.Full {
		t.Errorf("20%% slower on two instances, plan = full: %+v", c)
	}
	plan.Benchmarks[0].Instances = 1
	rep, _, err = Replay(vs, plan, ro)
	if err != nil {
		t.Fatal(err)
	}
	c = rep.Pairs[0].Comparisons[0]
	first := &Benchmark{Key: c.Key, Levels: l, Values: vs[0].Benchmarks[0].Values[:l.Total()]}
	want := ro.Bootstrap.Percentile(first.Values, ro.Stat, newRand(1))
	if c.Instances != 0 || c.Plan.Direction != Slower || c.Plan.Old.Center != want.Center {
		t.Errorf("plan on one instance: %+v; want the first instance's mean %v", c, want.Center)
	}
	plan.Instances, plan.Benchmarks[0].Instances = 3, 3
	rep, warns, err = Replay(vs, plan, ro)
	if err != nil || len(warns) != 2 || !strings.Contains(warns[0].Error(), "the plan's 3 instances exceed version v1's 2") || len(rep.Pairs[0].Comparisons) != 0 {
		t.Errorf("plan of 3 instances on 2: %v, warnings %v", err, warns)
	}
}

// TestOptimizeRunInstances: a run gathered from two machines, as
// store.Gather gives it, is optimised with instances as a level.
func TestOptimizeRunInstances(t *testing.T) {
	key := bench.Key{Package: "p", Name: "X", Procs: 2}
	r := newRand(4)
	run := &bench.Run{Label: "full", Settings: map[string]string{bench.SettingLevels: "2,3,4", bench.SettingIter: "10ms"}}
	for k, inst := range []string{"vm-1", "vm-2"} {
		ms := runOf(key, inst, 1, grid(2, 3, 4))
		for i := range ms {
			ms[i].Values[0].Value = 1e-6 * (1 + 0.01*r.NormFloat64())
			// Gathering runs numbers the suite runs of the second
			// after those of the first.
			ms[i].Coord.SuiteRun += 2 * k
		}
		run.Measurements = append(run.Measurements, ms...)
	}
	opts := DefaultOptions
	opts.Bootstrap.Replicates = 500
	rep, warns, err := Run(run, "ns/op", opts)
	if err != nil || len(warns) > 0 {
		t.Fatalf("Run: %v, warnings %v", err, warns)
	}
	if rep.Instances != 2 || rep.Results[0].Full.Instances != 2 || rep.FullIterations != 2*24 {
		t.Errorf("report of %d instances, full %d, %d iterations; want 2, 2, 48", rep.Instances, rep.Results[0].Full.Instances, rep.FullIterations)
	}
	var text bytes.Buffer
	if err := rep.Write(&text, Text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "full configuration 2×2,3,4 (instances × suite runs × forks × iterations)") {
		t.Errorf("text does not name the instances:\n%s", text.String())
	}
}
