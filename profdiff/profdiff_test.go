package profdiff

import (
	"bytes"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

// A synth builds CPU profiles of a made-up benchmark: each leaf path gets
// a mean time per operation, and each process draws its samples at a
// period of 1ms with seeded noise (Poisson sampling, and a per-process
// speed factor for the variation between processes).
type synth struct {
	funcs map[string]*profile.Function
	locs  map[string]*profile.Location
	next  uint64
}

func newSynth() *synth {
	return &synth{funcs: map[string]*profile.Function{}, locs: map[string]*profile.Location{}}
}

// location returns the location of one frame, or of several inlined
// frames when name holds "inner+outer".
func (s *synth) location(name string) *profile.Location {
	if l, ok := s.locs[name]; ok {
		return l
	}
	s.next++
	l := &profile.Location{ID: s.next, Address: 0x1000 + s.next}
	if name != "" && name[0] != '?' {
		for _, f := range strings.Split(name, "+") {
			fn, ok := s.funcs[f]
			if !ok {
				fn = &profile.Function{ID: uint64(len(s.funcs) + 1), Name: f}
				s.funcs[f] = fn
			}
			l.Line = append(l.Line, profile.Line{Function: fn})
		}
	}
	s.locs[name] = l
	return l
}

const period = 1e6 // ns

// process returns a profile of ops operations whose paths (root first,
// ";"-separated) take nsPerOp each, with Poisson sampling noise and the
// whole process slower or faster by a factor drawn around 1 with sd
// spread.
func (s *synth) process(r *rand.Rand, ops float64, paths map[string]float64, spread float64) Process {
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     period,
	}
	speed := 1 + spread*r.NormFloat64()
	// In a fixed order, so that a seed draws the same noise for each path.
	for _, path := range slices.Sorted(maps.Keys(paths)) {
		ns := paths[path]
		mean := ns * ops * speed / period
		n := int64(math.Round(mean + math.Sqrt(mean)*r.NormFloat64()))
		if n <= 0 {
			continue
		}
		frames := strings.Split(path, ";")
		var locs []*profile.Location
		for i := len(frames) - 1; i >= 0; i-- {
			locs = append(locs, s.location(frames[i]))
		}
		p.Sample = append(p.Sample, &profile.Sample{Location: locs, Value: []int64{n, n * period}})
	}
	for _, f := range s.funcs {
		p.Function = append(p.Function, f)
	}
	for _, l := range s.locs {
		p.Location = append(p.Location, l)
	}
	return Process{Profile: p, Ops: ops}
}

// The benchmark: 1000 ns/op in four places; the new version spends
// extra ns/op in json.object.
var base = map[string]float64{
	"runN;Bench;json.Unmarshal;json.object":           400,
	"runN;Bench;json.Unmarshal;json.object;json.scan": 250,
	"runN;Bench;json.Unmarshal;runtime.mallocgc":      200,
	"runN;Bench;strconv.ParseFloat":                   150,
}

func versions(seed uint64, extra float64, procs int) (old, new []Process) {
	s := newSynth()
	r := rand.New(rand.NewPCG(seed, 1))
	slower := map[string]float64{}
	for k, v := range base {
		slower[k] = v
	}
	slower["runN;Bench;json.Unmarshal;json.object"] += extra
	for range procs {
		old = append(old, s.process(r, 2e6, base, 0.01))
		new = append(new, s.process(r, 2e6, slower, 0.01))
	}
	return old, new
}

func TestCompareNamesTheGuiltyFunction(t *testing.T) {
	// Seeds in which an unchanged function was named too: a false
	// discovery rate of 5% allows one now and then.
	extra := 0
	for seed := range uint64(20) {
		old, new := versions(seed, 100, 5) // +10%
		d, err := Compare(old, new, DefaultOptions)
		if err != nil {
			t.Fatal(err)
		}
		named := d.Named()
		if len(named) == 0 || named[0].Func != "json.object" {
			t.Fatalf("seed %d: named %v, want json.object first", seed, funcs(named))
		}
		if len(named) > 1 {
			extra++
		}
		g := named[0]
		if !g.Flat.Delta.Contains(100) {
			t.Errorf("seed %d: json.object's change %+v misses the true 100 ns/op", seed, g.Flat.Delta)
		}
		if pts := d.Pts(g.Flat.Delta.Center); math.Abs(pts-10) > 4 {
			t.Errorf("seed %d: %.1f pts, want about 10", seed, pts)
		}
		if d.Unit != "ns/op" || math.Abs(d.Total.Old-1000) > 40 {
			t.Errorf("seed %d: total %v %s, want about 1000 ns/op", seed, d.Total.Old, d.Unit)
		}
		for _, r := range d.Rows {
			switch r.Func {
			case "json.scan", "strconv.ParseFloat", "runtime.mallocgc":
				if r.Flat.Named && len(named) == 1 {
					t.Errorf("seed %d: unchanged %s named alone: %+v", seed, r.Func, r.Flat)
				}
			case "json.Unmarshal", "Bench", "runN":
				// Callers of the guilty function change in cum only.
				if r.Flat.Named || !r.Cum.Named {
					t.Errorf("seed %d: %s flat %+v cum %+v, want a cumulative change only", seed, r.Func, r.Flat, r.Cum)
				}
			}
		}
	}
	if extra > 2 {
		t.Errorf("an unchanged function named beside json.object in %d of 20 seeds", extra)
	}
}

