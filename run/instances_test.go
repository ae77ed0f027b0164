package run

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/optimize"
)

// TestPreparePlanInstances: a plan that asks for three instances is run on
// the one machine there is, with one warning that says how to run it.
func TestPreparePlanInstances(t *testing.T) {
	st := &memStore{}
	j := fixtureJob(t, st)
	j.Bench = "Sum|Loop"
	l := bench.Levels{SuiteRuns: 1, Forks: 1, Iterations: 1}
	j.Plan = &optimize.Plan{Levels: l, Instances: 3, IterTime: 3 * time.Millisecond,
		Benchmarks: []optimize.PlanBenchmark{
			{Key: bench.Key{Package: "example.com/fixture", Name: "Sum", Procs: 64}, Levels: l, Instances: 3},
			{Key: bench.Key{Package: "example.com/fixture", Name: "Loop", Procs: 64}, Levels: l}}}
	j.PlanFile = "p.json"
	p, err := Prepare(context.Background(), j)
	if err != nil {
		t.Fatal(err)
	}
	var notes []string
	for _, w := range p.Warnings {
		if strings.Contains(w, "instances") {
			notes = append(notes, w)
		}
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "p.json: the plan asks for up to 3 instances") || !strings.Contains(notes[0], "run it on 3 machines under one -label") {
		t.Errorf("warnings %q, want one saying the plan wants 3 machines", p.Warnings)
	}
	if got := p.levels[&p.Targets[0]]; got != l {
		t.Errorf("levels %v, want the plan's %v", got, l)
	}
}
