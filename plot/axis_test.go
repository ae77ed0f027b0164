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
