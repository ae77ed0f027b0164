package stop

import "github.com/mbench/mbench/stats"

// CV is Laaber et al. 2020's coefficient-of-variation criterion (§4.2.3): the
// statistic is CV = sd/mean (n−1 sd), and a series is stable when the CV no
// longer changes by more than Threshold (an absolute difference of CVs, 0.01
// = one percentage point) within the window. The package comment lists
// exactly which values the windows cover.
//
// Build it with New, which checks the fields; the methods assume valid ones.
type CV struct {
	Window    int
	Threshold float64
}

func (c CV) validate() error {
	if err := checkWindow(c.Window); err != nil {
		return err
	}
	return checkThreshold("CV", c.Threshold)
}

func (c CV) warmupWindow() int { return c.Window + 1 }

// Name returns "cv".
func (CV) Name() string { return "cv" }

// Warmup checks the CVs of the window's growing prefixes; it needs
// Window+1 values.
func (c CV) Warmup(values []float64) Decision {
	return varWarmup("cv", values, c.Window, c.Threshold, stats.CV)
}

// Forks checks the CV of all measurements of forks 1..f against that of
// forks 1..f−1; it needs two forks.
func (c CV) Forks(forks [][]float64) Decision {
	return varForks("cv", forks, c.Threshold, func(fs [][]float64) float64 {
		return stats.CV(pooled(fs))
	})
}
