// Package history evaluates mbench history (docs/eval/history.md): seeded
// suites with an injected +25% step stored and analysed as `mbench history`
// does, and the time to analyse 1,000 benchmarks over 200 runs.
//
//	cd eval && go test -v -count=1 -timeout 30m ./history
package history

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/history"
	"github.com/mbench/mbench/store"
)

// suite simulates runs of a suite of benchmarks: each run is measured in
// forks processes of iters iterations; the machine's level moves by 1%
// from run to run, a fork's by 1%, an iteration by noise. From run stepAt
// on (1-based; 0 never) every time is 25% longer.
type suite struct {
	benchmarks, forks, iters int
	noise                    float64
	stepAt                   int
}

func (s suite) runs(seed uint64, n int) []*bench.Run {
	r := rand.New(rand.NewPCG(seed, 0x68697374))
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	out := make([]*bench.Run, n)
	for i := range out {
		run := &bench.Run{Label: fmt.Sprintf("c%03d", i+1), Start: t0.Add(time.Duration(i) * time.Hour)}
		machine := 1 + 0.01*r.NormFloat64()
		if s.stepAt > 0 && i+1 >= s.stepAt {
			machine *= 1.25
		}
		for b := range s.benchmarks {
			base := 100 * float64(1+b%7)
			for f := range s.forks {
				fork := 1 + 0.01*r.NormFloat64()
				for it := range s.iters {
					v := base * machine * fork * (1 + s.noise*r.NormFloat64())
					run.Measurements = append(run.Measurements, bench.Measurement{
						Key:    bench.Key{Package: "example.com/eval", Name: fmt.Sprintf("B%04d", b), Procs: 2},
						Coord:  bench.Coord{Fork: f, Iteration: it},
						N:      1000,
						Values: []bench.Value{{Value: v * 1e-9, Unit: "sec/op"}},
					})
				}
			}
		}
		out[i] = run
	}
	return out
}

// store writes runs to a new store in dir and returns its path.
func storeRuns(t testing.TB, dir string, runs []*bench.Run) string {
	path := filepath.Join(dir, "m.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, r := range runs {
		id, err := st.CreateRun(&bench.Run{Label: r.Label, Start: r.Start})
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Append(id, r.Measurements...); err != nil {
			t.Fatal(err)
		}
		if err := st.Finish(id, r.Start.Add(time.Minute), store.StatusComplete); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// analyzeStored reads every run of the store at path and analyses it, as
// `mbench history -db path` does.
func analyzeStored(t testing.TB, path string) []*history.Series {
	st, err := store.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	runs, _, err := history.Load(st, nil)
	if err != nil {
		t.Fatal(err)
	}
	series, err := history.Analyze(runs, history.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	return series
}

// TestStep stores 50 seeded suites of 20 benchmarks over 12 runs with a
// +25% step at run 7, and 50 flat ones over 8 runs, and counts the
// changes found.
func TestStep(t *testing.T) {
	const trials = 50
	for _, c := range []struct {
		name   string
		runs   int
		stepAt int
	}{{"step at run 7 of 12", 12, 7}, {"flat, 8 runs", 8, 0}} {
		right, wrong, missed := 0, 0, 0
		for seed := range uint64(trials) {
			s := suite{benchmarks: 20, forks: 3, iters: 5, noise: 0.03, stepAt: c.stepAt}
			series := analyzeStored(t, storeRuns(t, t.TempDir(), s.runs(seed, c.runs)))
			for _, sr := range series {
				found := false
				for _, ch := range sr.Changes {
					if c.stepAt > 0 && ch.Label == fmt.Sprintf("c%03d", c.stepAt) && !found {
						right++
						found = true
					} else {
						wrong++
					}
				}
				if c.stepAt > 0 && !found {
					missed++
				}
			}
		}
		t.Logf("%s: %d series; changes at the step %d, elsewhere %d; steps missed %d", c.name, trials*20, right, wrong, missed)
		if wrong > 0 || missed > 0 {
			t.Errorf("%s: %d changes elsewhere, %d steps missed", c.name, wrong, missed)
		}
	}
}

// TestSpeed times the analysis of 1,000 benchmarks over 200 runs, each
// measured in 3 forks of 2 iterations: in memory, three times, and read
// from a store.
func TestSpeed(t *testing.T) {
	s := suite{benchmarks: 1000, forks: 3, iters: 2, noise: 0.03, stepAt: 121}
	runs := s.runs(1, 200)
	var times, cpus []time.Duration
	var series []*history.Series
	for range 3 {
		start, cpu0 := time.Now(), cpuTime()
		var err error
		series, err = history.Analyze(runs, history.DefaultOptions)
		if err != nil {
			t.Fatal(err)
		}
		times = append(times, time.Since(start))
		cpus = append(cpus, cpuTime()-cpu0)
	}
	slices.Sort(times)
	slices.Sort(cpus)
	found := 0
	for _, sr := range series {
		if len(sr.Changes) == 1 && sr.Changes[0].Label == "c121" {
			found++
			continue
		}
		var got []string
		for _, c := range sr.Changes {
			got = append(got, fmt.Sprintf("%s %+.1f%% p=%.2g", c.Label, (c.Ratio-1)*100, c.P))
		}
		t.Logf("%s: changes %v", sr.Name, got)
	}
	t.Logf("Analyze, 1,000 benchmarks × 200 runs: wall %v, %v, %v; CPU (both cores) %v, %v, %v; %d of 1000 series show exactly the step at run 121",
		times[0].Round(time.Millisecond), times[1].Round(time.Millisecond), times[2].Round(time.Millisecond),
		cpus[0].Round(time.Millisecond), cpus[1].Round(time.Millisecond), cpus[2].Round(time.Millisecond), found)

	if testing.Short() {
		return
	}
	start := time.Now()
	path := storeRuns(t, t.TempDir(), runs)
	stored := time.Since(start)
	start = time.Now()
	st, err := store.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	loaded, _, err := history.Load(st, nil)
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	load := time.Since(start)
	start = time.Now()
	if _, err := history.Analyze(loaded, history.DefaultOptions); err != nil {
		t.Fatal(err)
	}
	t.Logf("store: written in %v; read in %v; analysed in %v", stored.Round(time.Millisecond),
		load.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
}

// cpuTime is the user and system time this process has used, which,
// unlike the wall clock, other work on a shared machine does not inflate.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
