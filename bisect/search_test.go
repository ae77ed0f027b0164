package bisect

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// trials sums up seeded bisections of simulated histories.
type trials struct {
	n, confirmed, found, right, covered, calls int
}

// simulate runs count bisections of n commits, each with the culprit
// drawn at random and an oracle that errs with probability errRate, and
// is undecided with probability 0.1 where nothing changed and 0.2 where
// the benchmark is 5% slower, as a threshold of 3% makes it.
func simulate(t *testing.T, count, n int, errRate float64, opts Options, seed uint64) trials {
	t.Helper()
	var tr trials
	for i := range count {
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		k := 1 + rng.IntN(n)
		o := &simOracle{steps: map[int]float64{k: 1.05}, threshold: 0.03, errRate: errRate,
			undecidedSame: 0.1, undecidedChanged: 0.2, rng: rng}
		res, err := Bisect(context.Background(), o, n, opts)
		if err != nil {
			t.Fatal(err)
		}
		tr.n++
		tr.calls += o.calls
		if !res.Confirmed {
			continue
		}
		tr.confirmed++
		c := res.Changes[0]
		if c.Found {
			tr.found++
			if c.Culprit == k {
				tr.right++
			}
		}
		if c.Lo <= k && k <= c.Hi {
			tr.covered++
		}
	}
	return tr
}

func (tr trials) coverage() float64 { return float64(tr.covered) / float64(tr.confirmed) }
func (tr trials) accuracy() float64 { return float64(tr.right) / float64(tr.found) }

// TestCalibration checks the claim of the package doc on 1,000 seeded
// searches each of 32 and 128 commits with a step error of 0.05 and
// answers wrong at that rate: the reported range holds the culprit at
// least 95% of the time, and so does a culprit reported at 95%; nearly
// every search ends with one commit, in about three comparisons per
// halving of the range or fewer.
func TestCalibration(t *testing.T) {
	for _, n := range []int{32, 128} {
		tr := simulate(t, 1000, n, 0.05, DefaultOptions, 1)
		t.Logf("n=%d: %d of %d confirmed, %d found, %d right, range covers %d; %.1f comparisons each",
			n, tr.confirmed, tr.n, tr.found, tr.right, tr.covered, float64(tr.calls)/float64(tr.n))
		if c := tr.coverage(); c < 0.95 {
			t.Errorf("n=%d: the 95%% range holds the culprit in %.3f of the searches", n, c)
		}
		if a := tr.accuracy(); a < 0.95 {
			t.Errorf("n=%d: a culprit found at 95%% is right in %.3f of the searches", n, a)
		}
		// An undecided endpoint comparison twice (0.2²) or a wrong one
		// (0.05) leaves a search unconfirmed.
		if tr.confirmed < 900 || float64(tr.found) < 0.95*float64(tr.confirmed) {
			t.Errorf("n=%d: %d confirmed, %d found", n, tr.confirmed, tr.found)
		}
		if mean, most := float64(tr.calls)/float64(tr.n), 3*math.Log2(float64(n)); mean > most {
			t.Errorf("n=%d: %.1f comparisons per search, want at most %.0f", n, mean, most)
		}
	}
}

// TestCalibrationNeedsTheErrorRate shows that the calibration test can
// fail: answers wrong three times as often as the likelihood assumes
// leave the culprit outside the 95% range more than 5% of the time.
func TestCalibrationNeedsTheErrorRate(t *testing.T) {
	tr := simulate(t, 1000, 32, 0.15, DefaultOptions, 1)
	if c := tr.coverage(); c >= 0.95 {
		t.Errorf("with an error rate of 0.15 taken for 0.05, the range holds the culprit in %.3f of the searches, want less than 0.95", c)
	}
	// With the true rate, it holds again.
	opts := DefaultOptions
	opts.StepError = 0.15
	tr = simulate(t, 1000, 32, 0.15, opts, 1)
	if c := tr.coverage(); c < 0.95 {
		t.Errorf("with the error rate known, the range holds the culprit in %.3f of the searches", c)
	}
}

