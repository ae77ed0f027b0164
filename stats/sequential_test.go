package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
)

func TestNewSequence(t *testing.T) {
	for _, c := range []struct {
		min, max int
		want     []int
	}{
		{5, 30, []int{5, 8, 12, 18, 30}},
		{5, 5, []int{5}},
		{2, 3, []int{2, 3}},
		{4, 10, []int{4, 6, 10}},
		{10, 100, []int{10, 15, 23, 35, 53, 80, 100}},
	} {
		s := NewSequence(0.05, c.min, c.max)
		if !slices.Equal(s.Looks, c.want) {
			t.Errorf("NewSequence(0.05, %d, %d).Looks = %v, want %v", c.min, c.max, s.Looks, c.want)
		}
		if got, want := s.LookAlpha()*float64(len(c.want)), 0.05; math.Abs(got-want) > 1e-12 {
			t.Errorf("looks spend %v in all, want %v", got, want)
		}
		for i, l := range s.Looks {
			if !s.IsLook(l) || s.IsLook(l+1) && !slices.Contains(s.Looks, l+1) {
				t.Errorf("IsLook wrong around %d", l)
			}
			want := 0
			if i+1 < len(s.Looks) {
				want = s.Looks[i+1]
			}
			if got := s.Next(l); got != want {
				t.Errorf("Next(%d) = %d, want %d", l, got, want)
			}
		}
	}
	for _, bad := range [][3]float64{{0, 5, 10}, {1, 5, 10}, {math.NaN(), 5, 10}, {0.05, 1, 10}, {0.05, 6, 5}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewSequence(%v) did not panic", bad)
				}
			}()
			NewSequence(bad[0], int(bad[1]), int(bad[2]))
		}()
	}
}

func TestRoundRatio(t *testing.T) {
	b := Bootstrap{Level: 0.99, Replicates: 2000}
	old := [][]float64{{10, 10.2, 9.9}, {12, 12.1, 11.8}, {9, 9.1, 9.05}, {11, 10.9, 11.1}, {10, 10.1, 10}, {12.5, 12.4, 12.6}}
	new := [][]float64{{10.5, 10.7, 10.4}, {12.6, 12.7, 12.4}, {9.45, 9.5, 9.5}, {11.5, 11.6, 11.5}, {10.5, 10.6, 10.5}, {13.1, 13.1, 13.2}}
	iv := b.RoundRatio(old, new, newRand(1))
	// Center: exp(mean(log(mean(new_k)/mean(old_k)))), by hand.
	var want float64
	for k := range old {
		want += math.Log(Mean(new[k]) / Mean(old[k]))
	}
	want = math.Exp(want / float64(len(old)))
	if math.Abs(iv.Center-want) > 1e-12 {
		t.Errorf("Center = %v, want %v", iv.Center, want)
	}
	if !(iv.Lo < iv.Center && iv.Center < iv.Hi) || iv.Contains(1) {
		t.Errorf("interval %+v: want it around %v, excluding 1", iv, want)
	}
	// The machine's level differs by 33% between rounds; the ratio does
	// not see it: the interval is a few percent wide.
	if w := iv.RelWidth(); w > 0.1 {
		t.Errorf("relative width %v: the round levels leaked into the ratio", w)
	}
	// Scaling every value of one side scales the interval.
	iv2 := b.RoundRatio(old, scaleGroups(new, 2), newRand(1))
	if math.Abs(iv2.Center/iv.Center-2) > 1e-12 || math.Abs(iv2.Lo/iv.Lo-2) > 1e-9 || math.Abs(iv2.Hi/iv.Hi-2) > 1e-9 {
		t.Errorf("not scale-equivariant: %+v vs %+v", iv2, iv)
	}
	for _, c := range []struct {
		name     string
		old, new [][]float64
	}{
		{"one round", old[:1], new[:1]},
		{"empty process", [][]float64{{1}, {}}, [][]float64{{1}, {1}}},
		{"zero", [][]float64{{1}, {0}}, [][]float64{{1}, {1}}},
	} {
		if iv := b.RoundRatio(c.old, c.new, newRand(1)); !math.IsNaN(iv.Lo) || !math.IsNaN(iv.Hi) {
			t.Errorf("%s: %+v, want NaN bounds", c.name, iv)
		}
	}
}

