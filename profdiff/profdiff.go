package profdiff

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/google/pprof/profile"
	"github.com/mbench/mbench/stats"
)

// A Process is the profile of one process of one version, which ran the
// benchmark for Ops operations.
type Process struct {
	Profile *profile.Profile
	Ops     float64
	// CPU, when positive, is the CPU time the operating system measured
	// for the process; the samples of a CPU profile are scaled to add up
	// to it. 0 takes the samples at the value they were recorded with.
	CPU time.Duration
	// Name names the process in warnings and errors ("old process 2").
	Name string
}

// Sample types of the Go runtime's profiles that Compare reads.
const (
	CPU          = "cpu"           // nanoseconds: ns/op
	AllocSpace   = "alloc_space"   // bytes: B/op
	AllocObjects = "alloc_objects" // count: allocs/op
)

// Options say which values of the profiles to compare and how strictly.
// Start from DefaultOptions.
type Options struct {
	// SampleType is the profiles' sample type compared: CPU, AllocSpace
	// or AllocObjects, or any other the profiles carry.
	SampleType string
	// Alpha is the false discovery rate of the named functions and the
	// false coverage-statement rate of their intervals (see the package
	// doc); the total's interval is at 1 − Alpha.
	Alpha float64
}

// DefaultOptions compare CPU time at a false discovery rate of 5%.
var DefaultOptions = Options{SampleType: CPU, Alpha: 0.05}

// A Change is one quantity per operation in both versions and the
// difference New − Old with its interval.
type Change struct {
	Old, New float64
	Delta    stats.Interval
	// Named reports that the interval excludes 0: the change is real.
	Named bool
}

// A Row is one function's change.
type Row struct {
	Func string
	// Only is "old" or "new" for a function found in the profiles of one
	// version only (removed, added or renamed), "" otherwise.
	Only string
	// Flat is the time (or allocation) in the function itself, Cum in
	// the function and everything it calls.
	Flat, Cum Change
	// Tested reports that the function's flat value was large enough in
	// one version to be tested (see Diff.Tested); only a tested function
	// can be named.
	Tested bool
}

// A Diff is the per-operation difference of two versions' profiles.
type Diff struct {
	// SampleType is the compared sample type; Unit its unit per
	// operation: ns/op, B/op, allocs/op, or the profiles' own unit
	// followed by /op.
	SampleType, Unit string
	// Processes counts the processes of each version compared, and
	// Samples the mean number of samples in one.
	OldProcesses, NewProcesses int
	Samples                    float64
	// Total is the whole profile per operation, with its interval at
	// 1 − Alpha.
	Total Change
	// Rows holds every function of either version, by decreasing size of
	// the flat change; the named ones are those whose change is real.
	Rows []Row
	// Tested counts the functions whose flat changes were tested (m in
	// the package doc): those whose flat value is at least 0.5% of the
	// total in one version. Level is the confidence level of the rows'
	// intervals, 1 − R·Alpha/m.
	Tested int
	Level  float64
	// Tree is the call tree of both versions, per operation, for a diff
	// flame graph.
	Tree *Node
	// Warnings say what limits the result: processes left out, frames
	// without symbols.
	Warnings []string
}

// Pts returns v, a change per operation, in points of the old version's
// total: 100·v/Total.Old.
func (d *Diff) Pts(v float64) float64 {
	return 100 * v / d.Total.Old
}

// Named returns the rows whose flat change is real, largest first.
func (d *Diff) Named() []Row {
	var out []Row
	for _, r := range d.Rows {
		if r.Flat.Named {
			out = append(out, r)
		}
	}
	return out
}

// A Node is a frame of the call tree, with the value per operation of
// the samples whose stacks pass through it (the cumulative value along
// this path) in each version, and its callees.
type Node struct {
	Func     string
	Old, New float64
	Children []*Node
}

// minShare is the smallest flat share of the total, in one version, of
// a function that is tested.
const minShare = 0.005

// preemptFrames are the runtime's frames of an asynchronous preemption,
// which it pushes onto the stack of whatever the goroutine was running: a
// sample taken in them, or in what they call, counts for the interrupted
// function. On a loaded machine they hold a large and varying share of
// the samples, which would hide the functions the benchmark runs.
var preemptFrames = map[string]bool{"runtime.asyncPreempt": true, "runtime.asyncPreempt2": true}

