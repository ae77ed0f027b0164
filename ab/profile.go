package ab

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/google/pprof/profile"
	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/compare"
	"github.com/mbench/mbench/profdiff"
	"github.com/mbench/mbench/run"
)

// Which benchmarks a session profiles (ProfileConfig.Which).
const (
	ProfileNone    = ""
	ProfileChanged = "changed" // those whose time or allocation changed
	ProfileAll     = "all"
)

// A ProfileConfig says which benchmarks to profile after the verdicts and
// how. Start from DefaultProfileConfig.
type ProfileConfig struct {
	// Which is ProfileNone, ProfileChanged or ProfileAll.
	Which string
	// Processes is the number of processes of each version, run in turn
	// (old, new, new, old, ...), each profiling the same number of
	// operations: enough for Samples CPU samples, as a first process of
	// the old version (the pilot, not compared) shows, but no more than
	// MaxTime of CPU time a process.
	Processes int
	Samples   int
	MaxTime   time.Duration
	// Hz is the CPU profile rate asked of binaries built with the probe
	// (run.ProfileRateVar); binaries without it record at 100 Hz.
	Hz int
	// Dir is where the merged profiles of each benchmark are kept; ""
	// keeps none.
	Dir string
	// Alpha is the false discovery rate of the functions named
	// (profdiff.Options).
	Alpha float64
}

// DefaultProfileConfig profiles 5 processes of each version of 2000
// samples each, at 1000 Hz asked, and 10s a process at most
// (docs/eval/profile.md measures what arrives and what it finds).
var DefaultProfileConfig = ProfileConfig{Processes: 5, Samples: 2000, MaxTime: 10 * time.Second, Hz: 1000, Alpha: 0.05}

// pilotTime is how long the pilot process of a benchmark lasts, at the
// old version's time per operation.
const pilotTime = 300 * time.Millisecond

// A Why is what the profiles of one benchmark say about its change.
type Why struct {
	Key bench.Key
	// Time is the benchmark's row of the sec/op comparison, nil when the
	// benchmark was profiled without one (mbench profile).
	Time *compare.Row
	// Ops is the number of operations each profiled process ran.
	Ops int
	// PilotSamples and PilotCPU are what the pilot process of PilotOps
	// operations recorded and used, which sized Ops.
	PilotOps, PilotSamples int
	PilotCPU               time.Duration
	// CPU is the diff of the CPU profiles; Bytes and Allocs those of the
	// heap profiles (B/op and allocs/op), when allocation changed.
	CPU, Bytes, Allocs *profdiff.Diff
	// Files are the merged profiles kept, old then new of each kind.
	Files []string
	// Err is what kept a diff from being made; the others may still be
	// there.
	Err error
	// Elapsed is the time the profiling took.
	Elapsed time.Duration
}

// Pprof returns the command that shows the kept CPU profiles' difference
// in `go tool pprof`, "" when none were kept.
func (w *Why) Pprof() string {
	if len(w.Files) < 2 {
		return ""
	}
	return fmt.Sprintf("go tool pprof -diff_base %s %s", quote(w.Files[0]), quote(w.Files[1]))
}

func quote(path string) string {
	if strings.ContainsAny(path, " \t'\"$\\") {
		return strconv.Quote(path)
	}
	return path
}

// changed reports whether a row's verdict is a change.
func changed(r *compare.Row) bool {
	switch r.Verdict {
	case compare.Better, compare.Worse, compare.Higher, compare.Lower:
		return true
	}
	return false
}

