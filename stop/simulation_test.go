package stop

import (
	"math/rand/v2"
	"testing"

	"github.com/mbench/mbench/stats"
)

// TestStationaryWarmup backs DefaultConfig's choice of wi_max = 30: on
// series that are stable from the first iteration (Gaussian noise of 1% and
// 3%, 50 seeded series each) no criterion reaches wi_max, CV and RCIW stop
// after a median of at most 9 values and KLD after a median of 12 to 18
// (paper 000 §5.4.2 reports 14.1 ± 6.9 for KLD in JMH).
func TestStationaryWarmup(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	cfg := DefaultConfig
	cfg.ForksMin, cfg.ForksMax = 1, 1
	for _, noise := range []float64{0.01, 0.03} {
		for _, name := range []string{"cv", "rciw", "kld"} {
			r := rand.New(rand.NewPCG(5, uint64(1000*noise)))
			var stops []float64
			for range 50 {
				ctl := NewController(cfg, mustNew(name, DefaultOptions))
				ctl.StartFork()
				for ctl.Warmup(1 + noise*r.NormFloat64()) {
				}
				rep := ctl.Report()
				if !rep.WarmupStable[0] {
					t.Errorf("noise %v %s: a stationary series reached wi_max", noise, name)
				}
				stops = append(stops, float64(rep.Warmup[0]))
			}
			med := stats.Median(stops)
			lo, hi := 6.0, 9.0
			if name == "kld" {
				lo, hi = 12, 18
			}
			if med < lo || med > hi {
				t.Errorf("noise %v %s: median warm-up %v, want %v to %v", noise, name, med, lo, hi)
			}
		}
	}
}