// ErrNoSamples matches the error of a process whose profile holds no
// sample of the compared type: a benchmark too short to be sampled.
var ErrNoSamples = errors.New("no samples")

// a side is one version's processes, read.
type side struct {
	flat, cum []map[string]float64 // per process
	total     []float64
	noSymbols float64 // share of the value in frames without a name
}

// Compare diffs the profiles of the old and the new version per
// operation. Each version needs two processes or more with samples;
// processes without any, or without the sample type, are left out with a
// warning, and Compare fails only when too few remain.
func Compare(old, new []Process, opts Options) (*Diff, error) {
	if !(opts.Alpha > 0 && opts.Alpha < 1) {
		return nil, fmt.Errorf("profdiff: alpha %v is not between 0 and 1", opts.Alpha)
	}
	d := &Diff{SampleType: opts.SampleType}
	read := func(ps []Process, version string) (*side, error) {
		s := &side{}
		var errs []error
		var unnamed, all float64
		for i, p := range ps {
			name := cmp.Or(p.Name, fmt.Sprintf("%s process %d", version, i+1))
			stacks, unit, err := perOp(p, opts.SampleType)
			if err != nil {
				d.Warnings = append(d.Warnings, fmt.Sprintf("%s left out: %v", name, err))
				errs = append(errs, fmt.Errorf("%s: %w", name, err))
				continue
			}
			if d.Unit == "" {
				d.Unit = unit
			}
			flat, cum := map[string]float64{}, map[string]float64{}
			total := 0.0
			for _, st := range stacks {
				total += st.value
				all += st.value
				if len(st.frames) == 0 {
					continue
				}
				flat[st.frames[0]] += st.value
				for j, f := range st.frames {
					if slices.Index(st.frames, f) == j { // once per sample
						cum[f] += st.value
					}
					if f[0] == '0' {
						unnamed += st.value
					}
				}
			}
			s.flat, s.cum, s.total = append(s.flat, flat), append(s.cum, cum), append(s.total, total)
			d.Samples += float64(Samples(p.Profile))
		}
		if len(s.total) < 2 {
			err := fmt.Errorf("%s: %d of %d processes have samples, want 2 or more", version, len(s.total), len(ps))
			if len(errs) > 0 {
				err = fmt.Errorf("%w: %w", err, errors.Join(errs...))
			}
			return nil, err
		}
		if all > 0 {
			s.noSymbols = unnamed / all
		}
		return s, nil
	}
	o, err := read(old, "old")
	if err != nil {
		return nil, err
	}
	n, err := read(new, "new")
	if err != nil {
		return nil, err
	}
	d.OldProcesses, d.NewProcesses = len(o.total), len(n.total)
	d.Samples /= float64(d.OldProcesses + d.NewProcesses)
	for _, s := range []struct {
		version string
		share   float64
	}{{"old", o.noSymbols}, {"new", n.noSymbols}} {
		if s.share > 0.1 {
			d.Warnings = append(d.Warnings, fmt.Sprintf("%.0f%% of the %s version's profile has no symbols (a stripped binary?): those frames are named by address, which does not match across versions", 100*s.share, s.version))
		}
	}
	d.Total = change(o.total, n.total, 1-opts.Alpha)

	values := func(ms []map[string]float64, f string) []float64 {
		out := make([]float64, len(ms))
		for i, m := range ms {
			out[i] = m[f]
		}
		return out
	}
	// Every function of either version.
	funcs := map[string]bool{}
	for _, s := range []*side{o, n} {
		for _, m := range s.cum {
			for f := range m {
				funcs[f] = true
			}
		}
	}
	// The functions tested, whose flat value is at least minShare of the
	// total in one version: the many with a few stray samples could not
	// explain a change that matters, and testing them too would widen
	// every interval (m grows). The choice looks at sizes, not changes.
	big := func(f string) bool {
		return stats.Mean(values(o.flat, f)) >= minShare*d.Total.Old || stats.Mean(values(n.flat, f)) >= minShare*d.Total.New
	}
	names := make([]string, 0, len(funcs))
	for f := range funcs {
		names = append(names, f)
	}
	slices.Sort(names)
	type tested struct {
		row            Row
		of, nf, oc, nc []float64
		p              float64
	}
	ts := make([]tested, len(names))
	for i, f := range names {
		t := tested{row: Row{Func: f}, of: values(o.flat, f), nf: values(n.flat, f), oc: values(o.cum, f), nc: values(n.cum, f)}
		switch {
		case stats.Mean(t.oc) == 0:
			t.row.Only = "new"
		case stats.Mean(t.nc) == 0:
			t.row.Only = "old"
		}
		_, t.p = stats.Welch(t.of, t.nf, 0.5)
		if math.IsNaN(t.p) || !big(f) {
			t.p = math.Inf(1) // not tested
		}
		ts[i] = t
	}
	// Benjamini–Hochberg: the largest R with p_(R) ≤ R·α/m selects R.
	var ps []float64
	for _, t := range ts {
		if !math.IsInf(t.p, 1) {
			ps = append(ps, t.p)
		}
	}
	m := len(ps)
	slices.Sort(ps)
	selected := 0
	for r := m; r >= 1; r-- {
		if ps[r-1] <= float64(r)*opts.Alpha/float64(m) {
			selected = r
			break
		}
	}
	// Benjamini–Yekutieli's intervals for the selected: level
	// 1 − R·α/m; with none selected, R = 1 (the widest any function
	// would need to be named).
	d.Tested = m
	d.Level = 1 - float64(max(selected, 1))*opts.Alpha/float64(max(m, 1))
	for i := range ts {
		t := &ts[i]
		t.row.Flat = change(t.of, t.nf, d.Level)
		t.row.Cum = change(t.oc, t.nc, d.Level)
		// Named exactly when selected: the interval at the FCR level
		// excludes 0 iff p ≤ R·α/m.
		t.row.Flat.Named = selected > 0 && t.p <= float64(selected)*opts.Alpha/float64(m)
		t.row.Tested = !math.IsInf(t.p, 1)
		t.row.Cum.Named = t.row.Cum.Delta.Lo > 0 || t.row.Cum.Delta.Hi < 0
		d.Rows = append(d.Rows, t.row)
	}
	slices.SortStableFunc(d.Rows, func(a, b Row) int {
		return cmp.Or(cmp.Compare(math.Abs(b.Flat.Delta.Center), math.Abs(a.Flat.Delta.Center)),
			cmp.Compare(math.Abs(b.Cum.Delta.Center), math.Abs(a.Cum.Delta.Center)), cmp.Compare(a.Func, b.Func))
	})

	d.Tree, _, _ = Tree(old, new, opts.SampleType)
	return d, nil
}

