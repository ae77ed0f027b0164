package stop

import (
	"errors"
	"fmt"
	"time"
)

// Config is Laaber et al. 2020's execution configuration ⟨wi_min, wi_max, mi, f_min,
// f_max, iteration time⟩ (§4.1, C^b without the warm-up forks wf, which JMH
// and mbench do not use by default, and with one iteration time for warm-up
// and measurement, as in the paper's evaluation, wt = mt).
type Config struct {
	WarmupMin, WarmupMax int           // warm-up iterations per fork
	Measure              int           // measurement iterations per fork (mi)
	ForksMin, ForksMax   int           // forks (processes) per benchmark
	IterTime             time.Duration // target duration of one iteration
}

// DefaultConfig is the dynamic-reconfiguration configuration of Laaber et al. 2020
// §5.3.2, C^b = ⟨5, 50, 10, 2, 5, 0, 1s, 1s⟩, with one change for Go:
//
//   - WarmupMin 5, Measure 10, ForksMin 2, ForksMax 5 and IterTime 1s are the
//     paper's. 1s iterations give the criteria more checkpoints (§6,
//     "Iteration Time and Forks") and equal `go test`'s default -benchtime.
//     Five forks sample fork-to-fork variance, which Go has too (address-space
//     layout, scheduling, heap placement).
//   - WarmupMax is 30 instead of 50. The paper's 50 keeps JMH 1.21's warm-up
//     budget (5 iterations × 10s) for HotSpot's tiered JIT compilation, which
//     Go does not have; Go's warm-up (CPU frequency, page faults, caches, the
//     GC pacer finding its heap goal) settles within seconds. The cap must
//     still sit well above what the criteria need on an already stable
//     series, or wi_max would mean "could not decide yet" rather than "did
//     not settle": with Window 5, the criteria pass on stationary noise
//     well before 30 values (KLD cannot pass before 7). 30 keeps that
//     margin and bounds one benchmark at 5 × (30 + 10) × 1s = 200s instead
//     of the paper's 300s.
var DefaultConfig = Config{
	WarmupMin: 5,
	WarmupMax: 30,
	Measure:   10,
	ForksMin:  2,
	ForksMax:  5,
	IterTime:  time.Second,
}

// Validate reports every inconsistent field of c, naming it by its
// field's name. WarmupMax may be 0 (no warm-up at all); every fork
// needs at least one measurement iteration.
func (c Config) Validate() error {
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if c.WarmupMin < 0 {
		add("WarmupMin %d < 0", c.WarmupMin)
	}
	if c.WarmupMax < 0 {
		add("WarmupMax %d < 0", c.WarmupMax)
	}
	if c.WarmupMin > c.WarmupMax {
		add("WarmupMin %d > WarmupMax %d", c.WarmupMin, c.WarmupMax)
	}
	if c.Measure < 1 {
		add("Measure %d < 1", c.Measure)
	}
	if c.ForksMin < 1 {
		add("ForksMin %d < 1", c.ForksMin)
	}
	if c.ForksMin > c.ForksMax {
		add("ForksMin %d > ForksMax %d", c.ForksMin, c.ForksMax)
	}
	if c.IterTime <= 0 {
		add("IterTime %v <= 0", c.IterTime)
	}
	return errors.Join(errs...)
}