// TestNoiseless checks that exact answers find the culprit of every
// position of 32 commits in a binary search's comparisons and a few
// more: the endpoints, the confirmation against the parent, the checks.
func TestNoiseless(t *testing.T) {
	const n = 32
	for k := 1; k <= n; k++ {
		o := &simOracle{steps: map[int]float64{k: 1.5}, threshold: 0.03, rng: rand.New(rand.NewPCG(1, 1))}
		res, err := Bisect(context.Background(), o, n, DefaultOptions)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Found() || len(res.Changes) != 1 || res.Changes[0].Culprit != k {
			t.Fatalf("culprit %d: found %+v", k, res.Changes)
		}
		c := res.Changes[0]
		if c.Size == nil || c.Size.Rows[0].Ratio != 1.5 {
			t.Errorf("culprit %d: size %+v, want the comparison with the parent, 1.5", k, c.Size)
		}
		if o.calls > 12 {
			t.Errorf("culprit %d: %d comparisons", k, o.calls)
		}
		for _, ck := range res.Checks {
			if ck.Shows != NoChange {
				t.Errorf("culprit %d: check %d..%d shows %v", k, ck.From, ck.To, ck.Shows)
			}
		}
	}
}

// TestTwoSteps checks that two slowdowns of 5% at random commits are
// both found, each with its size, in most of 500 seeded bisections with
// answers wrong 1% of the time, and that at most 5% of the changes found
// at 95% are not at a step.
func TestTwoSteps(t *testing.T) {
	const n, count = 32, 500
	both, found, wrong := 0, 0, 0
	for i := range count {
		rng := rand.New(rand.NewPCG(2, uint64(i)))
		k1, k2 := 1+rng.IntN(n), 1+rng.IntN(n)
		for k2 == k1 {
			k2 = 1 + rng.IntN(n)
		}
		o := &simOracle{steps: map[int]float64{k1: 1.05, k2: 1.05}, threshold: 0.03, errRate: 0.01,
			undecidedSame: 0.1, undecidedChanged: 0.2, rng: rng}
		res, err := Bisect(context.Background(), o, n, DefaultOptions)
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for _, c := range res.Changes {
			if !c.Found {
				continue
			}
			found++
			got = append(got, c.Culprit)
			if c.Culprit != k1 && c.Culprit != k2 {
				wrong++
				continue
			}
			if c.Size == nil || c.Size.Rows[0].Ratio != 1.05 {
				t.Errorf("steps at %d and %d: the change at %d has size %+v", k1, k2, c.Culprit, c.Size)
			}
		}
		slices.Sort(got)
		if slices.Equal(got, []int{min(k1, k2), max(k1, k2)}) {
			both++
		}
	}
	t.Logf("both steps found in %d of %d; %d of %d changes found at 95%% are wrong", both, count, wrong, found)
	if both < 0.85*count {
		t.Errorf("both steps found in %d of %d bisections", both, count)
	}
	if wrong > found/20 {
		t.Errorf("%d of %d changes found at 95%% are wrong", wrong, found)
	}
}