// Profile profiles the session's benchmarks that pc.Which selects,
// given the session's comparisons (Results): CPU profiles of every one,
// heap profiles of those whose B/op or allocs/op changed. It runs after
// the verdicts are stored and changes nothing of them; a benchmark that
// cannot be profiled gets its Why.Err, and the others go on.
func (s *Session) Profile(ctx context.Context, pc ProfileConfig, results []*compare.Result) []*Why {
	if pc.Which == ProfileNone {
		return nil
	}
	rows := map[string]map[bench.Key]*compare.Row{}
	for _, res := range results {
		rows[res.Metric] = map[bench.Key]*compare.Row{}
		for i := range res.Rows {
			rows[res.Metric][res.Rows[i].Key] = &res.Rows[i]
		}
	}
	var out []*Why
	for _, b := range s.Benchmarks {
		if ctx.Err() != nil {
			break
		}
		row := rows["sec/op"][b.Key]
		mem := false
		for _, unit := range []string{"B/op", "allocs/op"} {
			if r := rows[unit][b.Key]; r != nil && changed(r) {
				mem = true
			}
		}
		if pc.Which == ProfileChanged && !mem && (row == nil || !changed(row)) {
			continue
		}
		if b.Err != nil || b.N == 0 {
			continue
		}
		sec := s.oldSecPerOp(b.Key)
		s.logf("profiling %s", b.Key)
		w := profileBenchmark(ctx, pc, &b.old, &b.new, s.cfg.Probed, sec, mem, s.cfg.Timeout)
		w.Time = row
		out = append(out, w)
	}
	return out
}

