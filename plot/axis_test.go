package plot

import (
	"math"
	"slices"
	"testing"
)

func TestTickLabels(t *testing.T) {
	cases := []struct {
		unit  string
		ticks []float64
		log   bool
		want  []string
	}{
		{"sec/op", []float64{0, 0.5e-6, 1e-6, 1.5e-6}, false, []string{"0", "0.5µs", "1.0µs", "1.5µs"}},
		{"sec/op", []float64{100e-9, 200e-9, 300e-9}, false, []string{"100ns", "200ns", "300ns"}},
		{"B/op", []float64{0, 2000, 4000}, false, []string{"0", "2kB", "4kB"}},
		{"allocs/op", []float64{1, 2, 3}, false, []string{"1", "2", "3"}},
		{"sec/op", []float64{1e-9, 1e-8, 1e-3, 2}, true, []string{"1ns", "10ns", "1ms", "2s"}},
		{"", []float64{10, 100, 1000, 1e6}, true, []string{"10", "100", "1k", "1M"}},
	}
	for _, c := range cases {
		format := formatter(c.unit, c.ticks, c.log)
		var got []string
		for _, v := range c.ticks {
			got = append(got, format(v))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s %v: %q, want %q", c.unit, c.ticks, got, c.want)
		}
	}
	pct := percent([]float64{-0.1, -0.05, 0, 0.05})
	if got := []string{pct(-0.1), pct(0), pct(0.05)}; !slices.Equal(got, []string{"-10%", "0%", "+5%"}) {
		t.Errorf("percent: %q", got)
	}
	if got := niceTicks(0.13, 0.87, 4); !slices.EqualFunc(got, []float64{0.2, 0.4, 0.6, 0.8}, func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }) {
		t.Errorf("niceTicks(0.13, 0.87, 4) = %v", got)
	}
}

// TestTicksEnd checks that ticks come out for ranges far narrower than the
// precision of their magnitude, where adding the step to a tick changes
// nothing, and for values that would overflow.
func TestTicksEnd(t *testing.T) {
	if got := niceTicks(1e17, 1e17+16, 4); len(got) == 0 || len(got) > 10 {
		t.Errorf("niceTicks(1e17, 1e17+16, 4) = %v", got)
	}
	f := Paired("huge", "sec/op", []PairedPoint{{1e17, 1e17 + 8}, {1e300, -1e300}})
	root := parse(t, f, "paired")
	if root.markers("c0") != 2 || root.markers("c1") != 2 {
		t.Errorf("want the placeable pair and the legend keys only")
	}
}

// TestBulk: far-out values (beyond three interquartile ranges of the
// quartiles) are left off the axis, whichever side they are on; values
// that are all alike keep the few that differ off it; data without
// outliers keep their whole range.
func TestBulk(t *testing.T) {
	spread := []float64{100, 101, 102, 103, 104, 105, 106, 107, 108, 109}
	cases := []struct {
		name     string
		vs       []float64
		positive bool
		lo, hi   float64
	}{
		{"no outliers", spread, true, 100, 109},
		{"slow outlier", append(slices.Clone(spread), 1000), true, 100, 109},
		{"fast outlier", append(slices.Clone(spread), 10), true, 100, 109},
		{"linear", append(slices.Clone(spread), -500), false, 100, 109},
		{"counts", []float64{1, 1, 1, 1, 1, 1, 1, 1, 5}, true, 1, 1},
		{"NaN and Inf", []float64{1, 2, math.NaN(), math.Inf(1)}, true, 1, 2},
	}
	for _, c := range cases {
		lo, hi, ok := bulk(c.vs, c.positive)
		if !ok || lo != c.lo || hi != c.hi {
			t.Errorf("%s: bulk [%v, %v] %v, want [%v, %v]", c.name, lo, hi, ok, c.lo, c.hi)
		}
	}
	if _, _, ok := bulk([]float64{math.NaN(), -1}, true); ok {
		t.Errorf("no positive finite values: ok")
	}
}

// TestValueAxis: an axis of the bulk counts the values beyond it and
// places them inside the frame's edge, and always shows the values it
// must keep.
func TestValueAxis(t *testing.T) {
	vals := []float64{100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 1000, 1}
	ax, ok := valueAxisOf(vals, []float64{120}, 0, 500)
	if !ok || ax.beyond != 2 || ax.lo != 100 || ax.hi != 120 {
		t.Fatalf("axis %+v, want [100, 120] with 2 beyond", ax)
	}
	if x, side := ax.place(1000); side != 1 || x != 500-edgeInset {
		t.Errorf("place(1000) = %v, %d: want the right edge", x, side)
	}
	if x, side := ax.place(1); side != -1 || x != edgeInset {
		t.Errorf("place(1) = %v, %d: want the left edge", x, side)
	}
	if x, side := ax.place(105); side != 0 || !(x > edgeInset && x < 500-edgeInset) {
		t.Errorf("place(105) = %v, %d: want inside", x, side)
	}
}
