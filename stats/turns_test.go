package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestTurnRatioReference checks TurnRatio against R's t.test on the rounds'
// median log-ratios:
//
//	> t.test(c(0.01, 0.03, 0.02, 0.04, 0))$conf.int
//	[1] 0.0003675684 0.0396324316
//
// (the mean 0.02, qt(0.975, 4) = 2.776445, sd 0.01581139). Each round has
// three pairs whose median log-ratio is the round's value; the pairs
// around it must not move it.
func TestTurnRatioReference(t *testing.T) {
	ds := []float64{0.01, 0.03, 0.02, 0.04, 0}
	var old, new [][]float64
	for k, d := range ds {
		o := []float64{1, 2, 3 + float64(k)}
		n := []float64{o[0] * math.Exp(d-0.5), o[1] * math.Exp(d), o[2] * math.Exp(d+0.9)}
		old, new = append(old, o), append(new, n)
	}
	iv := TurnRatio(old, new, 0.95)
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"Center", math.Log(iv.Center), 0.02},
		{"Lo", math.Log(iv.Lo), 0.0003675684},
		{"Hi", math.Log(iv.Hi), 0.0396324316},
	} {
		if math.Abs(c.got-c.want) > 1e-9 {
			t.Errorf("log %s = %.10f, want %.10f (R, to 1e-9)", c.name, c.got, c.want)
		}
	}
	if iv.Level != 0.95 {
		t.Errorf("level %v", iv.Level)
	}
}

func TestTurnRatioUndefined(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, new [][]float64
	}{
		{"one round", [][]float64{{1, 2}}, [][]float64{{1, 2}}},
		{"empty round", [][]float64{{1}, {}}, [][]float64{{1}, {1}}},
		{"zero", [][]float64{{1}, {0}}, [][]float64{{1}, {1}}},
		{"no rounds", nil, nil},
	} {
		iv := TurnRatio(tc.old, tc.new, 0.99)
		if !math.IsNaN(iv.Lo) || !math.IsNaN(iv.Hi) {
			t.Errorf("%s: %v, want no interval", tc.name, iv)
		}
	}
}

// TestTurnRatioCoverage simulates sessions in turns on a machine whose CPU
// has slow phases that come and go: each iteration's time is the
// benchmark's, times the process's own speed (a fork effect), times the
// machine's phase at that moment (slow by 25–90% for runs of iterations),
// times a little iteration noise. The interval must cover the true ratio
// 1+f in about 95% of seeded sessions, and an A/A session must not be
// called changed more often than the level allows.
func TestTurnRatioCoverage(t *testing.T) {
	const trials, rounds, pairs = 2000, 10, 6
	r := rand.New(rand.NewPCG(7, 11))
	for _, f := range []float64{0, 0.02, 0.05} {
		covered := 0
		for range trials {
			old, new := make([][]float64, rounds), make([][]float64, rounds)
			for k := range rounds {
				forkOld, forkNew := math.Exp(0.03*r.NormFloat64()), math.Exp(0.03*r.NormFloat64())
				slow := 1.0
				for i := range pairs {
					// Two turns, each of which may start or end a
					// slow phase.
					for side := range 2 {
						if r.Float64() < 0.15 {
							if slow == 1 {
								slow = 1.25 + 0.65*r.Float64()
							} else {
								slow = 1
							}
						}
						x := slow * math.Exp(0.01*r.NormFloat64())
						first := (i % 2) == side
						if first {
							old[k] = append(old[k], forkOld*x)
						} else {
							new[k] = append(new[k], (1+f)*forkNew*x)
						}
					}
				}
			}
			iv := TurnRatio(old, new, 0.95)
			if iv.Lo <= 1+f && 1+f <= iv.Hi {
				covered++
			}
		}
		rate := float64(covered) / trials
		// Binomial sd at 95% over 2000 trials is 0.5%: 93% is four
		// below.
		if rate < 0.93 {
			t.Errorf("f=%v: coverage %.1f%% of %d sessions, want about 95%%", f, 100*rate, trials)
		}
		t.Logf("f=%v: coverage %.1f%%", f, 100*rate)
	}
}
