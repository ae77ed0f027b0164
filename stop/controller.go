package stop

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
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
//	        ctl.Warmup(iterate())     // the metric's value and the per-op figures
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
// "Warm-up"), and the per-op figures are steady (DefaultSteady, followed
// by a SteadyState across the benchmark's forks); a dynamic criterion alone
// would hold a noisy but flat series in warm-up until wi_max, and neither
// it nor the trend sees B/op fall from megabytes to nothing between the
// first two iterations. Static runs wi_max whatever the figures. The fork
// checkpoint runs after each fork from f_min on, also at f_max. Calling a
// method out of this order is a bug in the caller and panics. A Controller
// is not safe for concurrent use.
type Controller struct {
	cfg      Config
	crit     Criterion
	static   bool
	trendWin int  // values the trend check looks at: the criterion's warm-up window
	trending bool // the current fork's latest warm-up checkpoint found a trend
	steady   *SteadyState
	held     string // what held the current fork's latest warm-up checkpoint (see warmupWhy)

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
	return &Controller{cfg: cfg, crit: c, static: static, trendWin: win, steady: NewSteadyState(DefaultSteady),
		rep: Report{Criterion: c.Name()}}
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
	c.rep.WarmupUnsteady = append(c.rep.WarmupUnsteady, "")
	c.rep.WarmupWhy = append(c.rep.WarmupWhy, "")
	c.warm, c.cur = c.warm[:0], nil
	c.trending = false
	c.held = ""
	c.steady.StartFork()
	c.phase = warming
	if c.cfg.WarmupMax == 0 {
		c.phase = measuring
		c.rep.WarmupWhy[len(c.rep.WarmupWhy)-1] = WhyNone
	}
}

// WantWarmup reports whether the current fork wants another warm-up
// iteration. It is false from the start with WarmupMax 0.
func (c *Controller) WantWarmup() bool { return c.phase == warming }

// Warmup records a warm-up iteration of the current fork, the value v of
// the criterion's metric and the per-op figures op (Unmeasured if the
// runner has none), and reports whether more warm-up is wanted: false once
// the warm-up checkpoint (at wi_min or later) finds the fork stable or its
// window without a trend, and op steady, or wi_max values are in. It
// panics unless WantWarmup is true.
func (c *Controller) Warmup(v float64, op PerOp) (more bool) {
	if c.phase != warming {
		panic("stop: Warmup outside a fork's warm-up")
	}
	c.warm = append(c.warm, v)
	n := len(c.warm)
	f := c.rep.Forks - 1
	c.rep.Warmup[f] = n
	steady, moved := c.steady.Add(op)
	held := ""
	if n >= c.cfg.WarmupMin {
		t := time.Now()
		d := c.crit.Warmup(c.warm)
		if !d.Stable && !c.static {
			c.trending = trending(c.warm, c.trendWin)
		}
		c.rep.CheckTime += time.Since(t)
		switch {
		case c.static:
			held = heldStatic
		case !d.Stable && c.trending:
			held = heldTrend
		case !steady:
			held = moved
			if held == "" {
				held = heldFirst
			}
		}
		if held == "" {
			c.rep.WarmupStable[f] = d.Stable
			c.rep.WarmupWhy[f] = c.warmupWhy(n, d.Stable)
			c.phase = measuring
			return false
		}
		c.held = held
	}
	if n >= c.cfg.WarmupMax {
		c.rep.WarmupTrend[f] = c.trending
		if c.static {
			c.rep.WarmupWhy[f] = WhyStatic
		} else {
			c.rep.WarmupWhy[f] = WhyMax + ", " + stillWhat(held)
			if !steady {
				// "" when nothing could be compared: no figure moved.
				c.rep.WarmupUnsteady[f] = moved
			}
		}
		c.phase = measuring
		return false
	}
	return true
}

// Why a fork's warm-up ended (Report.WarmupWhy), where no figure is named.
const (
	WhyMin    = "wi-min"         // at the first checkpoint: nothing held it
	WhyMax    = "wi-max"         // at the bound, followed by what still held it
	WhyStatic = "static"         // never checked
	WhyNone   = "none"           // wi_max 0: no warm-up
	WhyStable = "stable"         // the criterion found the window stable after wi_min
	WhyTrend  = "trend ended"    // the window's trend ended after wi_min
	WhyAgreed = "steady reached" // a fork's first iteration had nothing to agree with; a later one agreed
)

// What held a warm-up checkpoint, besides a unit that moved.
const (
	heldStatic = "static"
	heldTrend  = "trend"
	heldFirst  = "first iteration"
)

// warmupWhy says why the current fork's warm-up ended at its nth
// iteration, stable or not by the criterion: at the first checkpoint, or
// by the end of what held the one before.
func (c *Controller) warmupWhy(n int, stable bool) string {
	switch {
	case n <= max(c.cfg.WarmupMin, 1):
		return WhyMin
	case c.held == heldTrend && stable:
		return WhyStable
	case c.held == heldTrend:
		return WhyTrend
	case c.held == heldFirst:
		return WhyAgreed
	}
	return c.held + " settled"
}

