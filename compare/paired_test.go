package compare

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// simulate returns R runs of I pairs whose true ratio new/old is ratio.
// Each pair shares a common interference factor (lognormal, sdCommon, half
// of it for the whole run, as slow machine-wide shifts are);
// each side has its own small noise (sdOwn); each run (process pair) has
// its own level per side (sdRun).
func simulate(rng *rand.Rand, R, I int, ratio, sdCommon, sdOwn, sdRun float64) [][]Pair {
	runs := make([][]Pair, R)
	for r := range runs {
		lo, ln := rng.NormFloat64()*sdRun, rng.NormFloat64()*sdRun
		cr := rng.NormFloat64() * sdCommon / 2
		for range I {
			c := cr + rng.NormFloat64()*sdCommon
			o := 100 * math.Exp(c+lo+rng.NormFloat64()*sdOwn)
			n := 100 * ratio * math.Exp(c+ln+rng.NormFloat64()*sdOwn)
			runs[r] = append(runs[r], Pair{o, n})
		}
	}
	return runs
}

func fastOpts() PairedOptions {
	o := DefaultPairedOptions
	o.Replicates = 2000
	return o
}

func TestAnalyzeSynchronised(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	// Interference of 20% shared by both sides, 1% of their own.
	runs := simulate(rng, 10, 20, 1.05, 0.2, 0.01, 0.005)
	a, err := AnalyzePairs(runs, DefaultPairedOptions)
	if err != nil {
		t.Fatal(err)
	}
	if a.Ratio.Contains(1) || !a.Ratio.Contains(1.05) || math.Abs(a.Ratio.Center-1.05) > 0.01 {
		t.Errorf("ratio %+v, want about 1.05 with an interval excluding 1", a.Ratio)
	}
	if a.Runs != 10 || a.Pairs != 200 {
		t.Errorf("runs %d pairs %d, want 10 and 200", a.Runs, a.Pairs)
	}
	gain := a.Shuffled.RelWidth() / a.Ratio.RelWidth()
	t.Logf("ratio %.4f [%.4f, %.4f]; shuffled [%.4f, %.4f]; %.1f× narrower", a.Ratio.Center, a.Ratio.Lo, a.Ratio.Hi, a.Shuffled.Lo, a.Shuffled.Hi, gain)
	if gain < 3 {
		t.Errorf("pairing narrowed the interval %.1f×; with 20%% shared and 1%% own noise it should be far more", gain)
	}
	// Widening: the reported interval contains the paper's.
	if a.Ratio.Lo > a.Percentile.Lo || a.Ratio.Hi < a.Percentile.Hi {
		t.Errorf("expanded %+v does not contain percentile %+v", a.Ratio, a.Percentile)
	}
}

func TestAnalyzeOneSided(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	runs := simulate(rng, 10, 20, 1, 0.05, 0.01, 0.005)
	// One vCPU slowed by 60% for four pairs of run 3, the other not.
	for i := 5; i < 9; i++ {
		runs[2][i].Old *= 1.6
	}
	// The old side's process of run 7 ran 50% slower throughout.
	for i := range runs[6] {
		runs[6][i].Old *= 1.5
	}
	a, err := AnalyzePairs(runs, DefaultPairedOptions)
	if err != nil {
		t.Fatal(err)
	}
	if a.OneSidedPairs != 4 || a.OneSidedRuns != 1 {
		t.Errorf("one-sided: %d pairs, %d runs; want 4 and 1", a.OneSidedPairs, a.OneSidedRuns)
	}
	if !a.Ratio.Contains(1) {
		t.Errorf("A/A with one-sided disturbances called changed: %+v", a.Ratio)
	}
	off := DefaultPairedOptions
	off.OneSided = OneSidedRule{}
	b, _ := AnalyzePairs(runs, off)
	t.Logf("with the rule %.4f [%.4f, %.4f]; without %.4f [%.4f, %.4f]", a.Ratio.Center, a.Ratio.Lo, a.Ratio.Hi, b.Ratio.Center, b.Ratio.Lo, b.Ratio.Hi)
	if b.OneSidedPairs != 0 || b.OneSidedRuns != 0 {
		t.Error("rule off still removed data")
	}
}

