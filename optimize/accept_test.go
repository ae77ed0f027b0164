package optimize

import (
	"fmt"
	"testing"

	"github.com/mbench/mbench/bench"
)

// TestAcceptance runs the whole optimisation on a fixture of 3×5×5 runs:
// 10 benchmarks whose measurements vary by 0.1% (CV) and 10 that vary by
// 20%. With every metric, the quiet ones must get a configuration of the
// minimum cost (3 iterations) and be stable, the noisy ones the full
// configuration flagged as not stable; the suite saves what that implies.
//
// RCIW₂ is the exception for the quiet ones: a bootstrap-t resample of 3 or 4
// values is all one value often enough (1/9 and 1/64 of replicates, above
// the 0.5% tail) that the interval is infinite, so its cheapest stable
// configuration is larger — but still far below the full 75.
//
// RMAD is the exception for the noisy ones. The MAD of three values is the
// smaller distance of the other two from the middle one, which for 20% noise
// falls below 1% of the median in a few percent of samples; among 71
// candidate configurations a noisy benchmark often finds one, and it is
// then "stable" at a small configuration. That is the metric's flaw, not
// the search's (Japke et al. 2025 §4.2–4.3 finds RMAD the least accurate metric);
// the test logs how often it happens instead of asserting it.
func TestAcceptance(t *testing.T) {
	full := bench.Levels{SuiteRuns: 3, Forks: 5, Iterations: 5}
	r := newRand(2024)
	var bs []*Benchmark
	for k := range 10 {
		bs = append(bs, synth(r, fmt.Sprintf("Quiet%d", k), full, 2e-7, 0.001, 0))
	}
	for k := range 10 {
		bs = append(bs, synth(r, fmt.Sprintf("Noisy%d", k), full, 2e-7, 0.2, 0))
	}
	for _, m := range []Metric{CV, RMAD, RCIWMean, RCIWT, RCIWMedian} {
		t.Run(m.String(), func(t *testing.T) {
			opts := DefaultOptions
			opts.Metric = m
			rep, err := Optimize(bs, opts)
			if err != nil {
				t.Fatal(err)
			}
			quietCost, noisyCost, falselyStable := 0, 0, 0
			for k, res := range rep.Results {
				p := res.Plan
				if k < 10 {
					quietCost += p.Levels.Total()
					ok := p.Stable && p.Levels.Total() == 3
					if m == RCIWT {
						ok = p.Stable && p.Levels.Total() > 4 && p.Levels.Total() <= 8
					}
					if !ok || p.Change > 0.002 {
						t.Errorf("%s: plan %v stable %v metric %.3g change %.3g", res.Key.Name, p.Levels, p.Stable, p.Metric, p.Change)
					}
					continue
				}
				noisyCost += p.Levels.Total()
				if p.Stable {
					falselyStable++
				}
				if m == RMAD {
					continue
				}
				if p.Stable || p.Levels != full || !(p.Metric > opts.Threshold) {
					t.Errorf("%s: plan %v stable %v metric %.3g, want the full configuration, not stable", res.Key.Name, p.Levels, p.Stable, p.Metric)
				}
			}
			if m == RMAD {
				t.Logf("rmad: %d of 10 noisy benchmarks found stable", falselyStable)
			}
			want := Summary{
				Iterations: quietCost + noisyCost,
				Stable:     10 + falselyStable,
				Saving:     1 - float64(quietCost+noisyCost)/(20*75),
			}
			s := rep.Plan
			if s.Iterations != want.Iterations || s.Stable != want.Stable || !near(s.Saving, want.Saving, 1e-12) || s.Within1 < 0.5 {
				t.Errorf("summary %+v, want %+v and at least half within 1%%", s, want)
			}
			t.Logf("%v: quiet benchmarks cost %d iterations in all; plan saves %.1f%%, minimum baseline within 1%%: %.0f%%, random: %.0f%%",
				m, quietCost, 100*s.Saving, 100*rep.Minimum.Within1, 100*rep.Random.Within1)
		})
	}
}
