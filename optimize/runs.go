package optimize

import (
	"errors"
	"fmt"
	"time"

	"github.com/mbench/mbench/bench"
	"golang.org/x/perf/benchunit"
)

// FromRun lays out the measurements in unit (a tidy unit such as "sec/op")
// of a full run of `mbench run -levels` as a Version labelled with the
// run's label: Collect with the levels the run recorded (setting
// bench.SettingLevels) or, for a run made otherwise, with levels inferred
// from the coordinates, which a warning says. Warnings and errors begin
// with the run's label. FromRun fails where Collect does, on recorded
// levels it cannot parse, and when no benchmark has complete measurements
// in unit.
func FromRun(r *bench.Run, unit string) (Version, []error, error) {
	var full bench.Levels
	var warnings []error
	if s := r.Settings[bench.SettingLevels]; s != "" {
		l, err := bench.ParseLevels(s)
		if err != nil {
			return Version{}, nil, fmt.Errorf("%s: levels setting %q: %v", r.Label, s, err)
		}
		full = l
	} else {
		warnings = append(warnings, fmt.Errorf("%s: not a run of mbench run -levels; levels are inferred from the coordinates", r.Label))
	}
	bs, ws, err := Collect(r.Measurements, unit, full)
	for _, w := range ws {
		warnings = append(warnings, fmt.Errorf("%s: %w", r.Label, w))
	}
	if err != nil {
		return Version{}, warnings, fmt.Errorf("%s: %v", r.Label, err)
	}
	if len(bs) == 0 {
		return Version{}, warnings, fmt.Errorf("%s: no benchmark with complete %s measurements", r.Label, unit)
	}
	return Version{Label: r.Label, Benchmarks: bs}, warnings, nil
}

// IterTime returns the iteration time recorded in a run's bench.SettingIter,
// the length of each of its measurement iterations.
func IterTime(r *bench.Run) (time.Duration, error) {
	s, ok := r.Settings[bench.SettingIter]
	if !ok {
		return 0, errors.New("no iteration time recorded")
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("iteration time %q: %v", s, err)
	}
	return d, nil
}

// Run is µOpTime on a stored or read full run, what `mbench
// optimize RUN` does: Optimize on the run's measurements in unit (FromRun;
// any spelling benchunit.Tidy accepts, such as ns/op). When opts.IterTime
// is 0 it becomes the run's iteration time; a run that recorded none
// leaves it 0, with a warning, and the report counts iterations instead of
// time. The report's Unit is the tidy unit.
func Run(r *bench.Run, unit string, opts Options) (*Report, []error, error) {
	vs, tidy, warnings, err := fromRuns([]*bench.Run{r}, unit, &opts)
	if err != nil {
		return nil, warnings, err
	}
	rep, err := Optimize(vs[0].Benchmarks, opts)
	if err != nil {
		return nil, warnings, err
	}
	rep.Unit = tidy
	return rep, warnings, nil
}

// ReplayRuns is Replay over full runs of successive versions of a suite,
// oldest first, what `mbench optimize -replay` does: each run's
// measurements in unit (FromRun) are a Version labelled with the run's
// label, and the plan replayed is plan or, when plan is nil, the plan
// Run(runs[0], unit, opts) makes. It fails on fewer than two runs
// and on options that do not Validate before it reads any run.
func ReplayRuns(runs []*bench.Run, unit string, plan *Plan, opts Options, ro ReplayOptions) (*ReplayReport, []error, error) {
	if len(runs) < 2 {
		return nil, nil, fmt.Errorf("replay: %d full runs, need at least two versions", len(runs))
	}
	if err := ro.Validate(); err != nil {
		return nil, nil, fmt.Errorf("replay: %w", err)
	}
	vs, _, warnings, err := fromRuns(runs, unit, &opts)
	if err != nil {
		return nil, warnings, err
	}
	if plan == nil {
		rep, err := Optimize(vs[0].Benchmarks, opts)
		if err != nil {
			return nil, warnings, err
		}
		plan = NewPlan(rep)
	}
	rr, ws, err := Replay(vs, plan, ro)
	return rr, append(warnings, ws...), err
}

// fromRuns lays out every run (FromRun) in unit's tidy form, which it
// returns, after checking opts, and sets opts.IterTime, when 0, from the
// first run.
func fromRuns(runs []*bench.Run, unit string, opts *Options) ([]Version, string, []error, error) {
	if err := opts.Validate(); err != nil {
		return nil, "", nil, fmt.Errorf("optimize: %w", err)
	}
	_, tidy := benchunit.Tidy(1, unit)
	var warnings []error
	vs := make([]Version, len(runs))
	for i, r := range runs {
		v, ws, err := FromRun(r, tidy)
		warnings = append(warnings, ws...)
		if err != nil {
			return nil, "", warnings, err
		}
		vs[i] = v
		if i == 0 && opts.IterTime == 0 {
			if opts.IterTime, err = IterTime(r); err != nil {
				warnings = append(warnings, fmt.Errorf("%s: %v; times are reported in iterations of unknown length", r.Label, err))
			}
		}
	}
	return vs, tidy, warnings, nil
}
