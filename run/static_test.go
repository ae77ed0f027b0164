package run

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/mbench/mbench/bench"
)

func TestAssignSuiteRuns(t *testing.T) {
	count := func(run []int) (distinct, forks map[int]int) {
		distinct, forks = map[int]int{}, map[int]int{}
		for _, ti := range run {
			forks[ti]++
			distinct[ti] = 1
		}
		return distinct, forks
	}
	t.Run("spread", func(t *testing.T) {
		// One target needs 3 suite runs, six need one: the six spread
		// two per suite run instead of all crowding into the first.
		levels := []bench.Levels{{SuiteRuns: 3, Forks: 2, Iterations: 5}, {SuiteRuns: 1, Forks: 1, Iterations: 5}, {SuiteRuns: 1, Forks: 1, Iterations: 5}, {SuiteRuns: 1, Forks: 1, Iterations: 5}, {SuiteRuns: 1, Forks: 1, Iterations: 5}, {SuiteRuns: 1, Forks: 1, Iterations: 5}, {SuiteRuns: 1, Forks: 1, Iterations: 5}}
		sched := assignSuiteRuns(levels, 3, rand.New(rand.NewPCG(1, 2)))
		if len(sched) != 3 {
			t.Fatalf("%d suite runs, want 3", len(sched))
		}
		total := map[int]int{}
		for s, run := range sched {
			distinct, forks := count(run)
			if len(distinct) != 3 {
				t.Errorf("suite run %d interleaves %d targets, want 3: %v", s+1, len(distinct), run)
			}
			if forks[0] != 2 {
				t.Errorf("suite run %d has %d forks of target 0, want 2", s+1, forks[0])
			}
			for ti, n := range forks {
				total[ti] += n
			}
		}
		for ti, l := range levels {
			if want := l.SuiteRuns * l.Forks; total[ti] != want {
				t.Errorf("target %d: %d forks, want %d", ti, total[ti], want)
			}
		}
	})
	t.Run("borrow", func(t *testing.T) {
		// Two targets cannot fill three suite runs with two benchmarks
		// each: the cheapest is borrowed where it is missing.
		levels := []bench.Levels{{SuiteRuns: 3, Forks: 1, Iterations: 5}, {SuiteRuns: 1, Forks: 1, Iterations: 2}, {}}
		sched := assignSuiteRuns(levels, 2, rand.New(rand.NewPCG(1, 2)))
		for s, run := range sched {
			distinct, _ := count(run)
			if len(distinct) != 2 || !slices.Contains(run, 1) {
				t.Errorf("suite run %d: %v, want targets 0 and 1", s+1, run)
			}
			if slices.Contains(run, 2) {
				t.Errorf("suite run %d runs target 2, which has no levels", s+1)
			}
		}
	})
	t.Run("none", func(t *testing.T) {
		if s := assignSuiteRuns([]bench.Levels{{}, {}}, 3, rand.New(rand.NewPCG(1, 2))); s != nil {
			t.Errorf("got %v for targets without levels", s)
		}
	})
}

func TestStaticSuite(t *testing.T) {
	bin := fixture(t)
	ctx := context.Background()
	targets, err := Discover(ctx, bin, "Sum|Loop|Join/n=10$", nil, nil, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	sink := &collect{}
	o := StaticOptions{Options: fastOptions(), Warmup: 1, MinPerSuiteRun: 2}
	o.Sink = sink
	want := map[string]bench.Levels{"Sum": {SuiteRuns: 2, Forks: 2, Iterations: 3}, "Loop": {SuiteRuns: 1, Forks: 1, Iterations: 3}}
	o.Levels = func(t *Target) (bench.Levels, bool) {
		l, ok := want[t.Key.Name]
		return l, ok
	}
	var events []Progress
	o.Progress = func(p Progress) { events = append(events, p) }
	results, err := StaticSuite(ctx, targets, o)
	if err != nil {
		t.Fatal(err)
	}
	// Sum's 2×2 forks and Loop's 2 (one borrowed to interleave).
	checkProgress(t, events, 2, 6, true)
	for _, r := range results {
		l, planned := want[r.Target.Key.Name]
		if !planned {
			if len(r.Measurements) > 0 {
				t.Errorf("%s: ran without levels", r.Target.Key)
			}
			continue
		}
		type fork struct{ suite, fork int }
		perFork := map[fork]int{}
		warm := map[int]int{}
		for _, m := range r.Measurements {
			if m.Coord.Phase == bench.Warmup {
				if m.Coord.Iteration != warm[m.Coord.Fork] {
					t.Errorf("%s: warm-up at iteration %d after %d measured", r.Target.Key, m.Coord.Iteration, perFork[fork{m.Coord.SuiteRun, m.Coord.Fork}])
				}
				warm[m.Coord.Fork]++
				continue
			}
			perFork[fork{m.Coord.SuiteRun, m.Coord.Fork}]++
		}
		// Loop needs one suite run but is borrowed into the other to
		// keep two benchmarks interleaved.
		forks := l.SuiteRuns * l.Forks
		if r.Target.Key.Name == "Loop" {
			forks = 2
		}
		if len(perFork) != forks || len(warm) != forks || r.Report.Forks != forks {
			t.Errorf("%s: %d forks (%d with warm-up, report %d), want %d", r.Target.Key, len(perFork), len(warm), r.Report.Forks, forks)
		}
		// At least Warmup iterations, more only while the per-op
		// figures are not steady, at most Config.WarmupMax; the report
		// counts them.
		for f, w := range r.Report.Warmup {
			if w != warm[f+1] || w < o.Warmup || w > o.Config.WarmupMax {
				t.Errorf("%s, fork %d: %d warm-up iterations, reported %d; want %d to %d", r.Target.Key, f+1, warm[f+1], w, o.Warmup, o.Config.WarmupMax)
			}
		}
		for f, n := range perFork {
			if n != l.Iterations {
				t.Errorf("%s: fork %v measured %d iterations, want %d", r.Target.Key, f, n, l.Iterations)
			}
		}
	}
	if len(sink.ms) == 0 {
		t.Error("sink got nothing")
	}
}
