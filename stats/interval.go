package stats

import (
	"fmt"
	"math"
)

// Interval is a two-sided confidence interval for a statistic. Lo and Hi
// are NaN when the data cannot support an interval (too few values, NaN,
// non-positive values where logarithms are taken); Center may still be set.
type Interval struct {
	Center float64 // point estimate of the statistic on the full data
	Lo, Hi float64
	Level  float64 // confidence level, e.g. 0.99
}

// RelWidth returns the interval's width relative to its center,
//
//	RCIW = (Hi − Lo) / |Center|
//
// the relative confidence interval width of Japke et al. 2025 §2 (RCIW1–3, depending
// on the statistic and method that produced the interval) and Laaber et al. 2020
// §4.2.3. It is NaN if any field is NaN and +Inf for a zero center.
func (iv Interval) RelWidth() float64 {
	return (iv.Hi - iv.Lo) / math.Abs(iv.Center)
}

// Contains reports whether Lo ≤ v ≤ Hi. It is false for NaN bounds or v, so
// an interval the data could not support contains nothing.
func (iv Interval) Contains(v float64) bool {
	return iv.Lo <= v && v <= iv.Hi
}

// nanInterval is the interval returned for data that cannot support one.
func nanInterval(center, level float64) Interval {
	return Interval{Center: center, Lo: math.NaN(), Hi: math.NaN(), Level: level}
}

// Stat selects the statistic a bootstrap estimates.
type Stat int

const (
	StatMean   Stat = iota // arithmetic mean (RCIW1, RCIW2 of Japke et al. 2025)
	StatMedian             // sample median (RCIW3 of Japke et al. 2025)
)

// String returns the statistic's name as ParseStat accepts it.
func (s Stat) String() string {
	switch s {
	case StatMean:
		return "mean"
	case StatMedian:
		return "median"
	}
	return fmt.Sprintf("Stat(%d)", int(s))
}

// ParseStat returns the Stat named s ("mean" or "median").
func ParseStat(s string) (Stat, error) {
	switch s {
	case "mean":
		return StatMean, nil
	case "median":
		return StatMedian, nil
	}
	return 0, fmt.Errorf("stats: unknown statistic %q (want mean or median)", s)
}

// Of returns the statistic of x: Mean(x) or Median(x). It does not modify or
// reorder x (the median sorts a copy), so it is safe on a caller's data; the
// bootstraps use an allocation-free equivalent internally. It panics for an
// unknown Stat.
func (s Stat) Of(x []float64) float64 {
	switch s {
	case StatMean:
		return Mean(x)
	case StatMedian:
		return Median(x)
	}
	panic(fmt.Sprintf("stats: unknown statistic %d", int(s)))
}

// check panics unless s is a known statistic.
func (s Stat) check() {
	if s != StatMean && s != StatMedian {
		panic(fmt.Sprintf("stats: unknown statistic %d", int(s)))
	}
}
