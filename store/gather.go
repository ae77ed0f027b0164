package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/shard"
)

// LoadRef loads what ref names, as Resolve reads it: the run of an id, an
// id prefix or "latest"; for a label, every run with that label gathered
// into one (Gather), with the warnings of gathering; for a git revision,
// the result of the newest complete run of its commit, gathered as
// GatherResults groups it, and of a session the version that is the
// commit (see revision). Unlike Load,
// which returns what was stored, LoadRef, Gather and GatherResults leave
// out measurements with values that cannot be (bench.CheckValue), with a
// warning, as the readers of result files do.
func (s *Store) LoadRef(ref string) (*bench.Run, []error, error) {
	t, err := s.resolveRef(ref)
	if err != nil {
		return nil, nil, err
	}
	return s.loadTarget(t)
}

// loadTarget loads what a reference names, as LoadRef does.
func (s *Store) loadTarget(t target) (*bench.Run, []error, error) {
	if t.rev != nil {
		return s.loadRevision(t.rev)
	}
	if t.label != "" {
		return s.Gather(t.label)
	}
	r, err := s.Load(t.id)
	if err != nil {
		return nil, nil, err
	}
	return r, s.dropImpossible(r), nil
}

// Gather returns the runs labelled label as one run: the runs that share a
// label are one logical result, whether they measured shards of a suite, the
// same suite on several instances, or the same suite again. A label that
// names one run gathers exactly what Load returns for it.
//
// Only the runs of the commit of the newest run (the one that started
// last) are gathered; runs of the label that measured another commit are
// left out with a warning, so that a label reused over time names its
// newest result. The gathered runs are
// checked, and what a reader should know comes back as warnings naming
// runs: runs that measured different suites, shards of different
// partitions, shards missing, a shard measured twice on one instance, a
// benchmark measured by two shards, runs that did not complete. Runs that
// measured different versions side by side (an A/B session and a plain
// run) cannot be merged and are an error.
//
// One run loads as Load returns it. Of several, the merged run has
//   - the measurements of every run, each keeping its instance (a run's
//     own instance where a measurement names none), with suite runs
//     numbered on from run to run in order of start, so that forks and
//     rounds of different runs stay distinct units;
//   - the label, commit and dirty flag of the newest run; as ID the runs'
//     ids joined by "+"; the earliest start and the latest end;
//   - the settings on which all runs agree, the union of their planned
//     benchmarks and of their unit metadata;
//   - the platform the runs share: a field on which they differ, such as
//     the instance of runs from several machines, is left unknown, so the
//     machines live in the measurements' coordinates and comparisons with
//     other results do not warn about them.
//
// Of two runs that measured the same shard on the same instance, when one
// completed and the other did not (a failed shard run again), only the
// complete one is gathered; otherwise both are, with a warning.
func (s *Store) Gather(label string) (*bench.Run, []error, error) {
	infos, err := s.runsWhere("r.label = ?", []any{label})
	if err != nil {
		return nil, nil, fmt.Errorf("store: gather %q: %w", label, err)
	}
	if len(infos) == 0 {
		return nil, nil, fmt.Errorf("store: gather %q: no run in %s has this label", label, s.path)
	}
	// The newest run is the one that started last, not the one stored
	// last: a shard's file may be copied in after the next commit's runs.
	newest := infos[0]
	for _, ri := range infos[1:] {
		if ri.Start.After(newest.Start) {
			newest = ri
		}
	}
	var keep []RunInfo
	var other []string
	for _, ri := range infos {
		if ri.Commit == newest.Commit && ri.Dirty == newest.Dirty {
			keep = append(keep, ri)
		} else {
			other = append(other, ri.ID+" ("+commitName(ri)+")")
		}
	}
	var warnings []error
	if len(other) > 0 {
		slices.Reverse(other)
		warnings = append(warnings, fmt.Errorf("label %s: left out %s of another commit than the newest run %s (%s)",
			label, plural(len(other), "run", "runs")+" "+strings.Join(other, ", "), newest.ID, commitName(newest)))
	}
	slices.Reverse(keep)
	r, ws, err := s.gatherRuns(keep)
	return r, append(warnings, ws...), err
}