// oldSecPerOp returns the mean time per operation of the old version's
// measured iterations of k.
func (s *Session) oldSecPerOp(k bench.Key) float64 {
	sum, n := 0.0, 0
	for _, m := range s.Run.Measurements {
		if m.Key != k || m.Coord.Version != s.cfg.OldLabel || m.Coord.Phase == bench.Warmup {
			continue
		}
		if v, ok := m.Get("sec/op"); ok {
			sum += v
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

// profileBenchmark profiles one benchmark's two versions, whose old one
// takes sec seconds an operation.
func profileBenchmark(ctx context.Context, pc ProfileConfig, old, new *run.Target, probed bool, sec float64, mem bool, timeout time.Duration) *Why {
	start := time.Now()
	w := &Why{Key: old.Key}
	defer func() { w.Elapsed = time.Since(start) }()
	if pc.Samples < 1 || pc.MaxTime <= 0 || pc.Processes < 2 {
		w.Err = fmt.Errorf("profiling needs 2 processes or more, 1 sample or more and a positive time, not %d, %d and %v", pc.Processes, pc.Samples, pc.MaxTime)
		return w
	}
	if !(sec > 0) {
		w.Err = errors.New("no time per operation to size the profiled processes")
		return w
	}
	tmp, err := os.MkdirTemp("", "mbench-profile-")
	if err != nil {
		w.Err = err
		return w
	}
	defer os.RemoveAll(tmp)
	var env []string
	if probed && pc.Hz > 0 {
		env = append(env, fmt.Sprintf("%s=%d", run.ProfileRateVar, pc.Hz))
	}
	if err := w.pilot(ctx, pc, old, sec, env, tmp, timeout); err != nil {
		w.Err = err
		return w
	}
	// collect runs the processes of both versions in turn, old first in
	// even turns, and returns each version's profiles.
	collect := func(kind string, ops, procs int) (sides [2][]profdiff.Process, errs []error) {
		targets := [2]*run.Target{old, new}
		for i := range procs {
			order := [2]int{0, 1}
			if i%2 == 1 {
				order = [2]int{1, 0}
			}
			for _, v := range order {
				if ctx.Err() != nil {
					return sides, append(errs, ctx.Err())
				}
				name := fmt.Sprintf("%s process %d", [2]string{"old", "new"}[v], i+1)
				file := filepath.Join(tmp, fmt.Sprintf("%s-%d-%d.pb.gz", kind, v, i))
				var cpu time.Duration
				spec := run.ForkSpec{Binary: *targets[v].Binary, Pattern: targets[v].Pattern, Procs: targets[v].Procs,
					BenchTime: strconv.Itoa(ops) + "x", Count: 1, Timeout: timeout, Env: env, CPUTime: &cpu}
				if kind == "cpu" {
					spec.CPUProfile = file
				} else {
					spec.MemProfile, spec.MemProfileRate = file, 1
				}
				err := run.RunFork(ctx, spec, func(*bench.Measurement) bool { return true })
				if err != nil {
					var fe *run.ForkError
					if errors.As(err, &fe) {
						err = errors.New(tail(fe))
					}
					errs = append(errs, fmt.Errorf("%s: %v", name, err))
					continue
				}
				p, err := readProfile(file)
				if err != nil {
					errs = append(errs, fmt.Errorf("%s: %v", name, err))
					continue
				}
				sides[v] = append(sides[v], profdiff.Process{Profile: p, Ops: float64(ops), CPU: cpu, Name: name})
			}
		}
		return sides, errs
	}
	opts := profdiff.DefaultOptions
	opts.Alpha = pc.Alpha
	var errs []error
	cpu, cerrs := collect("cpu", w.Ops, pc.Processes)
	errs = append(errs, cerrs...)
	if err := enough(cpu, pc.Processes); err != nil {
		errs = append(errs, fmt.Errorf("CPU profiles: %w", err))
	} else if d, err := profdiff.Compare(cpu[0], cpu[1], opts); err != nil {
		errs = append(errs, fmt.Errorf("CPU profiles: %w", err))
	} else {
		w.CPU = d
		errs = append(errs, w.keep(pc.Dir, "cpu", cpu)...)
	}
	if mem {
		// Every allocation recorded (-test.memprofilerate=1) slows the
		// process, and what an operation allocates varies little: as
		// many operations as the pilot ran.
		ops := w.PilotOps
		procs := max(2, pc.Processes/2+1)
		heap, herrs := collect("alloc", ops, procs)
		errs = append(errs, herrs...)
		if err := enough(heap, procs); err != nil {
			errs = append(errs, fmt.Errorf("heap profiles: %w", err))
			heap = [2][]profdiff.Process{}
		}
		for _, k := range []struct {
			st  string
			dst **profdiff.Diff
		}{{profdiff.AllocSpace, &w.Bytes}, {profdiff.AllocObjects, &w.Allocs}} {
			o := opts
			o.SampleType = k.st
			if len(heap[0]) == 0 {
				break
			}
			d, err := profdiff.Compare(heap[0], heap[1], o)
			if err != nil {
				errs = append(errs, fmt.Errorf("heap profiles: %w", err))
				break
			}
			*k.dst = d
		}
		if w.Bytes != nil {
			errs = append(errs, w.keep(pc.Dir, "alloc", heap)...)
		}
	}
	if w.CPU == nil || (mem && w.Bytes == nil) {
		w.Err = errors.Join(errs...)
	} else if len(errs) > 0 {
		// Processes lost, but a diff made from the rest: a warning.
		for _, e := range errs {
			w.CPU.Warnings = append(w.CPU.Warnings, e.Error())
		}
	}
	return w
}

// enough reports a version of which fewer than two of procs processes
// gave a profile.
func enough(sides [2][]profdiff.Process, procs int) error {
	for v, version := range []string{"old", "new"} {
		if len(sides[v]) < 2 {
			return fmt.Errorf("%s: %d of %d processes gave a profile, want 2 or more", version, len(sides[v]), procs)
		}
	}
	return nil
}

// readProfile parses a profile file a test binary wrote.
func readProfile(path string) (*profile.Profile, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, errors.New("no profile written (a test binary that is not go test's?)")
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("profile %s: %v", filepath.Base(path), err)
	}
	return p, nil
}

// unsafeName matches what a file name should not hold.
var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._=+-]+`)

// FileBase returns the start of the names of k's profile files: its
// package's last element and its name, with anything but letters,
// digits and ._=+- made an underscore.
func FileBase(k bench.Key) string {
	pkg := k.Package
	if i := strings.LastIndex(pkg, "/"); i >= 0 {
		pkg = pkg[i+1:]
	}
	name := strings.TrimPrefix(k.FullName(), "Benchmark")
	if pkg != "" {
		name = pkg + "." + name
	}
	return unsafeName.ReplaceAllString(name, "_")
}

// keep merges each version's profiles of kind and writes them under dir
// as FileBase.old.KIND.pb.gz and .new.KIND.pb.gz.
func (w *Why) keep(dir, kind string, sides [2][]profdiff.Process) []error {
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return []error{err}
	}
	var errs []error
	for v, version := range []string{"old", "new"} {
		m, err := profdiff.Merge(sides[v])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		path := filepath.Join(dir, fmt.Sprintf("%s.%s.%s.pb.gz", FileBase(w.Key), version, kind))
		if err := writeProfile(path, m); err != nil {
			errs = append(errs, err)
			continue
		}
		w.Files = append(w.Files, path)
	}
	return errs
}

// writeProfile writes p to path through a rename, so that a reader never
// sees half a profile.
func writeProfile(path string, p *profile.Profile) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	err = p.Write(tmp)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// Profiled is what ProfileVersions found.
type Profiled struct {
	OldLabel, NewLabel string
	Why                []*Why
	// Dir is where the merged profiles are kept ("" for nowhere).
	Dir      string
	Warnings []string
	Elapsed  time.Duration
}

// ProfileVersions is `mbench profile`: it builds the two versions of o,
// as RunInterleaved does, and profiles every benchmark of both that
// matches o.Bench, without a verdict: each one's operations per process
// are sized on the old version, and heap profiles are taken when one
// calibrating process of each version shows another B/op or allocs/op.
// The merged profiles are kept under o.Profile.Dir in a directory named
// by the versions and the time.
func ProfileVersions(ctx context.Context, o Options) (*Profiled, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	start := time.Now()
	opts := run.BuildOptions{Dir: o.Dir, Tags: o.Tags, GCFlags: o.GCFlags, CacheDir: o.CacheDir, Log: o.Log}
	if opts.Dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		opts.Dir = wd
	}
	patterns := o.Packages
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	out := &Profiled{}
	version := func(side, rev, bin string) (*Version, error) {
		if bin != "" {
			return Prebuilt(bin)
		}
		v, warning, err := buildRevision(ctx, side, rev, patterns, opts, true)
		if warning != nil {
			out.Warnings = append(out.Warnings, warning.Error())
		}
		return v, err
	}
	old, err := version("old", o.OldRev, o.OldBin)
	if err != nil {
		return nil, err
	}
	defer old.Close()
	new, err := version("new", o.NewRev, o.NewBin)
	if err != nil {
		return nil, err
	}
	defer new.Close()
	c := o.Config
	c.Old, c.New, c.Probed = old.Binaries, new.Binaries, old.Probed && new.Probed
	c.OldLabel, c.NewLabel = cmp.Or(c.OldLabel, old.Label), cmp.Or(c.NewLabel, new.Label)
	if c.OldLabel == c.NewLabel {
		c.NewLabel += " (new)"
	}
	if o.Verbose {
		c.Log = o.Log
	}
	out.OldLabel, out.NewLabel = c.OldLabel, c.NewLabel
	if !c.Probed && o.Profile.Hz > 100 {
		out.Warnings = append(out.Warnings, "without the testing-package probe the CPU profiles are recorded at 100 Hz")
	}
	s := &Session{cfg: c}
	if err := s.discover(ctx); err != nil {
		return nil, err
	}
	out.Warnings = append(out.Warnings, s.Warnings...)
	out.Warnings = append(out.Warnings, s.failures...)
	pc := o.Profile
	if pc.Dir == "" && o.NoiseDir != "" {
		pc.Dir = filepath.Join(o.NoiseDir, "profiles")
	}
	if pc.Processes < 2 {
		return nil, fmt.Errorf("-procs %d: want 2 or more", pc.Processes)
	}
	if pc.Dir != "" {
		pc.Dir = filepath.Join(pc.Dir, unsafeName.ReplaceAllString(fmt.Sprintf("%s..%s-%s", c.OldLabel, c.NewLabel, start.Format("20060102T150405")), "_"))
		out.Dir = pc.Dir
	}
	for _, b := range s.Benchmarks {
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
		logf(o.Log, "profiling %s", b.Key)
		sec, mem, err := calibrateBoth(ctx, &b.old, &b.new, c)
		if err != nil {
			out.Why = append(out.Why, &Why{Key: b.Key, Err: err})
			continue
		}
		out.Why = append(out.Why, profileBenchmark(ctx, pc, &b.old, &b.new, c.Probed, sec, mem, c.Timeout))
	}
	out.Elapsed = time.Since(start)
	if ctx.Err() != nil {
		return out, ctx.Err()
	}
	for _, w := range out.Why {
		if w.CPU != nil {
			return out, nil
		}
	}
	return out, errors.New("no benchmark could be profiled")
}

// calibrateBoth returns the old version's time per operation and whether
// the versions' allocation differs, from one calibrating process of
// each.
func calibrateBoth(ctx context.Context, old, new *run.Target, c Config) (sec float64, mem bool, err error) {
	var ms [2]*bench.Measurement
	for i, t := range []*run.Target{old, new} {
		_, m, err := run.CalibrateWarm(ctx, t, c.Iter*20, true, c.Timeout)
		if err != nil {
			var fe *run.ForkError
			if errors.As(err, &fe) {
				err = errors.New(tail(fe))
			}
			return 0, false, fmt.Errorf("calibrating %s: %v", [2]string{c.OldLabel, c.NewLabel}[i], err)
		}
		ms[i] = m
	}
	sec, _ = ms[0].Get("sec/op")
	for _, u := range []string{"allocs/op", "B/op"} {
		a, _ := ms[0].Get(u)
		b, _ := ms[1].Get(u)
		if math.Abs(a-b) > 0.5+0.01*max(a, b) {
			mem = true
		}
	}
	return sec, mem, nil
}

func logf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format+"\n", args...)
	}
}

// pilot runs one CPU-profiled process of the old version t, lasting about
// pilotTime at sec seconds an operation, and sizes w.Ops from it: the
// operations that record pc.Samples samples, within pc.MaxTime of CPU
// time and of wall time. What arrives depends on the kernel (a timer signal at most every
// scheduler tick) and on how much of its time the benchmark computes.
func (w *Why) pilot(ctx context.Context, pc ProfileConfig, t *run.Target, sec float64, env []string, tmp string, timeout time.Duration) error {
	w.PilotOps = max(2, int(math.Ceil(pilotTime.Seconds()/sec)))
	file := filepath.Join(tmp, "pilot.pb.gz")
	spec := run.ForkSpec{Binary: *t.Binary, Pattern: t.Pattern, Procs: t.Procs, BenchTime: strconv.Itoa(w.PilotOps) + "x",
		Count: 1, Timeout: timeout, Env: env, CPUTime: &w.PilotCPU, CPUProfile: file}
	start := time.Now()
	if err := run.RunFork(ctx, spec, func(*bench.Measurement) bool { return true }); err != nil {
		var fe *run.ForkError
		if errors.As(err, &fe) {
			err = errors.New(tail(fe))
		}
		return fmt.Errorf("old pilot process: %v", err)
	}
	wall := time.Since(start)
	p, err := readProfile(file)
	if err != nil {
		return fmt.Errorf("old pilot process: %v", err)
	}
	w.PilotSamples = profdiff.Samples(p)
	if w.PilotSamples == 0 {
		return fmt.Errorf("%d operations recorded no CPU sample in %v of CPU time: too short to profile, or waiting rather than computing", w.PilotOps, w.PilotCPU.Round(time.Millisecond))
	}
	ops := float64(pc.Samples) / float64(w.PilotSamples) * float64(w.PilotOps)
	// Within MaxTime of CPU time and of wall time: a benchmark that
	// waits uses little CPU.
	ops = min(ops, pc.MaxTime.Seconds()/max(w.PilotCPU, wall).Seconds()*float64(w.PilotOps))
	w.Ops = max(2, int(math.Ceil(min(ops, 1e9))))
	return nil
}
