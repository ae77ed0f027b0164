package report

import (
	"cmp"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/compare"
	"github.com/mbench/mbench/history"
	"github.com/mbench/mbench/plot"
	"github.com/mbench/mbench/stats"
)

// Options control what Build gathers.
type Options struct {
	// Compare are the options of the comparison; its Metric is ignored,
	// since the report compares every one of sec/op, B/op and allocs/op
	// that both sides measured.
	Compare compare.Options
	// History are runs in time order whose history the report shows.
	// When it is nil and Build is given more than two runs, they are the
	// history.
	History []*bench.Run
	// Title heads the page; Build makes one from the runs' labels when it
	// is empty.
	Title string
	// Only, when set, names the one section Build gathers, "scaling" or
	// "history", for a report that draws a single figure (Report.Figure).
	Only string
	// ProfileDir, when set, is where mbench ab -profile keeps profiles
	// (<store dir>/profiles): the report draws a diff flame graph of each
	// benchmark profiled in the sessions it shows.
	ProfileDir string
}

// A Report is what Build gathered; Write writes it.
type Report struct {
	Title string
	// Sides are the runs shown: one, or the old and new of a comparison.
	Sides []*Side
	// Comparisons holds one result per metric both sides measured.
	Comparisons []*compare.Result
	// Paired holds the paired samples of an A/B session or a duet.
	Paired     []*Paired
	Benchmarks []*Benchmark
	Families   []*Family
	History    []*series
	// HistoryRuns is the number of runs the history spans.
	HistoryRuns int
	// HistoryTooFew, when set, says that the runs are too few for a step
	// to show, and how many it needs.
	HistoryTooFew string
	Platform      *Platform
	// Notes are messages about what the report could not show and why.
	Notes []string
	// Unit is the metric of the distributions, traces, scaling and history.
	Unit string
	// Profiles are the kept profiles of the sessions shown (Options.ProfileDir).
	Profiles []*Profile
	// Level is the confidence level of every interval the report shows
	// of the sides: that of its comparisons (for an A/B session, the
	// level of one of its looks) or one minus the options' Alpha.
	Level float64
}

// A Side is one run of the report.
type Side struct {
	Label string
	Run   *bench.Run
	// Version is the version the side holds of a run that measured
	// several, or "".
	Version string
}

// A Benchmark is what the report shows of one benchmark.
type Benchmark struct {
	Key bench.Key
	// Groups holds the benchmark's measured values per side; Traces its
	// values per side and fork in run order, warm-up included.
	Groups []Group
	Traces []Trace
}

// A Group is one side's measured values of a benchmark, by fork.
type Group struct {
	Side   string
	Forks  [][]float64
	Center stats.Interval
	N      int
}

// A Trace is one side's values of a benchmark across forks in run order.
type Trace struct {
	Side  string
	Forks []traceFork
	// Stop is why the stopping criterion ended the benchmark, and
	// StopAfter the fork count at which it found the forks stable (0 when
	// it did not or the run does not say).
	Stop      string
	StopAfter int
}

// Paired is the paired old/new samples of one benchmark, in time order.
type Paired struct {
	Key    bench.Key
	Points []pairedPoint
	// Kind says what a point is: "iteration" (a duet's simultaneous
	// iterations) or "round" (the means of an A/B session's processes of
	// one round).
	Kind string
}

// A Family is a group of sub-benchmarks that vary one numeric parameter,
// with a line per variant and side.
type Family struct {
	Name, Param string
	Lines       []FamilyLine
}

// A FamilyLine is one variant of a family on one side, with the slope of
// its log-log fit.
type FamilyLine struct {
	Name   string
	Points []familyPoint
	Slope  stats.Interval
	// Hint words the slope for people: "≈ n^1.02 [0.98, 1.06], consistent
	// with linear or n log n".
	Hint string
}

// Platform is where each side was measured: one row per field, one column
// per side.
type Platform struct {
	Labels []string
	Rows   []PlatformRow
	// Differs names the fields in which the sides differ.
	Differs []string
}

// A PlatformRow is one field of the platform table.
type PlatformRow struct {
	Field   string
	Values  []string
	Differs bool
}

// ErrNoRuns is the error of Build given no runs.
var ErrNoRuns = errors.New("no runs to report")

