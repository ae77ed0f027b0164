package stop

import (
	"fmt"
	"math"
	"time"

	"github.com/mbench/mbench/stats"
)

// phase is where a Controller is in the life of its current fork.
type phase int

const (
	idle      phase = iota // between forks
	warming                // warm-up iterations wanted
	measuring              // measurement iterations wanted
	draining               // the fork has its mi values; waiting for EndFork
)

// Controller drives Laaber et al. 2020's Algorithm 1 for one benchmark. A runner
// interleaves the forks of many benchmarks (RMIT), so the loop of the
// algorithm is turned inside out into events:
//
//	for ctl.NeedFork() {              // line 3, with line 10's break
//	    ctl.StartFork()
//	    for ctl.WantWarmup() {        // lines 5–7
//	        ctl.Warmup(iterate())
//	    }
//	    for ctl.Measure(iterate()) {} // lines 8–9
//	    ctl.EndFork()                 // line 10's checkpoint
//	}
//
// Warmup and Measure also return whether another iteration of their phase is
// wanted, so a runner streaming a fork's output can stop the process as soon
// as either says no. A fork whose process dies early still ends with EndFork;
// its measurements so far count, and a fork without any does not reach the
// fork checkpoint but still counts towards f_max, so a benchmark that keeps
// crashing cannot keep spawning forks.
//
// The warm-up checkpoint runs after each warm-up iteration from wi_min on,
// also at wi_max (so a fork whose last allowed iteration is stable is
// reported as stable). It ends warm-up when the criterion finds the window
// stable or when the window shows no trend (see the package comment's
// "Warm-up"); a dynamic criterion alone would hold a noisy but flat series
// in warm-up until wi_max. The fork checkpoint runs after each fork from
// f_min on, also at f_max. Calling a method out of this order is a bug in the caller
// and panics. A Controller is not safe for concurrent use.
type Controller struct {
	cfg      Config
	crit     Criterion
	static   bool
	trendWin int  // values the trend check looks at: the criterion's warm-up window
	trending bool // the current fork's latest warm-up checkpoint found a trend

	phase phase
	warm  []float64   // warm-up values of the current fork
	cur   []float64   // measurement values of the current fork
	forks [][]float64 // measurement values of the ended forks that have any

	rep    Report
	stable bool     // the fork checkpoint found stability
	last   Decision // the latest fork checkpoint
	checks int      // fork checkpoints run
}

// NewController returns a Controller for one benchmark. It panics if cfg is
// invalid (check it with Validate first) or c is nil.
func NewController(cfg Config, c Criterion) *Controller {
	if err := cfg.Validate(); err != nil {
		panic("stop: invalid Config: " + err.Error())
	}
	if c == nil {
		panic("stop: nil Criterion")
	}
	_, static := c.(Static)
	win := DefaultOptions.Window + 1
	if w, ok := c.(windowed); ok {
		win = w.warmupWindow()
	}
	if m, ok := c.(memoizer); ok {
		c = m.memoized()
	}
	return &Controller{cfg: cfg, crit: c, static: static, trendWin: win, rep: Report{Criterion: c.Name()}}
}

// NeedFork reports whether another fork is wanted: fewer than f_min have
// run, or the fork checkpoint has not found stability and fewer than f_max
// have run. It is false while a fork is in progress.
func (c *Controller) NeedFork() bool {
	f := c.rep.Forks
	return c.phase == idle && f < c.cfg.ForksMax && (f < c.cfg.ForksMin || !c.stable)
}

// StartFork begins a new fork. It panics unless NeedFork is true.
func (c *Controller) StartFork() {
	if !c.NeedFork() {
		panic("stop: StartFork while no fork is needed")
	}
	c.rep.Forks++
	c.rep.Warmup = append(c.rep.Warmup, 0)
	c.rep.WarmupStable = append(c.rep.WarmupStable, false)
	c.rep.WarmupTrend = append(c.rep.WarmupTrend, false)
	c.warm, c.cur = c.warm[:0], nil
	c.trending = false
	c.phase = warming
	if c.cfg.WarmupMax == 0 {
		c.phase = measuring
	}
}

// WantWarmup reports whether the current fork wants another warm-up
// iteration. It is false from the start with WarmupMax 0.
func (c *Controller) WantWarmup() bool { return c.phase == warming }

// Warmup records the value of a warm-up iteration of the current fork and
// reports whether more warm-up is wanted: false once the warm-up checkpoint
// (at wi_min or later) finds the fork stable or its window without a trend,
// or wi_max values are in. It panics unless WantWarmup is true.
func (c *Controller) Warmup(v float64) (more bool) {
	if c.phase != warming {
		panic("stop: Warmup outside a fork's warm-up")
	}
	c.warm = append(c.warm, v)
	n := len(c.warm)
	f := c.rep.Forks - 1
	c.rep.Warmup[f] = n
	if n >= c.cfg.WarmupMin {
		t := time.Now()
		d := c.crit.Warmup(c.warm)
		if !d.Stable && !c.static {
			c.trending = trending(c.warm, c.trendWin)
		}
		c.rep.CheckTime += time.Since(t)
		if d.Stable {
			c.rep.WarmupStable[f] = true
			c.phase = measuring
			return false
		}
		if !c.static && !c.trending {
			c.phase = measuring
			return false
		}
	}
	if n >= c.cfg.WarmupMax {
		c.rep.WarmupTrend[f] = c.trending
		c.phase = measuring
		return false
	}
	return true
}

// TrendLevel is the p-value of the warm-up window's slope (stats.Trend) at
// or below which the window counts as still trending. A false alarm costs
// one more warm-up iteration, and a warning only if the alarm persists
// through every checkpoint up to wi_max, so the level can be the usual 5%.
const TrendLevel = 0.05

