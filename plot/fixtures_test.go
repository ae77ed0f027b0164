package plot

import (
	"fmt"
	"math"
)

// fixtures are one figure of each kind, on data chosen to exercise what
// the kind draws: every verdict, warm-up and a stop, several forks and
// versions, log decades, change points, and a name that needs escaping.
func fixtures() map[string]*Figure {
	return map[string]*Figure{
		"forest":  Forest("sec/op: old vs new", forestRows(), 0.03),
		"strip":   Strip("Distributions", "sec/op", stripGroups()),
		"trace":   Trace("Trace of Parse", "sec/op", traceForks(), 3),
		"paired":  Paired("Paired samples of Sum", "sec/op", pairedPoints()),
		"scaling": Scaling("Scaling of Sort", "n", "sec/op", scalingLines()),
		"history": History("History", "sec/op", historySeries(4)),
	}
}

func forestRows() []ForestRow {
	return []ForestRow{
		{"Sum", Interval{0.10, 0.06, 0.14}, "slower"},
		{"Join/n=10", Interval{-0.20, -0.25, -0.15}, "faster"},
		{"Parse", Interval{0.005, -0.01, 0.02}, "no change"},
		{"Decode<x>&\"y\"", Interval{0.02, -0.05, 0.09}, "inconclusive"},
		{"Encode", Interval{math.NaN(), math.NaN(), math.NaN()}, "inconclusive"},
	}
}

func stripGroups() []StripGroup {
	var gs []StripGroup
	for _, v := range []string{"old", "new"} {
		base := 100e-9
		if v == "new" {
			base = 90e-9
		}
		var forks [][]float64
		for k := range 3 {
			var vals []float64
			for j := range 5 {
				vals = append(vals, base*(1+0.02*float64(k)+0.005*float64(j)))
			}
			forks = append(forks, vals)
		}
		gs = append(gs, StripGroup{Name: "Sum", Version: v, Forks: forks, Center: Interval{base * 1.02, base * 1.01, base * 1.03}})
	}
	return gs
}

func traceForks() []TraceFork {
	var fs []TraceFork
	for k := range 4 {
		var vals []float64
		for j := range 8 {
			vals = append(vals, 1e-6*(1+0.5*math.Exp(-float64(j))+0.01*float64(k)))
		}
		fs = append(fs, TraceFork{Values: vals, Warmup: 3})
	}
	return fs
}

func pairedPoints() []PairedPoint {
	var ps []PairedPoint
	for i := range 30 {
		noise := 0.1 * math.Sin(float64(i)/3)
		ps = append(ps, PairedPoint{Old: 1e-6 * (1 + noise), New: 0.95e-6 * (1 + noise)})
	}
	return ps
}

func scalingLines() []ScalingLine {
	var ls []ScalingLine
	for i, name := range []string{"Sort/quick", "Sort/insertion"} {
		var ps []ScalingPoint
		for _, n := range []float64{10, 100, 1000, 10000} {
			y := 1e-8 * n * math.Log2(n)
			if i == 1 {
				y = 1e-9 * n * n
			}
			ps = append(ps, ScalingPoint{X: n, Y: Interval{y, y * 0.9, y * 1.1}})
		}
		slope := Interval{1.1, 1.05, 1.15}
		if i == 1 {
			slope = Interval{2.0, 1.97, 2.03}
		}
		ls = append(ls, ScalingLine{Name: name, Points: ps, Slope: slope})
	}
	return ls
}

func historySeries(n int) []HistorySeries {
	var ss []HistorySeries
	for s := range n {
		var ps []HistoryPoint
		for i := range 12 {
			y := 1e-6
			if i >= 7 {
				y *= 1.25
			}
			y *= 1 + 0.01*math.Sin(float64(i+s))
			ps = append(ps, HistoryPoint{Label: fmt.Sprintf("c%02d", i), Y: Interval{y, y * 0.97, y * 1.03}})
		}
		ss = append(ss, HistorySeries{Name: fmt.Sprintf("Bench%d", s), Points: ps, Changes: []int{7}})
	}
	return ss
}