// Build gathers the report of runs: a run on its own (one run of two
// versions, such as an A/B session, is its two versions compared), two
// runs compared, or a series of runs whose last two are compared and whose
// history is shown. A compared run that holds two versions is an error
// naming them (compare.Sides): its versions are never pooled into one
// side.
func Build(runs []*bench.Run, opts Options) (*Report, error) {
	if len(runs) == 0 {
		return nil, ErrNoRuns
	}
	history := opts.History
	if history == nil && len(runs) > 2 {
		history = runs
	}
	if len(runs) > 2 {
		runs = runs[len(runs)-2:]
	}
	all := opts.Only == ""
	if all && len(runs) == 2 {
		if _, _, err := compare.Sides(runs...); err != nil {
			return nil, err
		}
	}
	r := &Report{Title: opts.Title, Level: 1 - opts.Compare.Alpha}
	r.Sides = sides(runs)
	r.Unit = primaryUnit(r.Sides)
	if r.Title == "" {
		r.Title = "mbench report: " + strings.Join(labels(r.Sides), " vs ")
	}
	if all && len(r.Sides) == 2 {
		r.compare(opts.Compare)
	}
	if all {
		r.benchmarks(opts.Compare.Seed)
	}
	if all || opts.Only == "scaling" {
		if err := r.families(); err != nil {
			return nil, err
		}
	}
	if all || opts.Only == "history" {
		if err := r.history(history); err != nil {
			return nil, err
		}
	}
	if all {
		r.Platform = platform(r.Sides)
	}
	if all && opts.ProfileDir != "" {
		r.profiles(opts.ProfileDir)
	}
	return r, nil
}

// sides splits a single run of several versions into its versions (the
// old and new of a session in that order) and names every side apart.
func sides(runs []*bench.Run) []*Side {
	var out []*Side
	if len(runs) == 1 && len(runs[0].Versions()) == 2 {
		if old, new, err := compare.Split(runs[0]); err == nil {
			return []*Side{{Label: old.Label, Run: old, Version: old.Label}, {Label: new.Label, Run: new, Version: new.Label}}
		}
	}
	if len(runs) == 1 && len(runs[0].Versions()) > 2 {
		for _, v := range runs[0].Versions() {
			out = append(out, &Side{Label: v, Run: runs[0].Version(v), Version: v})
		}
		return out
	}
	for i, run := range runs {
		label := run.Label
		switch {
		case label == "" && run.ID != "":
			label = run.ID
		case label == "":
			label = []string{"old", "new"}[i%2]
		}
		out = append(out, &Side{Label: label, Run: run})
	}
	if len(out) == 2 && out[0].Label == out[1].Label {
		for i, s := range out {
			s.Label += " (" + cmp.Or(s.Run.ID, []string{"old", "new"}[i]) + ")"
		}
	}
	for _, s := range out {
		if s.Label != s.Run.Label {
			run := *s.Run
			run.Label = s.Label
			s.Run = &run
		}
	}
	return out
}

func labels(sides []*Side) []string {
	var out []string
	for _, s := range sides {
		out = append(out, s.Label)
	}
	return out
}

// primaryUnit is the metric the figures show: time per op when measured,
// otherwise the first unit of the first side.
func primaryUnit(sides []*Side) string {
	units := sides[0].Run.UnitsUsed()
	if slices.Contains(units, "sec/op") || len(units) == 0 {
		return "sec/op"
	}
	return units[0]
}

// compareMetrics are the metrics compared when both sides have them.
var compareMetrics = []string{"sec/op", "B/op", "allocs/op"}

func (r *Report) compare(opts compare.Options) {
	old, new := r.Sides[0].Run, r.Sides[1].Run
	metrics := compareMetrics
	if r.Unit != "sec/op" {
		metrics = []string{r.Unit}
	}
	for _, m := range metrics {
		if !slices.Contains(old.UnitsUsed(), m) || !slices.Contains(new.UnitsUsed(), m) {
			continue
		}
		opts.Metric = m
		res, err := compare.Compare(old, new, opts)
		if err != nil {
			r.Notes = append(r.Notes, fmt.Sprintf("no comparison of %s: %v", m, err))
			continue
		}
		r.Comparisons = append(r.Comparisons, res)
		r.Level = res.Level
	}
	if len(r.Comparisons) > 0 && r.Comparisons[0].Paired {
		r.Paired = pairs(old, new, r.Unit, r.Comparisons[0].Interleaved)
	}
}