func TestCompareNoChangeNamesNothing(t *testing.T) {
	falsePositive := 0
	for seed := range uint64(40) {
		old, new := versions(100+seed, 0, 5)
		d, err := Compare(old, new, DefaultOptions)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Named()) > 0 {
			falsePositive++
		}
	}
	// A false discovery rate of 5% with no true change is a family-wise
	// rate of 5%: at most a few of 40.
	if falsePositive > 5 {
		t.Errorf("%d of 40 A/A comparisons named a function", falsePositive)
	}
}

func TestComparePtsAddUp(t *testing.T) {
	old, new := versions(7, 200, 5)
	d, err := Compare(old, new, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, r := range d.Rows {
		sum += d.Pts(r.Flat.Delta.Center)
	}
	if total := d.Pts(d.Total.Delta.Center); math.Abs(sum-total) > 1e-9 {
		t.Errorf("flat changes add up to %v pts, the total changed by %v", sum, total)
	}
	// The tree's root holds the totals.
	if math.Abs(d.Tree.Old-d.Total.Old) > 1e-6 || math.Abs(d.Tree.New-d.Total.New) > 1e-6 {
		t.Errorf("tree root %v → %v, totals %v → %v", d.Tree.Old, d.Tree.New, d.Total.Old, d.Total.New)
	}
}

func TestCompareInlinedAndNewFunctions(t *testing.T) {
	s := newSynth()
	r := rand.New(rand.NewPCG(3, 3))
	oldPaths := map[string]float64{"runN;Bench;work": 400, "runN;Bench;work;runtime.asyncPreempt;runtime.mcall": 100, "runN;Bench;hash+work": 500}
	newPaths := map[string]float64{"runN;Bench;work": 400, "runN;Bench;work;runtime.asyncPreempt": 100, "runN;Bench;hash+work": 500, "runN;Bench;validate": 300}
	var old, new []Process
	for range 5 {
		old = append(old, s.process(r, 1e6, oldPaths, 0.01))
		new = append(new, s.process(r, 1e6, newPaths, 0.01))
	}
	d, err := Compare(old, new, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]Row{}
	for _, r := range d.Rows {
		rows[r.Func] = r
	}
	if v := rows["validate"]; v.Only != "new" || !v.Flat.Named {
		t.Errorf("validate: %+v, want a named function new in the new version", v)
	}
	// hash, inlined into work, is a frame of its own: flat 500, and work's
	// cumulative value holds it.
	if h := rows["hash"]; math.Abs(h.Flat.Old-500) > 40 {
		t.Errorf("inlined hash: flat %v, want about 500", h.Flat.Old)
	}
	// The samples in the preemption count for work, which it interrupted.
	if w := rows["work"]; math.Abs(w.Cum.Old-1000) > 60 || math.Abs(w.Flat.Old-500) > 40 || math.Abs(w.Flat.New-500) > 40 {
		t.Errorf("work: flat %v → %v, cum %v, want about 500 and 1000", w.Flat.Old, w.Flat.New, w.Cum.Old)
	}
	if _, ok := rows["runtime.asyncPreempt"]; ok {
		t.Error("runtime.asyncPreempt has a row")
	}
}

func TestCompareFaults(t *testing.T) {
	old, new := versions(9, 100, 4)
	// A process too short to be sampled is left out, named.
	empty := new[0]
	empty.Profile = empty.Profile.Copy()
	empty.Profile.Sample = nil
	empty.Name = "new process 1"
	d, err := Compare(old, append([]Process{empty}, new[1:]...), DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if d.NewProcesses != 3 || len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "new process 1") || !strings.Contains(d.Warnings[0], "no samples") {
		t.Errorf("processes %d, warnings %q: want process 1 left out, named", d.NewProcesses, d.Warnings)
	}
	// With fewer than two left, Compare fails, naming why.
	_, err = Compare(old[:1], new, DefaultOptions)
	if err == nil || !strings.Contains(err.Error(), "old: 1 of 1 processes") {
		t.Errorf("one old process: %v", err)
	}
	// Another sample type than the profiles carry.
	_, err = Compare(old, new, Options{SampleType: AllocSpace, Alpha: 0.05})
	if err == nil || !strings.Contains(err.Error(), `no sample type "alloc_space"`) {
		t.Errorf("alloc_space of CPU profiles: %v", err)
	}
	if _, err := Compare(old, new, Options{SampleType: CPU}); err == nil {
		t.Error("alpha 0 accepted")
	}
}

func TestCompareWithoutSymbols(t *testing.T) {
	s := newSynth()
	r := rand.New(rand.NewPCG(5, 5))
	paths := map[string]float64{"runN;?a": 500, "runN;?b": 500}
	var old, new []Process
	for range 3 {
		old = append(old, s.process(r, 1e6, paths, 0.01))
		new = append(new, s.process(r, 1e6, paths, 0.01))
	}
	d, err := Compare(old, new, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Warnings) != 2 || !strings.Contains(d.Warnings[0], "no symbols") {
		t.Errorf("warnings %q, want one per version saying it has no symbols", d.Warnings)
	}
}

func TestCPUScale(t *testing.T) {
	// Samples recorded at a period the kernel did not deliver: 500 ns/op
	// recorded, the process measured twice as much CPU time.
	s := newSynth()
	r := rand.New(rand.NewPCG(6, 6))
	var old, new []Process
	for range 3 {
		for _, side := range []*[]Process{&old, &new} {
			p := s.process(r, 1e6, map[string]float64{"runN;work": 500}, 0)
			// 1000 ns/op over 1e6 operations.
			p.CPU = time.Second
			*side = append(*side, p)
		}
	}
	d, err := Compare(old, new, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(d.Total.Old-1000) > 1e-6 {
		t.Errorf("total %v ns/op, want about 1000 after scaling to the measured CPU time", d.Total.Old)
	}
	m, err := Merge(old)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := profile.Parse(&buf)
	if err != nil {
		t.Fatal(err)
	}
	total := 0.0
	for _, smp := range back.Sample {
		total += float64(smp.Value[1])
	}
	if want := 3 * 1000 * 1e6; math.Abs(total-want) > 10 {
		t.Errorf("merged profile holds %v ns, want about %v", total, want)
	}
	if !strings.Contains(strings.Join(back.Comments, "\n"), "3 processes, 3000000 operations") {
		t.Errorf("comments %q", back.Comments)
	}
}

func funcs(rows []Row) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Func)
	}
	return out
}

