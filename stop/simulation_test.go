package stop

import (
	"math/rand/v2"
	"testing"
)

// TestStationaryWarmup checks, on series that are stable from the first
// iteration (Gaussian noise of 1%, 3% and 20%, 50 seeded series each), that
// warm-up ends at wi_min in at least 90% of forks for every criterion: the
// window shows no trend, whatever the criterion thinks of the noise. Ending
// later takes a slope with p ≤ TrendLevel (5%) in the window; none of them
// reaches wi_max still trending.
func TestStationaryWarmup(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	cfg := DefaultConfig
	cfg.ForksMin, cfg.ForksMax = 1, 1
	for _, noise := range []float64{0.01, 0.03, 0.2} {
		for _, name := range []string{"cv", "rciw", "kld"} {
			r := rand.New(rand.NewPCG(5, uint64(1000*noise)))
			atMin := 0
			for range 50 {
				ctl := NewController(cfg, mustNew(name, DefaultOptions))
				ctl.StartFork()
				for ctl.Warmup(1+noise*r.NormFloat64(), Unmeasured) {
				}
				rep := ctl.Report()
				if rep.WarmupTrend[0] {
					t.Errorf("noise %v %s: a stationary series reached wi_max trending", noise, name)
				}
				if rep.Warmup[0] == cfg.WarmupMin {
					atMin++
				}
			}
			if atMin < 45 {
				t.Errorf("noise %v %s: warm-up ended at wi_min in %d of 50 forks, want at least 45", noise, name, atMin)
			}
		}
	}
}