// keys returns the benchmarks of the sides in the order they were first
// measured.
func keys(sides []*Side) []bench.Key {
	seen := make(map[bench.Key]bool)
	var out []bench.Key
	for _, s := range sides {
		for i := range s.Run.Measurements {
			if k := s.Run.Measurements[i].Key; !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}

func (r *Report) benchmarks(seed uint64) {
	var samples []map[bench.Key]*bench.Sample
	for _, s := range r.Sides {
		samples = append(samples, s.Run.Samples(r.Unit))
	}
	boot := stats.Bootstrap{Level: r.Level, Replicates: 1000}
	for _, k := range keys(r.Sides) {
		b := &Benchmark{Key: k}
		for i, s := range r.Sides {
			if smp := samples[i][k]; smp != nil {
				h := fnv.New64a()
				h.Write([]byte(k.String() + "\x00" + s.Label))
				rng := rand.New(rand.NewPCG(seed, h.Sum64()))
				b.Groups = append(b.Groups, Group{Side: s.Label, Forks: smp.Forks, N: smp.N(),
					Center: boot.Hierarchical(smp.Forks, stats.StatMean, rng)})
			}
			if t, ok := traceOf(s, k, r.Unit); ok {
				b.Traces = append(b.Traces, t)
			}
		}
		if len(b.Groups) > 0 || len(b.Traces) > 0 {
			r.Benchmarks = append(r.Benchmarks, b)
		}
	}
}

// traceOf returns the values of benchmark k on side s in run order, fork
// by fork, and why the run stopped measuring it.
func traceOf(s *Side, k bench.Key, unit string) (Trace, bool) {
	t := Trace{Side: s.Label}
	index := make(map[bench.ForkID]int)
	for i := range s.Run.Measurements {
		m := &s.Run.Measurements[i]
		v, ok := m.Get(unit)
		if m.Key != k || !ok {
			continue
		}
		id := m.Coord.ForkID()
		fi, ok := index[id]
		if !ok {
			fi = len(t.Forks)
			index[id] = fi
			t.Forks = append(t.Forks, traceFork{})
		}
		f := &t.Forks[fi]
		if m.Coord.Phase == bench.Warmup && f.Warmup == len(f.Values) {
			f.Warmup++
		}
		f.Values = append(f.Values, v)
	}
	t.Stop = s.Run.Settings[bench.StopSetting(k, s.Version)]
	t.StopAfter = plot.StoppedAfter(s.Run, k, s.Version)
	return t, len(t.Forks) > 0
}

// pairs returns the paired samples of a duet (iterations that ran at the
// same time) or of an interleaved session (the mean of each version's
// process in each round).
func pairs(old, new *bench.Run, unit string, rounds bool) []*Paired {
	olds, news := old.Samples(unit), new.Samples(unit)
	var out []*Paired
	for _, k := range keys([]*Side{{Run: old}}) {
		o, n := olds[k], news[k]
		if o == nil || n == nil {
			continue
		}
		p := &Paired{Key: k, Kind: "iteration"}
		if rounds {
			p.Kind = "round"
			byRound := make(map[int][]float64)
			for i, id := range n.IDs {
				byRound[id.SuiteRun] = n.Forks[i]
			}
			type round struct {
				n int
				p pairedPoint
			}
			var rs []round
			for i, id := range o.IDs {
				if nf := byRound[id.SuiteRun]; len(nf) > 0 && len(o.Forks[i]) > 0 {
					rs = append(rs, round{id.SuiteRun, pairedPoint{Old: stats.Mean(o.Forks[i]), New: stats.Mean(nf)}})
				}
			}
			slices.SortStableFunc(rs, func(a, b round) int { return a.n - b.n })
			for _, r := range rs {
				p.Points = append(p.Points, r.p)
			}
		} else {
			byFork := make(map[bench.ForkID][]float64)
			for i, id := range n.IDs {
				byFork[id] = n.Forks[i]
			}
			for i, id := range o.IDs {
				nf := byFork[id]
				for j := range min(len(o.Forks[i]), len(nf)) {
					p.Points = append(p.Points, pairedPoint{Old: o.Forks[i][j], New: nf[j]})
				}
			}
		}
		if len(p.Points) > 0 {
			out = append(out, p)
		}
	}
	return out
}

func (r *Report) families() error {
	byName := make(map[string]*Family)
	for _, s := range r.Sides {
		fams, err := findFamilies(s.Run, r.Unit)
		if err != nil {
			return fmt.Errorf("scaling of %s: %w", s.Label, err)
		}
		for _, f := range fams {
			name := f.Base + "/" + f.Param
			fam := byName[name]
			if fam == nil {
				fam = &Family{Name: f.Base, Param: f.Param}
				byName[name] = fam
				r.Families = append(r.Families, fam)
			}
			line := FamilyLine{Name: cmp.Or(f.Variant, f.Base), Points: f.Points, Slope: f.Slope, Hint: f.Hint()}
			if len(r.Sides) > 1 {
				line.Name += " (" + s.Label + ")"
			}
			fam.Lines = append(fam.Lines, line)
		}
	}
	return nil
}

func (r *Report) history(runs []*bench.Run) error {
	switch len(runs) {
	case 0:
		return nil
	case 1:
		r.Notes = append(r.Notes, "no history: it needs at least two runs, and there is one")
		return nil
	}
	series, err := analyzeHistory(runs, r.Unit)
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	r.History, r.HistoryRuns = series, len(runs)
	if why := history.TooFewRuns(len(runs), history.DefaultOptions.MinRuns); why != "" {
		r.HistoryTooFew = why
		r.Notes = append(r.Notes, "history: "+why)
	}
	if w := bench.PlatformWarning(runs...); w != "" {
		r.Notes = append(r.Notes, "history: "+w)
	}
	return nil
}
