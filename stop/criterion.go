package stop

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// A Criterion decides whether a series is stable (Laaber et al. 2020 §4.2): a
// stability statistic, a window and a threshold. Implementations are CV,
// RCIW, KLD and Static. They keep no state between calls and do not retain or
// modify the slices they are given, so one Criterion can serve any number of
// Controllers, also concurrently, and a decision depends only on its input.
type Criterion interface {
	Name() string
	// Warmup is checked after each warm-up iteration with the warm-up
	// values of the current fork so far.
	Warmup(values []float64) Decision
	// Forks is checked after each fork with the measurement values of
	// every fork so far (one slice per fork).
	Forks(forks [][]float64) Decision
}

// Decision is the outcome of one checkpoint.
type Decision struct {
	Stable bool
	Value  float64 // the statistic checked (change or mean probability); NaN if not computable
	Detail string  // e.g. "cv change 0.40% <= 1.00%"
}

// Options are the criteria's parameters (Laaber et al. 2020 §5.3.2).
type Options struct {
	Window        int     // s^W: warm-up iterations in the sliding window
	CVThreshold   float64 // t for CV: largest change of the CV within the window
	RCIWThreshold float64 // t for RCIW: largest change of the relative CI width
	KLDThreshold  float64 // t for KLD: smallest mean similarity probability (exclusive)
	Level         float64 // RCIW's confidence level
	Replicates    int     // RCIW's bootstrap replicates
	KLDPoints     int     // KLD's grid points ("strips")
	Seed          uint64  // seed of RCIW's bootstrap streams
}

// DefaultOptions are Laaber et al. 2020 §5.3.2's parameters: window s^W = 5; CV
// t = 0.01; RCIW with a 99% level, 1,000 bootstrap replicates and t = 0.03;
// KLD on 1,000 points with t = 0.99.
var DefaultOptions = Options{
	Window:        5,
	CVThreshold:   0.01,
	RCIWThreshold: 0.03,
	KLDThreshold:  0.99,
	Level:         0.99,
	Replicates:    1000,
	KLDPoints:     1000,
	Seed:          1,
}

// Names lists the criteria New accepts, for flag help.
var Names = []string{"cv", "rciw", "kld", "static"}

// New returns the criterion called name (cv, rciw, kld or static) with the
// parameters of opts that it uses, or an error naming the first bad one.
func New(name string, opts Options) (Criterion, error) {
	var c Criterion
	switch name {
	case "cv":
		c = CV{Window: opts.Window, Threshold: opts.CVThreshold}
	case "rciw":
		c = RCIW{Window: opts.Window, Threshold: opts.RCIWThreshold, Level: opts.Level,
			Replicates: opts.Replicates, Seed: opts.Seed}
	case "kld":
		c = KLD{Window: opts.Window, Threshold: opts.KLDThreshold, Points: opts.KLDPoints}
	case "static":
		return Static{}, nil
	default:
		return nil, fmt.Errorf("unknown criterion %q (want %s)", name, strings.Join(Names, ", "))
	}
	if err := c.(interface{ validate() error }).validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// minWindow is the smallest useful window: with one statistic (CV, RCIW) or
// one probability (KLD) there is no change within the window to test.
const minWindow = 2

func checkWindow(w int) error {
	if w < minWindow {
		return fmt.Errorf("Window %d < %d", w, minWindow)
	}
	return nil
}

func checkThreshold(name string, t float64) error {
	if !(t > 0) || math.IsInf(t, 1) {
		return fmt.Errorf("%sThreshold %v: want a positive number", name, t)
	}
	return nil
}

// Static is Laaber et al. 2020's baseline, the static configuration (§5.3.2): it
// never declares stability, so a Controller runs wi_max warm-up iterations
// in every fork and f_max forks.
type Static struct{}

// Name returns "static".
func (Static) Name() string { return "static" }

// Warmup is never stable.
func (Static) Warmup([]float64) Decision {
	return Decision{Value: math.NaN(), Detail: "static"}
}

// Forks is never stable.
func (Static) Forks([][]float64) Decision {
	return Decision{Value: math.NaN(), Detail: "static"}
}

// varWarmup is the warm-up check of the variability criteria CV and RCIW:
// Laaber et al. 2020 Eq. (1) with stable^var (§4.2.3). After n values and window s
// the window starts at i' = n − s, and its statistics are
//
//	W_n = ⟨ sc(v_i' … v_x) | i' < x ≤ n ⟩
//
// the statistic of the window's first 2, 3, …, s+1 values; Eq. (1) also
// lists x = i', a single value, but one Go iteration is one number and
// neither a CV nor a bootstrap exists for it. The check is stable iff
// max(W_n) − min(W_n) ≤ t. It needs n ≥ s+1 values.
func varWarmup(name string, values []float64, s int, t float64, sc func(set []float64) float64) Decision {
	n := len(values)
	if n < s+1 {
		return needMore(name, s+1, n, "warm-up values")
	}
	w := values[n-s-1:]
	lo, hi := math.Inf(1), math.Inf(-1)
	for x := 2; x <= len(w); x++ {
		v := sc(w[:x])
		if math.IsNaN(v) {
			lo, hi = math.NaN(), math.NaN()
			break
		}
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	return varDecision(name, hi-lo, t)
}

// varForks is the fork check of CV and RCIW: Laaber et al. 2020 Eq. (2) restricted to
// its last two elements, as in the authors' JMH fork (a fork window of 2):
//
//	stable ⇔ |sc(M_1 ∪ … ∪ M_f) − sc(M_1 ∪ … ∪ M_f−1)| ≤ t
//
// Eq. (2) lists sc for every prefix from fork 1 on; with stable^var its
// max − min can only grow with f, so a benchmark unstable at its first
// checkpoint could never become stable. It needs 2 forks.
func varForks(name string, forks [][]float64, t float64, sc func(forks [][]float64) float64) Decision {
	f := len(forks)
	if f < 2 {
		return needMore(name, 2, f, "forks")
	}
	return varDecision(name, math.Abs(sc(forks)-sc(forks[:f-1])), t)
}

func varDecision(name string, change, t float64) Decision {
	d := Decision{Value: change, Stable: change <= t}
	rel := ">"
	if d.Stable {
		rel = "<="
	}
	d.Detail = fmt.Sprintf("%s change %s %s %s", name, pct(change), rel, pct(t))
	return d
}

func needMore(name string, need, have int, what string) Decision {
	return Decision{Value: math.NaN(), Detail: fmt.Sprintf("%s needs %d %s, has %d", name, need, what, have)}
}

// pct formats a fraction as a percentage.
func pct(v float64) string {
	return fmt.Sprintf("%.2f%%", 100*v)
}

// pooled returns all values of forks in one slice.
func pooled(forks [][]float64) []float64 {
	n := 0
	for _, f := range forks {
		n += len(f)
	}
	all := make([]float64, 0, n)
	for _, f := range forks {
		all = append(all, f...)
	}
	return all
}

// Streams of RCIW's bootstrap: each check draws from its own PCG stream,
// seeded with Options.Seed and a key naming the checkpoint and the amount of
// data, so a decision depends on the data and the seed only, never on how a
// runner interleaves benchmarks or shares a Criterion between goroutines.
const (
	streamWarmup uint64 = 1 << 32
	streamForks  uint64 = 2 << 32
)

func stream(seed, kind uint64, n int) *rand.Rand {
	return rand.New(rand.NewPCG(seed, kind|uint64(n)))
}