// commitName returns the commit of a run as WriteRuns shows it.
func commitName(ri RunInfo) string {
	c := cmp.Or(ri.Commit, "unknown commit")
	if len(c) > 12 {
		c = c[:12]
	}
	if ri.Dirty {
		c += "-dirty"
	}
	return c
}

// groupRuns groups runs into logical results: runs with a label that share
// it and their commit form one group, every unlabelled run is a group of
// its own. Groups come in the order of their first run in runs, and keep
// the order of runs within.
func groupRuns(runs []RunInfo) [][]RunInfo {
	type key struct {
		label, commit string
		dirty         bool
	}
	at := make(map[key]int)
	var groups [][]RunInfo
	for _, ri := range runs {
		k := key{ri.Label, ri.Commit, ri.Dirty}
		if i, ok := at[k]; ok && ri.Label != "" {
			groups[i] = append(groups[i], ri)
			continue
		}
		at[k] = len(groups)
		groups = append(groups, []RunInfo{ri})
	}
	return groups
}

// GatherResults groups runs into logical results, as Gather does for one
// label: runs with a label that share it and their commit form one
// result, every unlabelled run is one of its own. It gathers each as
// Gather does, in the order of each result's first run in runs, with the
// warnings of all.
// A group whose runs cannot be merged, having measured different versions,
// comes back as its runs one by one, with the error as a warning.
func (s *Store) GatherResults(runs []RunInfo) ([]*bench.Run, []error, error) {
	var out []*bench.Run
	var warnings []error
	for _, group := range groupRuns(runs) {
		r, ws, err := s.gatherRuns(group)
		warnings = append(warnings, ws...)
		if errors.Is(err, errVersions) {
			warnings = append(warnings, fmt.Errorf("%w; listing them one by one", err))
			for _, ri := range group {
				r, err := s.Load(ri.ID)
				if err != nil {
					return nil, warnings, err
				}
				warnings = append(warnings, s.dropImpossible(r)...)
				out = append(out, r)
			}
			continue
		}
		if err != nil {
			return nil, warnings, err
		}
		out = append(out, r)
	}
	return out, warnings, nil
}

// gatherRuns loads runs (as Runs lists them) and merges them into one run,
// with the checks, warnings and merge Gather describes.
func (s *Store) gatherRuns(runs []RunInfo) (*bench.Run, []error, error) {
	if len(runs) == 0 {
		return nil, nil, fmt.Errorf("store: gather: no runs")
	}
	tx, err := s.db.BeginTx(context.Background(), &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, nil, fmt.Errorf("store: gather: %w", err)
	}
	defer tx.Rollback()
	parts := make([]*part, len(runs))
	var dropped []error
	for i, ri := range runs {
		r, err := s.load(tx, ri.ID)
		if err != nil {
			return nil, nil, fmt.Errorf("store: gather: %w", err)
		}
		dropped = append(dropped, s.dropImpossible(r)...)
		parts[i] = newPart(ri, r)
	}
	r, warnings, err := merge(parts)
	warnings = append(dropped, warnings...)
	if err != nil {
		return nil, warnings, fmt.Errorf("store: gather: %w", err)
	}
	return r, warnings, nil
}

// A part is one run being gathered.
type part struct {
	info RunInfo
	run  *bench.Run
	// m is the run as shard.CheckRuns sees it.
	m shard.Member
}

func newPart(ri RunInfo, r *bench.Run) *part {
	p := &part{info: ri, run: r, m: shard.Member{ID: ri.ID, Instance: r.Identity(), Status: ri.Status,
		Complete: ri.Status == StatusComplete, Measured: make(map[bench.Key]bool)}}
	for i := range r.Measurements {
		p.m.Measured[r.Measurements[i].Key] = true
	}
	p.m.Planned = p.m.Measured
	if len(r.Benchmarks) > 0 {
		p.m.Planned = make(map[bench.Key]bool, len(r.Benchmarks))
		for _, k := range r.Benchmarks {
			p.m.Planned[k] = true
		}
	}
	return p
}

