package scaling

import (
	"math"
	"strings"
	"testing"

	"github.com/mbench/mbench/stats"
)

func TestWrite(t *testing.T) {
	iv := func(c, lo, hi float64) stats.Interval { return stats.Interval{Center: c, Lo: lo, Hi: hi, Level: 0.99} }
	nan := math.NaN()
	fams := []*Family{
		{
			Pkg: "example.com/enc", Procs: 2, Base: "Encode", Param: "size", Variant: "json", Position: 2, Unit: "sec/op",
			Points: []Point{
				{Name: "Encode/json/size=64", X: 64, Center: 1.2e-6, Lo: 1.1e-6, Hi: 1.3e-6},
				{Name: "Encode/json/size=1KiB", X: 1024, Center: 19e-6, Lo: 18e-6, Hi: 20e-6},
				{Name: "Encode/json/size=16KiB", X: 16384, Center: 310e-6, Lo: nan, Hi: nan},
			},
			Slope: iv(1.02, 0.98, 1.06), Tail: iv(1.02, 0.98, 1.06),
		},
		{
			Pkg: "example.com/enc", Version: "new", Base: "Hash", Position: 1, Unit: "sec/op",
			Points: []Point{
				{Name: "Hash/15", X: 15, Center: 50e-9, Lo: 40e-9, Hi: 60e-9},
				{Name: "Hash/1kB", X: 1000, Center: 60e-9, Lo: 50e-9, Hi: 70e-9},
				{Name: "Hash/4kB", X: 4000, Center: 150e-9, Lo: 140e-9, Hi: 160e-9},
				{Name: "Hash/32kB", X: 32000, Center: 1.2e-6, Lo: 1.1e-6, Hi: 1.3e-6},
			},
			Slope: iv(0.39, 0.23, 0.55), Tail: iv(0.99, 0.93, 1.04), Curved: true,
		},
		{
			Pkg: "example.com/s", Base: "Search", Param: "Size", Position: 1, Unit: "sec/op",
			Points: []Point{
				{Name: "Search/Size16", X: 16, Center: 15e-9, Lo: 10e-9, Hi: 20e-9},
				{Name: "Search/Size64", X: 64, Center: 30e-9, Lo: 20e-9, Hi: 40e-9},
				{Name: "Search/Size1024", X: 1024, Center: 40e-9, Lo: 30e-9, Hi: 50e-9},
			},
			Slope: iv(0.23, -0.6, 0.9), Tail: iv(0.23, -0.6, 0.9),
		},
		{
			Pkg: "example.com/s", Base: "Scan", Param: "Valid", Position: 1, Unit: "sec/op",
			Points: []Point{
				{Name: "Scan/10Valid", X: 10, Center: 15e-9, Lo: 10e-9, Hi: 20e-9},
				{Name: "Scan/1kValid", X: 1000, Center: 1e-6, Lo: 0.9e-6, Hi: 1.1e-6},
				{Name: "Scan/1MValid", X: 1e6, Center: 1e-3, Lo: 0.9e-3, Hi: 1.1e-3},
			},
			Slope: iv(0.96, 0.9, 0.99), Tail: iv(0.96, 0.9, 0.99),
		},
	}
	var b strings.Builder
	if err := Write(&b, fams); err != nil {
		t.Fatal(err)
	}
	want := `pkg: example.com/enc
Encode/json/size=*-2
     size  sec/op            99% CI
       64  1.200µ  [1.100µ, 1.300µ]
     1KiB  19.00µ  [18.00µ, 20.00µ]
    16KiB  310.0µ                 -
  ≈ size^1.02 [0.98, 1.06], consistent with linear or n log n

new: Hash/*
       n  sec/op            99% CI
      15  50.00n  [40.00n, 60.00n]
     1kB  60.00n  [50.00n, 70.00n]
     4kB  150.0n  [140.0n, 160.0n]
    32kB  1.200µ  [1.100µ, 1.300µ]
  ≈ n^0.39 [0.23, 0.55] over all 4 points, but they bend: ≈ n^0.99 [0.93, 1.04] over the largest 3, consistent with linear or n log n

pkg: example.com/s
Search/Size*
    Size  sec/op            99% CI
      16  15.00n  [10.00n, 20.00n]
      64  30.00n  [20.00n, 40.00n]
    1024  40.00n  [30.00n, 50.00n]
  ≈ Size^0.23 [-0.60, 0.90], too uncertain to name a class

Scan/*Valid
     n  sec/op            99% CI
    10  15.00n  [10.00n, 20.00n]
    1k  1.000µ  [900.0n, 1.100µ]
    1M  1.000m  [900.0µ, 1.100m]
  ≈ n^0.96 [0.90, 0.99], between square root and linear
`
	if got := b.String(); got != want {
		t.Errorf("Write:\n%s\nwant:\n%s", got, want)
	}
}

func TestClasses(t *testing.T) {
	iv := func(lo, hi float64) stats.Interval {
		return stats.Interval{Center: (lo + hi) / 2, Lo: lo, Hi: hi, Level: 0.99}
	}
	xs := []float64{64, 256, 1024, 4096, 16384, 65536}
	// Over 64..65536 log(1+x) fits as x^0.139, so log n spans (0, 0.139]
	// and n log n (1, 1.139]
	// (NumPy 1.24.2: numpy.polyfit(log(x), log(log1p(x)), 1)[0] = 0.1390039932518358).
	for _, tt := range []struct {
		iv   stats.Interval
		want string
	}{
		{iv(0.95, 1.0), "consistent with linear"},
		{iv(0.98, 1.06), "consistent with linear or n log n"},
		{iv(1.02, 1.06), "consistent with n log n"},
		{iv(1.15, 1.3), "between n log n and quadratic"},
		{iv(0.2, 0.45), "between logarithmic and square root"},
		{iv(0.98, 1.2), "consistent with linear or n log n"},
		{iv(1.1, 1.2), "consistent with n log n"},
		{iv(1.9, 2.0), "consistent with quadratic"},
		{iv(1.95, 2.05), "consistent with quadratic or n² log n"},
		{iv(-0.05, 0.2), "consistent with constant or logarithmic"},
		{iv(0.45, 0.52), "consistent with square root"},
		{iv(1.3, 1.8), "between n log n and quadratic"},
		{iv(3.2, 3.5), "steeper than cubic"},
		{iv(-1.2, -0.9), "below constant (faster than constant: a cost that falls as n grows)"},
		{iv(0, 1.5), "too uncertain to name a class"},
		{stats.Interval{Center: 1, Lo: math.NaN(), Hi: math.NaN()}, "too uncertain to name a class"},
	} {
		if got := Classes(tt.iv, xs); got != tt.want {
			t.Errorf("Classes([%v, %v]) = %q, want %q", tt.iv.Lo, tt.iv.Hi, got, tt.want)
		}
	}
	for _, c := range classes(xs) {
		if c.name == "logarithmic" && !near(c.hi, 0.1390039932518358, 1e-12) {
			t.Errorf("logarithmic slope over %v = %v, numpy 0.1390039932518358", xs, c.hi)
		}
	}
}