// TestTreeOfMerged: the tree of the merged profiles, read back, is the
// tree of the processes: what mbench report draws from the kept files.
func TestTreeOfMerged(t *testing.T) {
	old, new := versions(11, 100, 3)
	want, unit, err := Tree(old, new, CPU)
	if err != nil || unit != "ns/op" {
		t.Fatal(err, unit)
	}
	merged := func(ps []Process) []Process {
		m, err := Merge(ps)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := m.Write(&buf); err != nil {
			t.Fatal(err)
		}
		back, err := profile.Parse(&buf)
		if err != nil {
			t.Fatal(err)
		}
		return []Process{{Profile: back, Ops: 3 * ps[0].Ops}}
	}
	got, _, err := Tree(merged(old), merged(new), CPU)
	if err != nil {
		t.Fatal(err)
	}
	var walk func(a, b *Node, path string)
	walk = func(a, b *Node, path string) {
		path += "/" + a.Func
		if a.Func != b.Func || math.Abs(a.Old-b.Old) > 1e-9 || math.Abs(a.New-b.New) > 1e-9 || len(a.Children) != len(b.Children) {
			t.Fatalf("%s: merged %+v, processes %+v", path, *a, *b)
		}
		for i := range a.Children {
			walk(a.Children[i], b.Children[i], path)
		}
	}
	walk(got, want, "")
	if d := got.child("runN").child("Bench").child("json.Unmarshal").child("json.object"); d.New-d.Old < 50 {
		t.Errorf("json.object %v → %v, want about 100 more", d.Old, d.New)
	}
}