// interleaved simulates one round of an interleaved A/B pair on a drifting
// machine: the machine's log-speed takes a random-walk step per round
// (drift), each process has its own level (fork) and each iteration its own
// noise (iter); new runs ratio times as long as old.
type interleaved struct {
	drift, fork, iter float64
	iterations        int
	ratio             float64
}

func (m interleaved) rounds(r *rand.Rand, n int) (old, new [][]float64) {
	level := 0.0
	for range n {
		level += m.drift * r.NormFloat64()
		side := func(scale float64) []float64 {
			f := level + m.fork*r.NormFloat64()
			x := make([]float64, m.iterations)
			for i := range x {
				x[i] = scale * math.Exp(f+m.iter*r.NormFloat64())
			}
			return x
		}
		old = append(old, side(1))
		new = append(new, side(m.ratio))
	}
	return old, new
}

// sequential runs the stopping rule of a sequential A/B comparison over
// the looks of s: stop when the interval excludes 1 with the estimate
// beyond threshold (a change), or lies within ±threshold (no change). It
// returns the interval of the last look and whether a change was reported.
func sequential(r *rand.Rand, m interleaved, s Sequence, level func(Sequence) float64, threshold float64) (Interval, bool) {
	old, new := m.rounds(r, s.Looks[len(s.Looks)-1])
	b := Bootstrap{Level: level(s), Replicates: 1000}
	var iv Interval
	for _, n := range s.Looks {
		iv = b.RoundRatio(old[:n], new[:n], r)
		changed := !iv.Contains(1) && math.Abs(iv.Center-1) > threshold
		if changed {
			return iv, true
		}
		if iv.Lo >= 1-threshold && iv.Hi <= 1+threshold {
			break
		}
	}
	return iv, false
}

// TestSequentialCoverage is a seeded simulation of the sequential
// comparison on a drifting machine (2% random-walk steps per round, 1.5%
// between processes, 1% between iterations): with the error rate spent
// over the looks, the interval where the comparison stops covers the true
// ratio in at least 95% of trials (the nominal level; Bonferroni makes it
// conservative), and an A/A pair is reported as a change in at most 5%.
// Looking at every round at the full level instead must do worse, which
// shows the simulation can tell.
func TestSequentialCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("coverage simulation skipped in -short mode")
	}
	const trials, alpha, threshold = 400, 0.05, 0.03
	spent := func(s Sequence) float64 { return 1 - s.LookAlpha() }
	naive := func(s Sequence) float64 { return 1 - s.Alpha }
	every := Sequence{Alpha: alpha}
	for n := 3; n <= 30; n++ {
		every.Looks = append(every.Looks, n)
	}
	planned := NewSequence(alpha, 5, 30)
	for _, ratio := range []float64{1, 1.02, 1.05} {
		m := interleaved{drift: 0.02, fork: 0.015, iter: 0.01, iterations: 5, ratio: ratio}
		run := func(s Sequence, level func(Sequence) float64) (cover, flagged float64) {
			var flags atomic.Int64
			cover = coverage(trials, func(r *rand.Rand) (Interval, float64) {
				iv, changed := sequential(r, m, s, level, threshold)
				if changed {
					flags.Add(1)
				}
				return iv, ratio
			})
			return cover, float64(flags.Load()) / trials
		}
		cover, flagged := run(planned, spent)
		t.Logf("ratio %v: planned looks cover %.3f, changes reported %.3f", ratio, cover, flagged)
		if cover < 1-alpha {
			t.Errorf("ratio %v: the stopped interval covers the truth in %.1f%% of trials, want ≥ %.0f%%", ratio, 100*cover, 100*(1-alpha))
		}
		if ratio == 1 && flagged > alpha {
			t.Errorf("A/A: %.1f%% of trials reported a change, want ≤ %.0f%%", 100*flagged, 100*alpha)
		}
		if ratio == 1 {
			naiveCover, _ := run(every, naive)
			t.Logf("ratio %v: every round at %.0f%% covers %.3f", ratio, 100*(1-alpha), naiveCover)
			if naiveCover >= cover {
				t.Errorf("looking at every round at the full level covers %.3f, not less than the planned looks' %.3f", naiveCover, cover)
			}
		}
	}
}