// TestRecovery checks a slowdown followed by a partial recovery: both are
// found, the second as faster.
func TestRecovery(t *testing.T) {
	o := &simOracle{steps: map[int]float64{9: 1.2, 20: 0.9}, threshold: 0.03, rng: rand.New(rand.NewPCG(1, 1))}
	res, err := Bisect(context.Background(), o, 32, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Found() || len(res.Changes) != 2 {
		t.Fatalf("changes %+v", res.Changes)
	}
	if c := res.Changes[0]; c.Culprit != 9 || c.Direction != Slower {
		t.Errorf("first change %+v, want slower at 9", c)
	}
	if c := res.Changes[1]; c.Culprit != 20 || c.Direction != Faster || c.From != 9 {
		t.Errorf("second change %+v, want faster at 20, searched from 9", c)
	}
}

// TestImprovement looks for a speed-up.
func TestImprovement(t *testing.T) {
	opts := DefaultOptions
	opts.Direction = Faster
	o := &simOracle{steps: map[int]float64{5: 0.8}, threshold: 0.03, rng: rand.New(rand.NewPCG(1, 1))}
	res, err := Bisect(context.Background(), o, 16, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Found() || res.Changes[0].Culprit != 5 || res.Changes[0].Direction != Faster {
		t.Errorf("changes %+v", res.Changes)
	}
	// A slowdown is not what was looked for.
	o = &simOracle{steps: map[int]float64{5: 1.2}, threshold: 0.03, rng: rand.New(rand.NewPCG(1, 1))}
	res, err = Bisect(context.Background(), o, 16, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Confirmed || len(res.Changes) != 0 || res.Found() {
		t.Errorf("a slowdown confirmed a speed-up: %+v", res)
	}
}

// TestNotConfirmed checks that endpoints without the change end the
// bisection after their comparison.
func TestNotConfirmed(t *testing.T) {
	o := &simOracle{steps: map[int]float64{5: 1.01}, threshold: 0.03, rng: rand.New(rand.NewPCG(1, 1))}
	res, err := Bisect(context.Background(), o, 16, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if res.Confirmed || res.Found() || len(res.Changes) != 0 || o.calls != 1 {
		t.Errorf("confirmed %v, %d changes, %d comparisons", res.Confirmed, len(res.Changes), o.calls)
	}
	if v := res.Endpoints.Rows[0].Verdict; v != NoChange {
		t.Errorf("endpoints %v", v)
	}
}

// TestOneCommit: with the bad commit right after the good one, the
// endpoints' comparison is the whole search.
func TestOneCommit(t *testing.T) {
	o := &simOracle{steps: map[int]float64{1: 1.5}, threshold: 0.03, rng: rand.New(rand.NewPCG(1, 1))}
	res, err := Bisect(context.Background(), o, 1, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Changes[0]
	if !res.Found() || c.Culprit != 1 || c.Prob != 1 || c.Size == nil || o.calls != 1 {
		t.Errorf("change %+v after %d comparisons", c, o.calls)
	}
}

// TestSkipped checks that a culprit whose parent does not build is
// reported as a range of the two, not found, with the parent named as
// skipped, in most of 200 seeded searches.
func TestSkipped(t *testing.T) {
	const n = 32
	ranged := 0
	for i := range 200 {
		rng := rand.New(rand.NewPCG(3, uint64(i)))
		k := 2 + rng.IntN(n-1)
		o := &simOracle{steps: map[int]float64{k: 1.05}, threshold: 0.03, errRate: 0.01,
			undecidedSame: 0.1, undecidedChanged: 0.2, rng: rng, fail: map[int]bool{k - 1: true}}
		res, err := Bisect(context.Background(), o, n, DefaultOptions)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Confirmed {
			continue
		}
		c := res.Changes[0]
		if c.Found && c.Culprit != k {
			t.Errorf("culprit %d, parent skipped: found %d", k, c.Culprit)
		}
		if c.Lo == k-1 && c.Hi == k && res.Skipped[k-1] == "does not build" {
			ranged++
		}
	}
	if ranged < 180 {
		t.Errorf("a range of the culprit and its skipped parent in %d of 200 searches", ranged)
	}
}

// undecidedOracle confirms the endpoints and is undecided about every
// other pair.
type undecidedOracle struct{ calls int }

func (u *undecidedOracle) Compare(_ context.Context, q Query) (Outcome, error) {
	u.calls++
	v := Inconclusive
	if q.Old == 0 && q.New == 8 {
		v = Slower
	}
	return Outcome{Rows: []Row{{Name: "BenchmarkX", Ratio: 1, Verdict: v}}}, nil
}

// TestUndecided checks that undecided answers leave the posterior
// uniform and end the search when every pair has been undecided
// MaxUndecided times.
func TestUndecided(t *testing.T) {
	o := &undecidedOracle{}
	opts := DefaultOptions
	opts.MaxSteps = 100
	res, err := Bisect(context.Background(), o, 8, opts)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Changes[0]
	if c.Found || c.Lo != 1 || c.Hi != 8 {
		t.Errorf("change %+v", c)
	}
	for _, p := range c.Posterior {
		if math.Abs(p-1.0/8) > 1e-12 {
			t.Errorf("posterior %v, want uniform", c.Posterior)
			break
		}
	}
	// 7 commits against the reference and 7 against their parents (the
	// first is the reference), each pair twice, and the endpoints.
	if o.calls != 1+2*(7+7) {
		t.Errorf("%d comparisons", o.calls)
	}
}

// errOracle fails at its second comparison.
type errOracle struct{ calls int }

var errBroken = errors.New("broken")

func (e *errOracle) Compare(_ context.Context, q Query) (Outcome, error) {
	if e.calls++; e.calls == 2 {
		return Outcome{}, errBroken
	}
	return Outcome{Rows: []Row{{Name: "BenchmarkX", Ratio: 2, Verdict: Slower}}}, nil
}

// TestOracleError checks that an oracle's error ends the bisection with
// what was learned kept.
func TestOracleError(t *testing.T) {
	res, err := Bisect(context.Background(), &errOracle{}, 8, DefaultOptions)
	if !errors.Is(err, errBroken) || res == nil || !res.Confirmed || len(res.Steps) != 1 {
		t.Errorf("err %v, result %+v", err, res)
	}
}

// TestEndpointsFail checks that endpoints that cannot be measured are an
// error naming why.
func TestEndpointsFail(t *testing.T) {
	o := &simOracle{steps: map[int]float64{3: 2}, threshold: 0.03, fail: map[int]bool{8: true}, rng: rand.New(rand.NewPCG(1, 1))}
	_, err := Bisect(context.Background(), o, 8, DefaultOptions)
	if err == nil || err.Error() != "bisect: the endpoints cannot be compared: does not build" {
		t.Errorf("err %v", err)
	}
}

// TestHPD checks the shortest range on posteriors worked out by hand.
func TestHPD(t *testing.T) {
	for _, tc := range []struct {
		p      []float64
		level  float64
		lo, hi int
		prob   float64
	}{
		{[]float64{0.1, 0.6, 0.3}, 0.85, 2, 3, 0.9},
		{[]float64{0.1, 0.6, 0.3}, 0.6, 2, 2, 0.6},
		{[]float64{0.3, 0.6, 0.1}, 0.85, 1, 2, 0.9},
		{[]float64{0.45, 0.1, 0.45}, 0.95, 1, 3, 1},
		{[]float64{0.2, 0.2, 0.2, 0.2, 0.2}, 0.5, 1, 3, 0.6},
		{[]float64{1}, 0.95, 1, 1, 1},
	} {
		post := &posterior{from: 0, to: len(tc.p), p: tc.p}
		lo, hi, prob := post.hpd(tc.level)
		if lo != tc.lo || hi != tc.hi || math.Abs(prob-tc.prob) > 1e-12 {
			t.Errorf("hpd(%v, %v) = %d..%d %v, want %d..%d %v", tc.p, tc.level, lo, hi, prob, tc.lo, tc.hi, tc.prob)
		}
	}
}

// TestUpdate checks Bayes's rule on a posterior worked out by hand: a
// changed answer at commit 2 of 4 keeps 0.95 of the weight of commits 1
// and 2, 0.05 of 3 and 4.
func TestUpdate(t *testing.T) {
	post := newPosterior(0, 4, Slower)
	post.update(func(k int) bool { return k <= 2 }, true, 0.05)
	want := []float64{0.475, 0.475, 0.025, 0.025}
	for i := range want {
		if math.Abs(post.p[i]-want[i]) > 1e-12 {
			t.Fatalf("posterior %v, want %v", post.p, want)
		}
	}
}

func TestValidate(t *testing.T) {
	for _, mod := range []func(*Options){
		func(o *Options) { o.Direction = NoChange },
		func(o *Options) { o.StepError = 0 },
		func(o *Options) { o.StepError = 0.5 },
		func(o *Options) { o.StepError = math.NaN() },
		func(o *Options) { o.Confidence = 1 },
		func(o *Options) { o.Confidence = 0.4 },
		func(o *Options) { o.MaxUndecided = 0 },
		func(o *Options) { o.MaxChanges = 0 },
		func(o *Options) { o.MaxSteps = -1 },
	} {
		o := DefaultOptions
		mod(&o)
		if _, err := Bisect(context.Background(), &errOracle{}, 4, o); err == nil {
			t.Errorf("options %+v accepted", o)
		}
	}
	if _, err := Bisect(context.Background(), &errOracle{}, 0, DefaultOptions); !errors.Is(err, ErrNoRange) {
		t.Errorf("no commits: %v", err)
	}
}