// trending reports whether the last win values of warm (all of them, if
// fewer) show a trend: a least-squares slope with p ≤ TrendLevel. Fewer
// than 3 values cannot show one (stats.Trend needs a degree of freedom for
// the scatter), so a fork whose warm-up stops at wi_min < 3 is never
// trending.
func trending(warm []float64, win int) bool {
	w := warm[max(0, len(warm)-win):]
	_, p := stats.Trend(w)
	return !math.IsNaN(p) && p <= TrendLevel
}

// windowed is a Criterion with a sliding warm-up window; the trend check
// looks at the same values, so -window sets both.
type windowed interface {
	warmupWindow() int
}

// Measure records the value of a measurement iteration of the current fork
// and reports whether more are wanted: false after mi values. It panics
// unless the fork's warm-up has ended and fewer than mi values are in.
func (c *Controller) Measure(v float64) (more bool) {
	if c.phase != measuring {
		panic("stop: Measure outside a fork's measurement phase")
	}
	c.cur = append(c.cur, v)
	c.rep.Measured++
	if len(c.cur) >= c.cfg.Measure {
		c.phase = draining
		return false
	}
	return true
}

// EndFork ends the current fork, whether its process finished normally or
// not, and runs the fork checkpoint if at least f_min forks have run and
// this one produced measurements. It panics if no fork is in progress.
func (c *Controller) EndFork() {
	if c.phase == idle {
		panic("stop: EndFork without StartFork")
	}
	c.phase = idle
	if len(c.cur) == 0 {
		return
	}
	c.forks = append(c.forks, c.cur)
	c.cur = nil
	if c.rep.Forks < c.cfg.ForksMin {
		return
	}
	t := time.Now()
	c.last = c.crit.Forks(c.forks)
	c.rep.CheckTime += time.Since(t)
	c.checks++
	c.stable = c.last.Stable
}

// Report returns what the controller did so far; Stable and Reason are
// final once Done.
func (c *Controller) Report() Report {
	r := c.rep
	r.Warmup = append([]int(nil), r.Warmup...)
	r.WarmupStable = append([]bool(nil), r.WarmupStable...)
	r.WarmupTrend = append([]bool(nil), r.WarmupTrend...)
	r.Stable = c.stable
	cfg := c.cfg
	r.Done = c.phase == idle && !c.NeedFork()
	switch {
	case !r.Done:
		r.Reason = fmt.Sprintf("incomplete: %d forks run (f_min=%d, f_max=%d)", r.Forks, cfg.ForksMin, cfg.ForksMax)
	case c.static:
		r.Reason = fmt.Sprintf("static: f_max=%d forks, wi_max=%d warm-up and mi=%d measurement iterations each",
			cfg.ForksMax, cfg.WarmupMax, cfg.Measure)
	case c.stable:
		r.Reason = fmt.Sprintf("stable after %d forks (%s)", r.Forks, c.last.Detail)
	case c.checks == 0:
		r.Reason = fmt.Sprintf("f_max=%d reached without a fork checkpoint (no fork from f_min=%d on produced measurements)",
			cfg.ForksMax, cfg.ForksMin)
	default:
		r.Reason = fmt.Sprintf("f_max=%d reached without stability (%s)", cfg.ForksMax, c.last.Detail)
	}
	return r
}

// Report is the outcome of a Controller: what was run and why it stopped.
type Report struct {
	Criterion    string
	Forks        int
	Warmup       []int         // warm-up iterations used per fork
	WarmupStable []bool        // whether the criterion found each fork's warm-up stable
	WarmupTrend  []bool        // whether each fork's warm-up reached wi_max still trending (see Warnings)
	Measured     int           // measurement iterations in total
	Done         bool          // no more forks are wanted; Stable and Reason are final
	Stable       bool          // the fork checkpoint found stability; false for static and at f_max: the paper's warning
	Reason       string        // why it stopped, e.g. "stable after 3 forks (cv change 0.40% <= 1.00%)"
	CheckTime    time.Duration // time spent evaluating the criterion
}

// A Note is a warning about one benchmark, worded the same for every
// benchmark it applies to, so that a caller can print it once for all of
// them: a warning repeated per benchmark or per fork teaches users to skip
// warnings.
type Note struct {
	Problem string // what is wrong, e.g. "warm-up still trending at -wi-max"
	Advice  string // what to do about it
	Detail  string // this benchmark's figure, e.g. "25%"; may be empty
}

// String returns the note in one line.
func (n Note) String() string {
	s := n.Problem
	if n.Detail != "" {
		s += " (" + n.Detail + ")"
	}
	return s + "; " + n.Advice
}

// Warnings returns Laaber et al. 2020's warnings (§4.3, §6 "Unreachable Stability
// Criteria") for a dynamic criterion that gave up: a fork whose warm-up
// reached wi_max with its window still trending, and f_max reached without
// stability. They tell the user which bound to raise. A warm-up that reached
// wi_max without a trend in its window, only too noisy for the criterion,
// gets none: more warm-up would not change it. Static, which never checks,
// has none; neither has a run that is not Done.
func (r Report) Warnings() []Note {
	if r.Criterion == (Static{}).Name() || !r.Done {
		return nil
	}
	var w []Note
	for _, t := range r.WarmupTrend {
		if t {
			w = append(w, Note{Problem: "warm-up still trending at -wi-max", Advice: "raise -wi-max"})
			break
		}
	}
	if !r.Stable {
		w = append(w, Note{Problem: fmt.Sprintf("-f-max reached before %s found the forks stable", r.Criterion),
			Advice: "raise -f-max or expect a less accurate result"})
	}
	return w
}