// merge checks parts, oldest first, and merges them.
func merge(parts []*part) (*bench.Run, []error, error) {
	slices.SortStableFunc(parts, func(a, b *part) int { return a.info.Start.Compare(b.info.Start) })
	label := parts[len(parts)-1].info.Label
	if err := checkVersions(label, parts); err != nil {
		return nil, nil, err
	}
	var warnings []error
	members := make([]*shard.Member, len(parts))
	for i, p := range parts {
		var err error
		p.m.Shard, p.m.Basis, p.m.Suite, err = shard.Claimed(p.run.Settings)
		if err != nil {
			warnings = append(warnings, fmt.Errorf("run %s under label %s: %v; gathered as a whole suite", p.info.ID, label, err))
		}
		members[i] = &p.m
	}
	warnings = append(warnings, shard.CheckRuns(label, members)...)
	var kept []*part
	for _, p := range parts {
		if !p.m.Dropped {
			kept = append(kept, p)
		}
	}
	if len(kept) == 1 {
		return kept[0].run, warnings, nil
	}
	if newest := kept[len(kept)-1]; newest.info.Dirty {
		var ids []string
		for _, p := range kept {
			ids = append(ids, p.info.ID)
		}
		warnings = append(warnings, fmt.Errorf("runs %s under label %s measured a tree with uncommitted changes (%s): they may have measured different code",
			strings.Join(ids, ", "), label, commitName(newest.info)))
	}
	for _, p := range kept {
		if p.m.Complete {
			continue
		}
		missing := 0
		for k := range p.m.Planned {
			if !p.m.Measured[k] {
				missing++
			}
		}
		w := fmt.Errorf("run %s under label %s is %s", p.m.Name(), label, p.info.Status)
		if missing > 0 {
			w = fmt.Errorf("%w: %d of its %d benchmarks not measured", w, missing, len(p.m.Planned))
		}
		warnings = append(warnings, w)
	}
	return mergeRuns(kept), warnings, nil
}

// errVersions says that runs measured different versions side by side.
var errVersions = errors.New("measured different versions side by side, and cannot be one result")

// checkVersions returns an error when runs with measurements measured
// different sets of versions side by side: an A/B session and a plain run
// under one label cannot be one result.
func checkVersions(label string, parts []*part) error {
	var first *part
	var want []string
	for _, p := range parts {
		if len(p.run.Measurements) == 0 {
			continue
		}
		vs := p.run.Versions()
		slices.Sort(vs)
		if first == nil {
			first, want = p, vs
		} else if !slices.Equal(vs, want) {
			return fmt.Errorf("runs %s and %s under label %s %w (%s vs %s)",
				first.info.ID, p.info.ID, label, errVersions, versionNames(want), versionNames(vs))
		}
	}
	return nil
}

