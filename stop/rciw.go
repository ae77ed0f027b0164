package stop

import (
	"fmt"

	"github.com/mbench/mbench/stats"
)

// RCIW is Laaber et al. 2020's relative-confidence-interval-width criterion
// (§4.2.3): the statistic is the bootstrap confidence interval of the mean
// at Level with Replicates resamples, as a width relative to the mean,
// (Hi − Lo)/|mean|, and a series is stable when that width no longer changes
// by more than Threshold within the window (stable^var, as for CV).
//
// Within a fork (warm-up) the values are independent iterations of one
// process, so the interval is the percentile bootstrap
// (stats.Bootstrap.Percentile). Across forks it is the hierarchical
// bootstrap (stats.Bootstrap.Hierarchical), resampling forks and then
// iterations within them, as the paper does with the authors' tool pa after
// Kalibera and Jones; it sees fork-to-fork variance. The paper's third
// level, invocations within an iteration, does not exist in Go: an iteration
// reports one mean over its b.N operations.
//
// Each interval draws from its own random stream seeded with Seed (see
// stream), so decisions are reproducible.
//
// Build it with New, which checks the fields; the methods assume valid ones.
type RCIW struct {
	Window     int
	Threshold  float64
	Level      float64
	Replicates int
	Seed       uint64

	memo *prefixMemo[[]float64] // see memoizer; nil outside a Controller
}

func (c RCIW) memoized() Criterion {
	c.memo = newForkMemo()
	return c
}

func (c RCIW) validate() error {
	if err := checkWindow(c.Window); err != nil {
		return err
	}
	if err := checkThreshold("RCIW", c.Threshold); err != nil {
		return err
	}
	if !(c.Level > 0 && c.Level < 1) {
		return fmt.Errorf("Level %v: want a confidence level in (0, 1)", c.Level)
	}
	if c.Replicates < 1 {
		return fmt.Errorf("Replicates %d < 1", c.Replicates)
	}
	return nil
}

func (c RCIW) warmupWindow() int { return c.Window + 1 }

// Name returns "rciw".
func (RCIW) Name() string { return "rciw" }

func (c RCIW) boot() stats.Bootstrap {
	return stats.Bootstrap{Level: c.Level, Replicates: c.Replicates}
}

// Warmup checks the RCIWs of the window's growing prefixes; it needs
// Window+1 values.
func (c RCIW) Warmup(values []float64) Decision {
	r := stream(c.Seed, streamWarmup, len(values))
	b := c.boot()
	return varWarmup("rciw", values, c.Window, c.Threshold, func(set []float64) float64 {
		return b.Percentile(set, stats.StatMean, r).RelWidth()
	})
}

// Forks checks the hierarchical RCIW of forks 1..f against that of forks
// 1..f−1; it needs two forks. The interval of forks 1..k is drawn from the
// stream keyed by k, so it is the same at every checkpoint that needs it.
func (c RCIW) Forks(forks [][]float64) Decision {
	if c.memo != nil && len(forks) >= 2 {
		c.memo.sync(forks)
	}
	b := c.boot()
	return varForks("rciw", forks, c.Threshold, func(fs [][]float64) float64 {
		k := len(fs)
		return c.memo.get(k, func() float64 {
			return b.Hierarchical(fs, stats.StatMean, stream(c.Seed, streamForks, k)).RelWidth()
		})
	})
}