// Tree returns the call tree of the old and the new version per
// operation, each version's processes averaged (those without samples of
// sampleType left out), and the unit per operation: a merged profile
// (Merge), given as one Process of all its processes' operations, gives
// the same tree as its processes do.
func Tree(old, new []Process, sampleType string) (*Node, string, error) {
	tree := &Node{Func: "total"}
	unit := ""
	for v, ps := range [][]Process{old, new} {
		var stacks [][]stack
		for _, p := range ps {
			st, u, err := perOp(p, sampleType)
			if err != nil {
				continue
			}
			stacks, unit = append(stacks, st), u
		}
		if len(stacks) == 0 {
			return nil, "", fmt.Errorf("%s: no process has samples of %s", [2]string{"old", "new"}[v], sampleType)
		}
		for _, process := range stacks {
			for _, st := range process {
				val := st.value / float64(len(stacks))
				node := tree
				node.add(val, v == 1)
				for j := len(st.frames) - 1; j >= 0; j-- {
					node = node.child(st.frames[j])
					node.add(val, v == 1)
				}
			}
		}
	}
	tree.sort()
	return tree, unit, nil
}

// change returns the Change of a quantity with per-process values old
// and new, its interval at level.
func change(old, new []float64, level float64) Change {
	iv, _ := stats.Welch(old, new, level)
	return Change{Old: stats.Mean(old), New: stats.Mean(new), Delta: iv, Named: iv.Lo > 0 || iv.Hi < 0}
}

func (n *Node) add(v float64, newSide bool) {
	if newSide {
		n.New += v
	} else {
		n.Old += v
	}
}

func (n *Node) child(f string) *Node {
	for _, c := range n.Children {
		if c.Func == f {
			return c
		}
	}
	c := &Node{Func: f}
	n.Children = append(n.Children, c)
	return c
}

// sort orders every node's children by name, so that a flame graph of
// the tree is the same for the same profiles.
func (n *Node) sort() {
	slices.SortFunc(n.Children, func(a, b *Node) int { return cmp.Compare(a.Func, b.Func) })
	for _, c := range n.Children {
		c.sort()
	}
}