// TestAnalyzeKeepsRealChanges: a change of the new version moves all its
// values; the one-sided rule must not take it for a disturbance, however
// large it is, nor a new version that is slower in a few iterations of
// every run (its own behaviour, above MaxPairs).
func TestAnalyzeKeepsRealChanges(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, ratio := range []float64{0.5, 1.3, 3} {
		a, err := AnalyzePairs(simulate(rng, 8, 20, ratio, 0.1, 0.01, 0.005), DefaultPairedOptions)
		if err != nil {
			t.Fatal(err)
		}
		if a.OneSidedPairs != 0 || a.OneSidedRuns != 0 || math.Abs(a.Ratio.Center/ratio-1) > 0.01 {
			t.Errorf("ratio %v: got %.4f, one-sided %d pairs %d runs", ratio, a.Ratio.Center, a.OneSidedPairs, a.OneSidedRuns)
		}
	}
	runs := simulate(rng, 8, 20, 1, 0.02, 0.01, 0.005)
	for r := range runs {
		for i := 0; i < 20; i += 4 { // every fourth iteration 50% slower
			runs[r][i].New *= 1.5
		}
	}
	a, _ := AnalyzePairs(runs, DefaultPairedOptions)
	if a.OneSidedPairs != 0 || len(a.Warnings) == 0 {
		t.Errorf("bimodal new version: %d pairs removed, warnings %q; want none removed and a warning", a.OneSidedPairs, a.Warnings)
	}
	if math.Abs(a.Ratio.Center-math.Pow(1.5, 0.25)) > 0.02 {
		t.Errorf("bimodal new version: ratio %.4f, want about %.4f", a.Ratio.Center, math.Pow(1.5, 0.25))
	}
}

// TestAnalyzeFalsePositives: over seeded A/A experiments with shared
// interference, run-to-run levels, and occasional one-sided disturbances,
// the 99% interval excludes 1 in about 1% of them and never reports a
// change beyond 3%.
func TestAnalyzeFalsePositives(t *testing.T) {
	trials := 400
	if testing.Short() {
		trials = 100
	}
	rng := rand.New(rand.NewPCG(7, 8))
	excl, beyond := 0, 0
	for range trials {
		runs := simulate(rng, 10, 20, 1, 0.1, 0.01, 0.01)
		if rng.IntN(2) == 0 { // half the experiments see a one-sided burst
			r, start := rng.IntN(10), rng.IntN(15)
			for i := start; i < start+3; i++ {
				runs[r][i].New *= 1.4 + 0.4*rng.Float64()
			}
		}
		o := fastOpts()
		o.Seed = rng.Uint64()
		a, err := AnalyzePairs(runs, o)
		if err != nil {
			t.Fatal(err)
		}
		if !a.Ratio.Contains(1) {
			excl++
			if math.Abs(a.Ratio.Center-1) > 0.03 {
				beyond++
			}
		}
	}
	t.Logf("%d of %d A/A intervals exclude 1, %d beyond 3%%", excl, trials, beyond)
	if float64(excl) > 0.03*float64(trials) || beyond > 0 {
		t.Errorf("%d of %d A/A intervals exclude 1 (%d beyond 3%%); want about 1%%", excl, trials, beyond)
	}
}

func TestAnalyzeErrors(t *testing.T) {
	if _, err := AnalyzePairs(nil, DefaultPairedOptions); err == nil {
		t.Error("no data: no error")
	}
	_, err := AnalyzePairs([][]Pair{{{1, 1}}, {{1, 0}}}, DefaultPairedOptions)
	if err == nil || !strings.Contains(err.Error(), "run 2, pair 1") {
		t.Errorf("zero value: error %v, want one naming run 2, pair 1", err)
	}
	a, err := AnalyzePairs([][]Pair{{{1, 1.1}, {1, 1.1}, {1, 1.1}}}, DefaultPairedOptions)
	if err != nil || !math.IsNaN(a.Ratio.Lo) || len(a.Warnings) == 0 {
		t.Errorf("one run: %+v, %v; want no interval and a warning", a, err)
	}
}
