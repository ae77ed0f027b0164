package stats

import (
	"fmt"
	"math"
	"testing"
)

// ciCase is one bootstrap interval under test: ci computes it for data
// scaled by c (num side only, for ratios), at a level, with a seed.
type ciCase struct {
	name string
	ci   func(c, level float64, seed uint64) Interval
	// ratio is true when ci estimates stat(num)/stat(den).
	ratio bool
}

// ciCases returns every bootstrap interval on realistic data.
func ciCases() []ciCase {
	r := newRand(1)
	x := timings(r, 40, 1000, 0.05)
	y := timings(r, 40, 1030, 0.05)
	gx := forks(r, 5, 20, 1000, 0.03, 0.05)
	gy := forks(r, 5, 20, 1030, 0.03, 0.05)
	runs := forks(r, 10, 30, 1.03, 0.02, 0.05)
	const reps = 2000
	var cases []ciCase
	for _, s := range []Stat{StatMean, StatMedian} {
		cases = append(cases,
			ciCase{name: "Percentile/" + s.String(), ci: func(c, level float64, seed uint64) Interval {
				return Bootstrap{level, reps}.Percentile(scaleAll(x, c), s, newRand(seed))
			}},
			ciCase{name: "Hierarchical/" + s.String(), ci: func(c, level float64, seed uint64) Interval {
				return Bootstrap{level, reps}.Hierarchical(scaleGroups(gx, c), s, newRand(seed))
			}},
			ciCase{name: "HierarchicalRatio/" + s.String(), ratio: true, ci: func(c, level float64, seed uint64) Interval {
				return Bootstrap{level, reps}.HierarchicalRatio(scaleGroups(gy, c), gx, s, newRand(seed))
			}},
			ciCase{name: "BlockRatio/" + s.String(), ratio: true, ci: func(c, level float64, seed uint64) Interval {
				return Bootstrap{level, reps}.BlockRatio(scaleAll(y, c), x, s, newRand(seed))
			}},
		)
	}
	cases = append(cases,
		ciCase{name: "Studentized", ci: func(c, level float64, seed uint64) Interval {
			return Bootstrap{level, reps}.Studentized(scaleAll(x, c), newRand(seed))
		}},
		ciCase{name: "GeoMeanRatio", ratio: true, ci: func(c, level float64, seed uint64) Interval {
			return Bootstrap{level, reps}.GeoMeanRatio(scaleGroups(runs, c), newRand(seed))
		}},
	)
	return cases
}

// TestIntervalProperties checks for every bootstrap: the interval contains
// its center, scales with the data (same seed: c·x gives c·interval and the
// same RelWidth), widens with the level, is reproducible with a seed and
// depends on it.
func TestIntervalProperties(t *testing.T) {
	for _, c := range ciCases() {
		t.Run(c.name, func(t *testing.T) {
			iv := c.ci(1, 0.95, 7)
			if !(iv.Lo < iv.Hi) || !iv.Contains(iv.Center) {
				t.Errorf("interval %+v does not contain its center or is empty", iv)
			}
			if iv.Level != 0.95 {
				t.Errorf("Level = %v, want 0.95", iv.Level)
			}
			if again := c.ci(1, 0.95, 7); again != iv {
				t.Errorf("same seed gave %+v, then %+v", iv, again)
			}
			if other := c.ci(1, 0.95, 8); other == iv {
				t.Errorf("different seeds gave identical %+v", iv)
			}
			for _, scale := range []float64{1e-3, 1000, 4096} {
				s := c.ci(scale, 0.95, 7)
				for _, f := range []struct {
					name      string
					got, want float64
				}{
					{"Center", s.Center, scale * iv.Center},
					{"Lo", s.Lo, scale * iv.Lo},
					{"Hi", s.Hi, scale * iv.Hi},
					{"RelWidth", s.RelWidth(), iv.RelWidth()},
				} {
					if !near(f.got, f.want, 1e-9) {
						t.Errorf("scale %v: %s = %.15g, want %.15g", scale, f.name, f.got, f.want)
					}
				}
			}
			narrow, wide := c.ci(1, 0.80, 7), c.ci(1, 0.999, 7)
			if !(wide.Lo < iv.Lo && iv.Lo < narrow.Lo && narrow.Hi < iv.Hi && iv.Hi < wide.Hi) {
				t.Errorf("not nested by level: 80%% %+v, 95%% %+v, 99.9%% %+v", narrow, iv, wide)
			}
		})
	}
}

// TestRatioOfIdentical checks that comparing data with itself finds no
// difference: Center is 1 and the interval contains 1.
func TestRatioOfIdentical(t *testing.T) {
	r := newRand(2)
	x := timings(r, 40, 1000, 0.05)
	g := forks(r, 5, 20, 1000, 0.03, 0.05)
	ones := make([][]float64, 8)
	for i := range ones {
		ones[i] = make([]float64, 30)
		for j := range ones[i] {
			ones[i][j] = 1
		}
	}
	b := Bootstrap{0.99, 2000}
	for _, s := range []Stat{StatMean, StatMedian} {
		for name, iv := range map[string]Interval{
			"HierarchicalRatio": b.HierarchicalRatio(g, g, s, newRand(3)),
			"BlockRatio":        b.BlockRatio(x, x, s, newRand(3)),
		} {
			if iv.Center != 1 || !iv.Contains(1) {
				t.Errorf("%s/%v of identical data = %+v, want Center 1 and containing 1", name, s, iv)
			}
		}
	}
	if iv := b.GeoMeanRatio(ones, newRand(3)); iv.Center != 1 || iv.Lo != 1 || iv.Hi != 1 {
		t.Errorf("GeoMeanRatio of all-1 ratios = %+v, want [1, 1]", iv)
	}
}