func versionNames(vs []string) string {
	if len(vs) == 1 && vs[0] == "" {
		return "one version"
	}
	return strings.Join(vs, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// mergeRuns merges two or more runs, oldest first, as gatherRuns describes.
func mergeRuns(parts []*part) *bench.Run {
	newest := parts[len(parts)-1].run
	out := &bench.Run{Label: newest.Label, Commit: newest.Commit, Dirty: newest.Dirty}
	var ids []string
	var platforms []*bench.Platform
	n := 0
	for _, p := range parts {
		ids = append(ids, p.run.ID)
		platforms = append(platforms, &p.run.Platform)
		n += len(p.run.Measurements)
	}
	out.ID = strings.Join(ids, "+")
	out.Platform = commonPlatform(platforms)

	for _, p := range parts {
		r := p.run
		if !r.Start.IsZero() && (out.Start.IsZero() || r.Start.Before(out.Start)) {
			out.Start = r.Start
		}
		if r.End.After(out.End) {
			out.End = r.End
		}
	}

	out.Settings = maps.Clone(newest.Settings)
	for k, v := range out.Settings {
		for _, p := range parts {
			if w, ok := p.run.Settings[k]; !ok || w != v {
				delete(out.Settings, k)
				break
			}
		}
	}
	if len(out.Settings) == 0 {
		out.Settings = nil
	}

	seen := make(map[bench.Key]bool)
	for _, p := range parts {
		for _, k := range p.run.Benchmarks {
			if !seen[k] {
				seen[k] = true
				out.Benchmarks = append(out.Benchmarks, k)
			}
		}
		for _, u := range p.run.Units {
			if !slices.Contains(out.Units, u) {
				out.Units = append(out.Units, u)
			}
		}
	}

	out.Measurements = make([]bench.Measurement, 0, n)
	offset := 0 // the largest suite run so far
	for _, p := range parts {
		ms := p.run.Measurements
		if len(ms) == 0 {
			continue
		}
		lo, hi := ms[0].Coord.SuiteRun, ms[0].Coord.SuiteRun
		for _, m := range ms {
			lo, hi = min(lo, m.Coord.SuiteRun), max(hi, m.Coord.SuiteRun)
		}
		// Suite runs count from 1; results of go test output have 0.
		shift := offset + max(0, 1-lo)
		for _, m := range ms {
			m.Coord.SuiteRun += shift
			if m.Coord.Instance == "" {
				m.Coord.Instance = p.m.Instance
			}
			out.Measurements = append(out.Measurements, m)
		}
		offset = hi + shift
	}
	return out
}

// commonPlatform returns what the platforms ps share: each field on which
// they all agree, and zero (unknown) for the others. The machine is
// known when all name the same one.
func commonPlatform(ps []*bench.Platform) bench.Platform {
	out := *ps[0]
	common(ps, &out.Toolchain, func(p *bench.Platform) string { return p.Toolchain })
	common(ps, &out.GOOS, func(p *bench.Platform) string { return p.GOOS })
	common(ps, &out.GOARCH, func(p *bench.Platform) string { return p.GOARCH })
	common(ps, &out.Kernel, func(p *bench.Platform) string { return p.Kernel })
	common(ps, &out.CPU, func(p *bench.Platform) string { return p.CPU })
	common(ps, &out.CPUs, func(p *bench.Platform) int { return p.CPUs })
	common(ps, &out.GOMAXPROCS, func(p *bench.Platform) int { return p.GOMAXPROCS })
	common(ps, &out.Governor, func(p *bench.Platform) string { return p.Governor })
	common(ps, &out.Turbo, func(p *bench.Platform) string { return p.Turbo })
	common(ps, &out.Host, func(p *bench.Platform) string { return p.Host })
	common(ps, &out.Instance, func(p *bench.Platform) string { return p.Instance })
	// The same instance name on different hosts stays; different machines
	// leave both unknown.
	for _, p := range ps {
		if p.Identity() != ps[0].Identity() {
			out.Instance, out.Host = "", ""
		}
	}
	commonFloat(ps, &out.Load, func(p *bench.Platform) *float64 { return p.Load })
	commonFloat(ps, &out.Busy, func(p *bench.Platform) *float64 { return p.Busy })
	return out
}

// common sets *dst to the zero value unless get returns one value for all
// of ps.
func common[T comparable](ps []*bench.Platform, dst *T, get func(*bench.Platform) T) {
	for _, p := range ps[1:] {
		if get(p) != get(ps[0]) {
			var zero T
			*dst = zero
			return
		}
	}
}

// commonFloat is common for the conditions, known only when equal in all.
func commonFloat(ps []*bench.Platform, dst **float64, get func(*bench.Platform) *float64) {
	for _, p := range ps {
		if v, w := get(p), get(ps[0]); v == nil || w == nil || *v != *w {
			*dst = nil
			return
		}
	}
}

// StoredRuns lists the stored runs, newest first, as shard.FindBasis looks
// for the basis of a shard among them: a Store is a shard.Source.
func (s *Store) StoredRuns() ([]shard.StoredRun, error) {
	infos, err := s.Runs()
	runs := make([]shard.StoredRun, len(infos))
	for i, ri := range infos {
		runs[i] = shard.StoredRun{ID: ri.ID, Label: ri.Label, Complete: ri.Status == StatusComplete, Benchmarks: ri.Benchmarks}
	}
	return runs, err
}

var _ shard.Source = (*Store)(nil)