// stillWhat says what held a fork's warm-up at wi_max.
func stillWhat(held string) string {
	switch held {
	case heldTrend:
		return "still trending"
	case heldFirst:
		return "no two iterations agreed"
	}
	return held + " still changing"
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
	r.WarmupUnsteady = append([]string(nil), r.WarmupUnsteady...)
	r.WarmupWhy = append([]string(nil), r.WarmupWhy...)
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
	Warmup       []int  // warm-up iterations used per fork
	WarmupStable []bool // whether the criterion found each fork's warm-up stable
	WarmupTrend  []bool // whether each fork's warm-up reached wi_max still trending (see Warnings)
	// WarmupUnsteady names, per fork, the per-op figure still changing
	// when warm-up reached wi_max ("B/op", "allocs/op", "sec/op"), "" for
	// a fork that reached the steady state (see Steady and Warnings).
	WarmupUnsteady []string
	// WarmupWhy says why each fork's warm-up ended: WhyMin, WhyMax with
	// what still held it, WhyStable, WhyTrend, WhyAgreed, "<unit>
	// settled" when a per-op figure held it beyond wi_min, WhyStatic or
	// WhyNone. WarmupSummary puts the forks in a line.
	WarmupWhy []string
	Measured  int           // measurement iterations in total
	Done      bool          // no more forks are wanted; Stable and Reason are final
	Stable    bool          // the fork checkpoint found stability; false for static and at f_max: the paper's warning
	Reason    string        // why it stopped, e.g. "stable after 3 forks (cv change 0.40% <= 1.00%)"
	CheckTime time.Duration // time spent evaluating the criterion
}

// A Note is a warning about one benchmark, worded the same for every
// benchmark it applies to, so that a caller can print it once for all of
// them: a warning repeated per benchmark or per fork teaches users to skip
// warnings.
type Note struct {
	Problem string // what is wrong, e.g. "-f-max reached before the results settled (-criterion cv)"
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
// has none of these. Whatever the criterion, a fork whose warm-up reached
// wi_max while a per-op figure still changed (WarmupUnsteady) gets one too;
// a Controller under Static never records that, but a runner of a fixed
// configuration may. A run that is not Done has no warnings.
func (r Report) Warnings() []Note {
	if !r.Done {
		return nil
	}
	static := r.Criterion == (Static{}).Name()
	var w []Note
	if !static && slices.Contains(r.WarmupTrend, true) {
		w = append(w, Note{Problem: "warm-up still trending at -wi-max (its iterations still getting faster or slower)", Advice: "raise -wi-max"})
	}
	if i := slices.IndexFunc(r.WarmupUnsteady, func(u string) bool { return u != "" }); i >= 0 {
		w = append(w, Note{Problem: "warm-up ended at -wi-max before the per-op figures were steady",
			Advice: "raise -wi-max, or look for state the benchmark builds up op after op", Detail: r.WarmupUnsteady[i]})
	}
	if !static && !r.Stable {
		w = append(w, Note{Problem: fmt.Sprintf("-f-max reached before the results settled (-criterion %s)", r.Criterion),
			Advice: "raise -f-max or expect a less accurate result"})
	}
	return w
}

// WarmupSummary puts how many warm-up iterations each fork ran, and why
// its warm-up ended (WarmupWhy), in a line: forks alike are named
// together, in the order of the first of them, e.g. "fork 1: 3 (B/op
// settled); forks 2-5: 1 (wi-min)". It is "" before the first fork.
func (r Report) WarmupSummary() string {
	type group struct {
		n     int
		why   string
		forks []int
	}
	var groups []*group
	for f, n := range r.Warmup {
		why := ""
		if f < len(r.WarmupWhy) {
			why = r.WarmupWhy[f]
		}
		i := slices.IndexFunc(groups, func(g *group) bool { return g.n == n && g.why == why })
		if i < 0 {
			i = len(groups)
			groups = append(groups, &group{n: n, why: why})
		}
		groups[i].forks = append(groups[i].forks, f+1)
	}
	parts := make([]string, len(groups))
	for i, g := range groups {
		s := "fork "
		if len(g.forks) > 1 {
			s = "forks "
		}
		s += spans(g.forks) + ": " + strconv.Itoa(g.n)
		if g.why != "" {
			s += " (" + g.why + ")"
		}
		parts[i] = s
	}
	return strings.Join(parts, "; ")
}

// spans writes increasing numbers as ranges: 1, 2, 3, 5 is "1-3, 5".
func spans(xs []int) string {
	var parts []string
	for i := 0; i < len(xs); {
		j := i
		for j+1 < len(xs) && xs[j+1] == xs[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", xs[i], xs[j]))
		} else {
			parts = append(parts, strconv.Itoa(xs[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}