// TestBadData checks that unusable data gives NaN bounds, not a panic.
func TestBadData(t *testing.T) {
	nan := math.NaN()
	b := Bootstrap{0.95, 100}
	good := []float64{1, 2, 3}
	gg := [][]float64{good, good}
	for _, c := range []struct {
		name string
		iv   Interval
	}{
		{"Percentile(nil)", b.Percentile(nil, StatMean, newRand(1))},
		{"Percentile(one)", b.Percentile([]float64{1}, StatMedian, newRand(1))},
		{"Percentile(NaN)", b.Percentile([]float64{1, nan, 3}, StatMedian, newRand(1))},
		{"Studentized(one)", b.Studentized([]float64{1}, newRand(1))},
		{"Studentized(NaN)", b.Studentized([]float64{1, nan, 3}, newRand(1))},
		{"Hierarchical(nil)", b.Hierarchical(nil, StatMean, newRand(1))},
		{"Hierarchical(empty group)", b.Hierarchical([][]float64{good, {}}, StatMean, newRand(1))},
		{"Hierarchical(NaN)", b.Hierarchical([][]float64{good, {nan}}, StatMedian, newRand(1))},
		{"HierarchicalRatio(empty den)", b.HierarchicalRatio(gg, nil, StatMean, newRand(1))},
		{"BlockRatio(NaN)", b.BlockRatio(good, []float64{1, nan}, StatMean, newRand(1))},
		{"BlockRatio(0/0)", b.BlockRatio([]float64{0, 0}, []float64{0, 0}, StatMean, newRand(1))},
		{"GeoMeanRatio(nil)", b.GeoMeanRatio(nil, newRand(1))},
		{"GeoMeanRatio(one run)", b.GeoMeanRatio([][]float64{good}, newRand(1))},
		{"GeoMeanRatio(zero)", b.GeoMeanRatio([][]float64{good, {0, 1}}, newRand(1))},
		{"GeoMeanRatio(empty run)", b.GeoMeanRatio([][]float64{good, {}}, newRand(1))},
	} {
		if !math.IsNaN(c.iv.Lo) || !math.IsNaN(c.iv.Hi) {
			t.Errorf("%s = %+v, want NaN bounds", c.name, c.iv)
		}
		if c.iv.Contains(c.iv.Center) {
			t.Errorf("%s: NaN interval contains %v", c.name, c.iv.Center)
		}
	}
}

// TestMisusePanics checks that invalid settings panic with "stats: ".
func TestMisusePanics(t *testing.T) {
	x := []float64{1, 2, 3}
	r := newRand(1)
	for _, b := range []Bootstrap{{0, 100}, {1, 100}, {-0.5, 100}, {math.NaN(), 100}, {0.9, 0}, {0.9, -1}} {
		name := fmt.Sprintf("%+v", b)
		mustPanic(t, name+".Percentile", func() { b.Percentile(x, StatMean, r) })
		mustPanic(t, name+".Studentized", func() { b.Studentized(x, r) })
		mustPanic(t, name+".Hierarchical", func() { b.Hierarchical([][]float64{x}, StatMean, r) })
		mustPanic(t, name+".HierarchicalRatio", func() { b.HierarchicalRatio([][]float64{x}, [][]float64{x}, StatMean, r) })
		mustPanic(t, name+".BlockRatio", func() { b.BlockRatio(x, x, StatMean, r) })
		mustPanic(t, name+".GeoMeanRatio", func() { b.GeoMeanRatio([][]float64{x, x}, r) })
	}
	b := DefaultBootstrap
	mustPanic(t, "nil rand", func() { b.Percentile(x, StatMean, nil) })
	mustPanic(t, "Stat(7)", func() { b.Percentile(x, Stat(7), r) })
	mustPanic(t, "Stat(7).Of", func() { Stat(7).Of(x) })
	mustPanic(t, "BlockLength(0)", func() { BlockLength(0) })
	mustPanic(t, "Winsorize(p<0)", func() { Winsorize(nil, x, -1) })
}

func TestStatNames(t *testing.T) {
	for _, s := range []Stat{StatMean, StatMedian} {
		got, err := ParseStat(s.String())
		if err != nil || got != s {
			t.Errorf("ParseStat(%q) = %v, %v", s.String(), got, err)
		}
	}
	if _, err := ParseStat("mode"); err == nil {
		t.Error("ParseStat(\"mode\") succeeded")
	}
	if got := StatMedian.String(); got != "median" {
		t.Errorf("StatMedian.String() = %q", got)
	}
}

func TestIntervalMethods(t *testing.T) {
	iv := Interval{Center: -2, Lo: -3, Hi: -1, Level: 0.9}
	if got := iv.RelWidth(); got != 1 {
		t.Errorf("RelWidth = %v, want 1 ((Hi-Lo)/|Center|)", got)
	}
	for v, want := range map[float64]bool{-3: true, -1: true, -2: true, -3.5: false, 0: false, math.NaN(): false} {
		if got := iv.Contains(v); got != want {
			t.Errorf("Contains(%v) = %v, want %v", v, got, want)
		}
	}
}