// A stack is a sample's frames, innermost first, and its value per
// operation.
type stack struct {
	frames []string
	value  float64
}

// perOp returns p's samples of sampleType as stacks of function names,
// innermost first, with values per operation, and the unit per
// operation.
func perOp(p Process, sampleType string) ([]stack, string, error) {
	prof := p.Profile
	if prof == nil {
		return nil, "", errors.New("no profile")
	}
	if !(p.Ops > 0) {
		return nil, "", fmt.Errorf("%v operations", p.Ops)
	}
	idx := -1
	for i, st := range prof.SampleType {
		if st.Type == sampleType {
			idx = i
		}
	}
	if idx < 0 {
		var have []string
		for _, st := range prof.SampleType {
			have = append(have, st.Type)
		}
		return nil, "", fmt.Errorf("no sample type %q (have %v)", sampleType, have)
	}
	unit := prof.SampleType[idx].Unit
	switch {
	case unit == "nanoseconds":
		unit = "ns/op"
	case unit == "bytes":
		unit = "B/op"
	case sampleType == AllocObjects || sampleType == "inuse_objects":
		unit = "allocs/op"
	default:
		unit += "/op"
	}
	total := 0.0
	for _, s := range prof.Sample {
		total += float64(s.Value[idx])
	}
	if total <= 0 {
		return nil, "", ErrNoSamples
	}
	scale := 1 / p.Ops
	if p.CPU > 0 && unit == "ns/op" {
		scale *= float64(p.CPU.Nanoseconds()) / total
	}
	out := make([]stack, 0, len(prof.Sample))
	for _, s := range prof.Sample {
		if s.Value[idx] == 0 {
			continue
		}
		var frames []string
		for _, loc := range s.Location {
			if len(loc.Line) == 0 {
				frames = append(frames, fmt.Sprintf("0x%x", loc.Address))
				continue
			}
			for _, l := range loc.Line {
				if l.Function == nil || l.Function.Name == "" {
					frames = append(frames, fmt.Sprintf("0x%x", loc.Address))
					continue
				}
				frames = append(frames, l.Function.Name)
			}
		}
		for i := len(frames) - 2; i >= 0; i-- {
			if preemptFrames[frames[i]] {
				frames = frames[i+1:]
				break
			}
		}
		out = append(out, stack{frames: frames, value: float64(s.Value[idx]) * scale})
	}
	return out, unit, nil
}

// Merge merges the profiles of one version's processes into one, for
// `go tool pprof`: the CPU samples of each process scaled to its CPU time
// (Process.CPU), as Compare scales them, and the number of processes and
// operations in a comment. Two versions merged from the same number of
// operations can be compared with pprof's -diff_base unchanged.
func Merge(ps []Process) (*profile.Profile, error) {
	var profs []*profile.Profile
	ops := 0.0
	for _, p := range ps {
		if p.Profile == nil {
			continue
		}
		c := p.Profile.Copy()
		if p.CPU > 0 {
			for i, st := range c.SampleType {
				if st.Type != CPU {
					continue
				}
				total := 0.0
				for _, s := range c.Sample {
					total += float64(s.Value[i])
				}
				if total > 0 {
					ratios := make([]float64, len(c.SampleType))
					for j := range ratios {
						ratios[j] = 1
					}
					ratios[i] = float64(p.CPU.Nanoseconds()) / total
					if err := c.ScaleN(ratios); err != nil {
						return nil, err
					}
				}
			}
		}
		profs = append(profs, c)
		ops += p.Ops
	}
	if len(profs) == 0 {
		return nil, errors.New("profdiff: no profile to merge")
	}
	m, err := profile.Merge(profs)
	if err != nil {
		return nil, err
	}
	m.Comments = append(m.Comments, fmt.Sprintf("mbench: %d processes, %.0f operations", len(profs), ops))
	return m, nil
}

// Samples returns the number of samples in p: the values of its
// "samples" sample type when it has one (a CPU profile), else the number
// of its Sample records.
func Samples(p *profile.Profile) int {
	for i, st := range p.SampleType {
		if st.Type == "samples" {
			n := int64(0)
			for _, s := range p.Sample {
				n += s.Value[i]
			}
			return int(n)
		}
	}
	return len(p.Sample)
}
