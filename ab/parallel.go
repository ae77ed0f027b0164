package ab

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/compare"
	"github.com/mbench/mbench/duet"
	"github.com/mbench/mbench/internal/gitrev"
	"github.com/mbench/mbench/run"
	"github.com/mbench/mbench/shard"
	"github.com/mbench/mbench/stats"
	"github.com/mbench/mbench/store"
	"golang.org/x/perf/benchunit"
)

// ParallelConfig configures a parallel A/B session: duet benchmarking
// (Bulej et al., ICPE 2020), the two versions running at the same time,
// each pinned to its own CPU, every measured iteration of both started
// together. Interference from the rest of the machine hits both versions at
// once and cancels in the ratio of a pair.
//
// The versions are given once, as exactly one of: two git revisions
// (OldRev, NewRev), two prebuilt test binaries (OldBin, NewBin), or two
// commands (CmdOld, CmdNew). With AA the new version is the old one.
type ParallelConfig struct {
	// Dir is the directory the packages are relative to, inside the
	// module (and its git repository, for revisions); "" is the current
	// directory. Packages are the package patterns, "./..." when empty.
	Dir      string
	Packages []string

	// OldRev and NewRev are git revisions, built in scratch checkouts
	// (internal/gitrev) so the working tree is never touched; NewRev "."
	// is the working tree itself.
	OldRev, NewRev string
	// OldBin and NewBin are prebuilt test binaries. Unless built with the
	// probe (run.HasProbe), they carry none:
	// the two sides run free, paired by iteration index.
	OldBin, NewBin string
	// CmdOld and CmdNew are shell commands (run by sh -c); one run of a
	// command is one iteration of benchmark "Command", measured by its
	// wall time or, with MetricRE, by the number the first submatch of
	// MetricRE finds in its output, in Unit ("value" when empty).
	CmdOld, CmdNew string
	MetricRE       *regexp.Regexp
	Unit           string
	// AA runs the old version against itself: the control that shows
	// what "no change" looks like on this machine.
	AA bool

	// Bench selects the benchmarks by regular expression, as -test.bench.
	Bench string
	// Runs is the number of runs per benchmark, each a fresh pair of
	// processes, with Warmup discarded and Iters measured paired
	// iterations. The confidence interval is over runs, so Runs is at
	// least 2.
	Runs, Iters, Warmup int
	// Iter is the duration one iteration is calibrated to. Timeout ends a
	// run that takes longer.
	Iter, Timeout time.Duration
	// CPUs are the two CPUs the sides run on; which side gets which is
	// drawn per run.
	CPUs [2]int
	// Filler keeps the side that finishes an iteration first busy until
	// the other finishes (Bulej et al. 2020 §4.4).
	Filler bool
	// Probe builds the test binaries with the testing-package probe
	// (barrier and filler); without it, or when the toolchain does not
	// fit it, the two sides run free.
	Probe bool
	// Tags and GCFlags are passed to go test -c. CacheDir holds the built
	// binaries (run.BuildOptions.CacheDir).
	Tags, GCFlags, CacheDir string
	// Benchmem also records B/op and allocs/op.
	Benchmem bool
	// Metric, if not "", is the unit the session will be compared in. A
	// unit of b.ReportMetric's that no benchmark reports when calibrated
	// ends the session before its first run.
	Metric string
	// OldLabel and NewLabel name the two stored runs; by default the
	// revisions, binaries' names, or "old" and "new".
	OldLabel, NewLabel string
	// Seed seeds the order of benchmarks and the CPU assignment.
	Seed uint64
	// Verbose logs each run as it starts.
	Verbose bool
	// Platform describes the machine, for the stored runs' metadata and
	// the working tree's default label; nil means run.Detect's, whose
	// warnings are then the session's.
	Platform *run.Platform
	// Instance names the machine in the stored runs; "" is the host name.
	Instance string
	// Shard, unless it is the whole suite, compares one part of the
	// benchmarks both versions have, as Config.Shard does.
	Shard      shard.Shard
	ShardBasis string
}

// DefaultParallelConfig is the configuration of `mbench duet` without
// flags, apart from the versions, which have no default but NewRev.
var DefaultParallelConfig = ParallelConfig{
	NewRev: gitrev.WorkingTree,
	Bench:  ".",
	Runs:   10, Iters: 10, Warmup: 1,
	Iter: 50 * time.Millisecond, Timeout: 10 * time.Minute,
	CPUs:   [2]int{0, 1},
	Filler: true, Probe: true,
	Seed: compare.DefaultOptions.Seed,
}

// Check reports a configuration that cannot run, naming the options by
// the flags of `mbench duet`.
func (c *ParallelConfig) Check() error {
	modes := 0
	for _, set := range []bool{c.OldRev != "", c.OldBin != "" || c.NewBin != "", c.CmdOld != "" || c.CmdNew != ""} {
		if set {
			modes++
		}
	}
	if err := run.CheckPattern(c.Bench); err != nil {
		return err
	}
	switch {
	case modes != 1:
		return errors.New("give the old version once: a revision (OldRev), test binaries (OldBin with NewBin), or commands (CmdOld with CmdNew)")
	case c.OldRev != "" && c.NewRev == "" && !c.AA, c.OldBin != "" && c.NewBin == "" && !c.AA, c.CmdOld != "" && c.CmdNew == "" && !c.AA:
		return errors.New("the new version is missing: give NewBin or CmdNew, or AA")
	case c.Runs < 2:
		return fmt.Errorf("Runs %d: want at least 2 (the interval is over runs)", c.Runs)
	case c.Iters < 1 || c.Warmup < 0:
		return fmt.Errorf("Iters %d Warmup %d: want at least one measured iteration and no negative warm-up", c.Iters, c.Warmup)
	case c.Iter <= 0:
		return fmt.Errorf("Iter %v: want a positive duration", c.Iter)
	case c.CPUs[0] == c.CPUs[1]:
		return fmt.Errorf("CPUs %d,%d: want two different CPUs, e.g. 0,1", c.CPUs[0], c.CPUs[1])
	case c.MetricRE != nil && c.CmdOld == "":
		return errors.New("MetricRE applies to CmdOld and CmdNew")
	case c.MetricRE != nil && c.MetricRE.NumSubexp() < 1:
		return fmt.Errorf("MetricRE %q: want a submatch around the number, e.g. 'score: ([0-9.]+)'", c.MetricRE)
	case c.CmdOld != "" && !c.Shard.Whole():
		return errors.New("Shard splits benchmarks, not the commands of CmdOld and CmdNew")
	}
	return shard.Validate(c.Shard, c.ShardBasis)
}

// CheckMetric reports whether the session can measure unit, as far as
// that is known before it runs: CPU times (cpu-sec/op) need the probe,
// which prebuilt binaries and commands do not carry; commands without
// MetricRE are timed, in sec/op (with MetricRE, the value it finds is
// compared whatever unit says); B/op and allocs/op need Benchmem. Other
// units, which b.ReportMetric may report, only the benchmarks know.
func (c *ParallelConfig) CheckMetric(unit string) error {
	_, tidy := benchunit.Tidy(1, unit)
	switch {
	case tidy == "cpu-sec/op" && (c.OldBin != "" || c.CmdOld != "" || !c.Probe):
		return errors.New("Metric cpu-sec/op: CPU times need the testing probe, which prebuilt test binaries, commands and Probe false do not have")
	case c.CmdOld != "" && c.MetricRE == nil && tidy != "sec/op":
		return fmt.Errorf("Metric %s: commands are timed, in sec/op; MetricRE takes another value from their output", unit)
	case c.CmdOld == "" && (tidy == "B/op" || tidy == "allocs/op") && !c.Benchmem:
		return fmt.Errorf("Metric %s: give Benchmem to record it", unit)
	}
	return nil
}

// ParseCPUs parses the two CPUs of a parallel session, as "0,1".
func ParseCPUs(s string) ([2]int, error) {
	cpus, err := run.ParseCPUList(s)
	if err != nil || len(cpus) != 2 || cpus[0] == cpus[1] {
		return [2]int{}, fmt.Errorf("%q: want two different CPUs, e.g. 0,1", s)
	}
	return [2]int{cpus[0], cpus[1]}, nil
}

// unit is the unit of a command's values.
func (c *ParallelConfig) unit() string {
	switch {
	case c.MetricRE == nil:
		return "sec/op"
	case c.Unit == "":
		return "value"
	}
	return c.Unit
}

// A ParallelSession is a parallel A/B session whose two runs exist in the
// store: NewParallel creates them, so their ids can be shown before the
// measurements start, and Run fills them.
type ParallelSession struct {
	// ID is the session's id, the bench.SettingDuet both runs carry;
	// compare.Paired recognises the pair by it.
	ID string
	// Old and New are the two stored runs (bench.SettingDuetSide old and new), with
	// their ids and labels; Run appends each stored measurement.
	Old, New *bench.Run
	// Shard is the plan of the part of the benchmarks the session
	// compares; nil for all of them.
	Shard *shard.Plan

	cfg      ParallelConfig
	dir      string
	db       *store.Store
	instance string
	warnings []error
	stored   int
	ran      bool
}

// A ParallelResult is what a parallel session measured.
type ParallelResult struct {
	// ID is the session's id; Old and New are its two runs with every
	// measurement stored, warm-up included.
	ID       string
	Old, New *bench.Run
	// Pairs is the number of paired iterations stored.
	Pairs int
	// Shard is the session's shard plan; nil for all the benchmarks.
	Shard *shard.Plan
	// Unit is the unit of a session of commands whose values are a
	// number in their output, "" otherwise.
	Unit string
	// Skews holds the start skew of each measured pair, as a fraction of
	// its iteration: how well the pairing held.
	Skews []float64
	// Status is the runs' final status in the store: "complete",
	// "interrupted" or "failed".
	Status string
	// Warnings are problems that did not stop the session: the probe
	// missing, benchmarks in one version only, benchmarks that failed and
	// were left out.
	Warnings []error
}

// Report compares the result's two runs with opts, in the unit of a
// command's values when the session measured them, and returns the
// comparison with what only a parallel session knows, for the end of the
// text report (ParallelNotes, and ParallelCPUNote for wall time).
func (r *ParallelResult) Report(opts compare.Options) (res *compare.Result, notes string, err error) {
	if r.Pairs == 0 && r.Old.Settings[bench.SettingShard] != "" {
		return nil, "", fmt.Errorf("shard %s holds none of the benchmarks: nothing to compare", r.Old.Settings[bench.SettingShard])
	}
	if r.Pairs == 0 {
		return nil, "", errors.New("no paired iteration was measured")
	}
	if r.Unit != "" {
		opts.Metric = r.Unit
	}
	_, unit := benchunit.Tidy(1, opts.Metric)
	if unit == "cpu-sec/op" && !r.CPUTimes() {
		return nil, "", errors.New("cpu-sec/op: no CPU times were measured (they need the testing probe; not for prebuilt binaries or commands)")
	}
	if res, err = compare.Compare(r.Old, r.New, opts); err != nil {
		return nil, "", err
	}
	notes = ParallelNotes(res, r.Skews)
	if unit == "sec/op" && r.CPUTimes() {
		opts.Metric = "cpu-sec/op"
		if cpu, err := compare.Compare(r.Old, r.New, opts); err == nil {
			notes += ParallelCPUNote(res, cpu)
		}
	}
	return res, notes, nil
}

// CPUTimes reports whether the pairs carry the processes' CPU time
// (cpu-sec/op), which only the probe measures.
func (r *ParallelResult) CPUTimes() bool {
	for i := range r.Old.Measurements {
		if _, ok := r.Old.Measurements[i].Get("cpu-sec/op"); ok {
			return true
		}
	}
	return false
}

// RunParallel runs a parallel A/B session: it builds, discovers,
// calibrates and runs the two versions' benchmarks in pairs, storing every
// paired iteration in db as its run of processes ends, and logs progress
// to log (which may be nil). It is NewParallel followed by Run.
//
// When the session started but ended early (ctx cancelled, a benchmark
// failed, the store failed), RunParallel returns both the result, holding
// every pair stored, and the error.
func RunParallel(ctx context.Context, cfg ParallelConfig, db *store.Store, log io.Writer) (*ParallelResult, error) {
	s, err := NewParallel(ctx, cfg, db)
	if err != nil {
		return nil, err
	}
	return s.Run(ctx, log)
}

// NewParallel checks cfg, resolves its revisions and creates the session's
// two runs in db.
func NewParallel(ctx context.Context, cfg ParallelConfig, db *store.Store) (_ *ParallelSession, err error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	s := &ParallelSession{cfg: cfg, db: db, dir: cfg.Dir}
	defer func() {
		if err != nil && ctx.Err() != nil {
			err = fmt.Errorf("interrupted before the session started: %w", err)
		}
	}()
	if s.dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		s.dir = wd
	}
	if len(s.cfg.Packages) == 0 {
		s.cfg.Packages = []string{"./..."}
	}
	var platform run.Platform
	if cfg.Platform != nil {
		platform = *cfg.Platform
	} else {
		platform = run.Detect(ctx, s.dir)
		for _, w := range run.PlatformWarnings(platform) {
			s.warnings = append(s.warnings, errors.New(w))
		}
	}
	s.instance = cmp.Or(cfg.Instance, platform.Host)

	var (
		old, new = &bench.Run{Label: "old"}, &bench.Run{Label: "new"}
	)
	switch {
	case cfg.OldRev != "":
		revs := []*bench.Run{old, new}
		for i, rev := range []string{cfg.OldRev, cfg.NewRev} {
			if i == 1 && cfg.AA {
				break
			}
			r, err := gitrev.Resolve(ctx, s.dir, rev)
			if err != nil {
				return nil, err
			}
			revs[i].Label, revs[i].Commit, revs[i].Dirty = rev, r.Commit, r.Dirty
		}
		if cfg.NewRev == gitrev.WorkingTree && !cfg.AA {
			new.Label = platform.DefaultLabel()
			if new.Label == "" {
				new.Label = "worktree"
			}
		}
	case cfg.OldBin != "":
		// A missing binary is an error before any run is created.
		for _, bin := range []string{cfg.OldBin, cfg.NewBin} {
			if _, err := Prebuilt(cmp.Or(bin, cfg.OldBin)); err != nil {
				return nil, err
			}
		}
		old.Label = filepath.Base(cfg.OldBin)
		new.Label = filepath.Base(cfg.NewBin)
	}
	if cfg.AA {
		new.Label, new.Commit, new.Dirty = old.Label+" (again)", old.Commit, old.Dirty
	}
	if cfg.OldLabel != "" {
		old.Label = cfg.OldLabel
	}
	if cfg.NewLabel != "" {
		new.Label = cfg.NewLabel
	}
	if old.Label == new.Label {
		new.Label += " (new)"
	}

	var id [6]byte
	rand.Read(id[:])
	s.ID = hex.EncodeToString(id[:])
	settings := map[string]string{
		bench.SettingDuet: s.ID, bench.SettingRuns: fmt.Sprint(cfg.Runs), bench.SettingIters: fmt.Sprint(cfg.Iters),
		bench.SettingWarmup: fmt.Sprint(cfg.Warmup), bench.SettingIter: cfg.Iter.String(),
		bench.SettingCPUs: fmt.Sprintf("%d,%d", cfg.CPUs[0], cfg.CPUs[1]), bench.SettingFiller: fmt.Sprint(cfg.Filler),
		bench.SettingSeed: fmt.Sprint(cfg.Seed),
	}
	for i, r := range []*bench.Run{old, new} {
		r.Platform = platform.Bench(s.instance)
		r.Start = time.Now()
		r.Settings = make(map[string]string, len(settings)+1)
		for k, v := range settings {
			r.Settings[k] = v
		}
		r.Settings[bench.SettingDuetSide] = []string{bench.DuetSideOld, bench.DuetSideNew}[i]
		var err error
		if r.ID, err = db.CreateRun(r); err != nil {
			return nil, err
		}
	}
	s.Old, s.New = old, new
	return s, nil
}

// Header describes the session for the head of its report: its id, the
// two versions and their runs, and the plan of runs and CPUs.
func (s *ParallelSession) Header() string {
	c := &s.cfg
	return fmt.Sprintf("duet %s: old %s (run %s), new %s (run %s); %d runs × %d iterations (+%d warm-up), CPUs %d and %d\n\n",
		s.ID, s.Old.Label, s.Old.ID, s.New.Label, s.New.ID, c.Runs, c.Iters, c.Warmup, c.CPUs[0], c.CPUs[1])
}

// Run runs the session once, logging progress to log (which may be nil),
// and marks the two runs complete, interrupted or failed in the store.
// Every pair is stored before Run returns, also when ctx is cancelled;
// the checkouts of revisions are removed then too.
//
// When the session ends early (ctx cancelled, a benchmark failed, the
// store failed), Run returns both the result, holding every pair stored,
// and the error.
func (s *ParallelSession) Run(ctx context.Context, log io.Writer) (*ParallelResult, error) {
	if s.ran {
		return nil, errors.New("ab: a parallel session runs once")
	}
	s.ran = true
	if log == nil {
		log = io.Discard
	}
	var skews []float64
	var err error
	if s.cfg.CmdOld != "" {
		skews, err = s.commands(ctx, log)
	} else {
		skews, err = s.benchmarks(ctx, log)
	}
	status := store.EndStatus(ctx, err)
	for _, id := range []string{s.Old.ID, s.New.ID} {
		if ferr := s.db.Finish(id, time.Now(), status); ferr != nil {
			s.warnings = append(s.warnings, fmt.Errorf("recording the end of run %s: %v", id, ferr))
		}
	}
	res := &ParallelResult{ID: s.ID, Old: s.Old, New: s.New, Pairs: s.stored, Shard: s.Shard, Skews: skews, Status: status, Warnings: s.warnings}
	if s.cfg.CmdOld != "" && s.cfg.MetricRE != nil {
		_, res.Unit = benchunit.Tidy(1, s.cfg.unit())
	}
	return res, err
}

// add stores paired iterations, old[i] with new[i], durably, both sides in
// one transaction: a kill keeps both halves of a pair or neither.
func (s *ParallelSession) add(old, new []bench.Measurement) error {
	if err := s.db.AppendBatches(store.Batch{Run: s.Old.ID, Measurements: old}, store.Batch{Run: s.New.ID, Measurements: new}); err != nil {
		return err
	}
	s.Old.Measurements = append(s.Old.Measurements, old...)
	s.New.Measurements = append(s.New.Measurements, new...)
	s.stored += len(old)
	return nil
}

func (s *ParallelSession) warnf(format string, args ...any) {
	s.warnings = append(s.warnings, fmt.Errorf(format, args...))
}

// commands runs a session of two commands: one benchmark, "Command".
func (s *ParallelSession) commands(ctx context.Context, log io.Writer) ([]float64, error) {
	cfg := &s.cfg
	cmdNew := cfg.CmdNew
	if cfg.AA {
		cmdNew = cfg.CmdOld
	}
	unit, n := cfg.unit(), 1
	key := bench.Key{Package: "command", Name: "Command"}
	// A value is stored in the unit compare reads it in (ns/op as
	// sec/op), and in the unit it was printed in.
	values := func(x float64) []bench.Value {
		v, u := benchunit.Tidy(x, unit)
		if u == unit {
			return []bench.Value{{Value: v, Unit: u}}
		}
		return []bench.Value{{Value: v, Unit: u, OrigUnit: unit, OrigValue: x}}
	}
	rng := mrand.New(mrand.NewPCG(cfg.Seed, 0x63707573))
	var skews []float64
	for r := 1; r <= cfg.Runs; r++ {
		c := cfg.CPUs
		if rng.IntN(2) == 1 {
			c[0], c[1] = c[1], c[0]
		}
		if cfg.Verbose {
			fmt.Fprintf(log, "run %d of %d: old on CPU %d, new on CPU %d\n", r, cfg.Runs, c[0], c[1])
		}
		spec := duet.CommandSpec{
			Old: []string{"sh", "-c", cfg.CmdOld}, New: []string{"sh", "-c", cmdNew},
			Metric: cfg.MetricRE, CPUs: c, Iterations: cfg.Warmup + cfg.Iters, Timeout: cfg.Timeout, Filler: cfg.Filler,
		}
		var storeErr error
		err := duet.RunCommands(ctx, spec, func(p duet.CommandPair) bool {
			phase := bench.Measure
			if p.Iteration < cfg.Warmup {
				phase = bench.Warmup
			}
			coord := bench.Coord{Instance: s.instance, SuiteRun: r, Fork: r, Iteration: p.Iteration, Phase: phase}
			old := bench.Measurement{Key: key, Coord: coord, N: n, Values: values(p.Old)}
			new := bench.Measurement{Key: key, Coord: coord, N: n, Values: values(p.New)}
			if storeErr = s.add([]bench.Measurement{old}, []bench.Measurement{new}); storeErr != nil {
				return false
			}
			if phase == bench.Measure && cfg.MetricRE == nil {
				skews = append(skews, p.Skew.Seconds()/math.Max(p.Old, p.New))
			}
			return true
		})
		if storeErr != nil {
			return skews, fmt.Errorf("storing a pair: %w", storeErr)
		}
		if err != nil {
			return skews, err
		}
	}
	return skews, nil
}

// parallelTarget is one benchmark present in both versions.
type parallelTarget struct {
	old, new run.Target
	n        int
	failed   bool
}

// benchmarks runs the session of the two versions' test binaries.
func (s *ParallelSession) benchmarks(ctx context.Context, log io.Writer) ([]float64, error) {
	cfg := &s.cfg
	oldV, newV, err := s.versions(ctx, run.BuildOptions{Tags: cfg.Tags, GCFlags: cfg.GCFlags, CacheDir: cfg.CacheDir, Log: log})
	defer oldV.Close()
	defer newV.Close()
	if err != nil {
		return nil, err
	}
	probed := oldV.Probed

	// The benchmarks of both versions, discovered as they will run:
	// pinned to one CPU.
	discover := func(bins []run.Binary, cpu int) (map[bench.Key]run.Target, []bench.Key, error) {
		byKey := map[bench.Key]run.Target{}
		var keys []bench.Key
		for i := range bins {
			ts, err := run.Discover(ctx, &bins[i], cfg.Bench, nil, []int{cpu}, cfg.Timeout)
			if err != nil {
				return nil, nil, err
			}
			for _, t := range ts {
				byKey[t.Key] = t
				keys = append(keys, t.Key)
			}
		}
		return byKey, keys, nil
	}
	olds, oldKeys, err := discover(oldV.Binaries, cfg.CPUs[0])
	if err != nil {
		return nil, err
	}
	news, _, err := discover(newV.Binaries, cfg.CPUs[1])
	if err != nil {
		return nil, err
	}
	var targets []*parallelTarget
	var onlyOld, onlyNew []string
	for _, k := range oldKeys {
		if nt, ok := news[k]; ok {
			targets = append(targets, &parallelTarget{old: olds[k], new: nt})
		} else {
			onlyOld = append(onlyOld, k.String())
		}
	}
	for k := range news {
		if _, ok := olds[k]; !ok {
			onlyNew = append(onlyNew, k.String())
		}
	}
	slices.Sort(onlyNew)
	if len(onlyOld)+len(onlyNew) > 0 {
		s.warnf("benchmarks in one version only are not compared: old only %v, new only %v", onlyOld, onlyNew)
	}
	if len(targets) == 0 {
		return nil, fmt.Errorf("no benchmark matching %q is in both versions", cfg.Bench)
	}
	if targets, err = s.shard(targets, log); err != nil {
		return nil, err
	}
	if err := s.calibrateFor(ctx, targets); err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "%d benchmarks in both versions; %d runs each\n", len(targets), cfg.Runs)

	rng := mrand.New(mrand.NewPCG(cfg.Seed, 0x64756574))
	var skews []float64
	start := time.Now()
	for r := 1; r <= cfg.Runs; r++ {
		order := rng.Perm(len(targets))
		for k, ti := range order {
			t := targets[ti]
			if t.failed {
				continue
			}
			if ctx.Err() != nil {
				return skews, ctx.Err()
			}
			if t.n == 0 {
				n, _, err := run.CalibrateWarm(ctx, &t.old, cfg.Iter, false, cfg.Timeout)
				if err != nil {
					t.failed = true
					s.warnf("%s: calibration failed: %v", t.old.Key, err)
					continue
				}
				t.n = n
			}
			c := cfg.CPUs
			if rng.IntN(2) == 1 {
				c[0], c[1] = c[1], c[0]
			}
			if cfg.Verbose {
				fmt.Fprintf(log, "run %d/%d, %d/%d %s: N=%d, old on CPU %d, new on CPU %d, %v elapsed\n",
					r, cfg.Runs, k+1, len(order), t.old.Key, t.n, c[0], c[1], time.Since(start).Round(time.Second))
			}
			spec := duet.PairSpec{
				Old: duet.Side{Binary: *t.old.Binary, CPU: c[0]}, New: duet.Side{Binary: *t.new.Binary, CPU: c[1]},
				Pattern: t.old.Pattern, N: t.n, Count: cfg.Warmup + cfg.Iters, Procs: t.old.Procs,
				Benchmem: cfg.Benchmem, NoFiller: !cfg.Filler, Timeout: cfg.Timeout,
			}
			// Pairs are stored when the run ends, not as they arrive:
			// this process shares the two CPUs with the sides, and a
			// durable write during an iteration would slow one side.
			var pairs []duet.Pair
			collect := func(p duet.Pair) bool {
				pairs = append(pairs, p)
				return true
			}
			var runErr error
			if probed {
				_, runErr = duet.RunPair(ctx, spec, collect)
			} else {
				_, runErr = duet.RunFree(ctx, spec, collect)
			}
			// The run's pairs are stored in one transaction: a kill
			// keeps every run of processes that ended, whole.
			olds, news := make([]bench.Measurement, len(pairs)), make([]bench.Measurement, len(pairs))
			for i, p := range pairs {
				phase := bench.Measure
				if i < cfg.Warmup {
					phase = bench.Warmup
				}
				coord := bench.Coord{Instance: s.instance, SuiteRun: r, Fork: r, Iteration: i, Phase: phase}
				olds[i] = iterationMeasurement(t.old.Key, coord, p.Old, cfg.Benchmem)
				news[i] = iterationMeasurement(t.old.Key, coord, p.New, cfg.Benchmem)
				if phase == bench.Measure {
					if it := (p.Old.Duration + p.New.Duration) / 2; it > 0 {
						skews = append(skews, p.Skew().Seconds()/it.Seconds())
					}
				}
			}
			if err := s.add(olds, news); err != nil {
				return skews, fmt.Errorf("storing a run's pairs: %w", err)
			}
			switch {
			case ctx.Err() != nil:
				return skews, ctx.Err()
			case runErr != nil:
				t.failed = true
				s.warnf("%s failed in run %d; it is left out of later runs: %v", t.old.Key, r, runErr)
			}
		}
	}
	failed := 0
	for _, t := range targets {
		if t.failed {
			failed++
		}
	}
	if failed > 0 {
		return skews, fmt.Errorf("%d of %d benchmarks failed", failed, len(targets))
	}
	return skews, nil
}

// calibrateFor calibrates every target before the first run when the
// session's metric is a unit of the benchmarks' own (b.ReportMetric), and
// fails, naming the units they do report, when none reports it: a session
// of minutes must not end in an unknown metric. Other units are checked by
// CheckMetric; their targets are calibrated as their first run comes.
func (s *ParallelSession) calibrateFor(ctx context.Context, targets []*parallelTarget) error {
	cfg := &s.cfg
	_, unit := benchunit.Tidy(1, cfg.Metric)
	switch unit {
	case "", "sec/op", "cpu-sec/op", "B/op", "allocs/op":
		return nil
	}
	seen := map[string]bool{}
	for _, t := range targets {
		n, m, err := run.CalibrateWarm(ctx, &t.old, cfg.Iter, cfg.Benchmem, cfg.Timeout)
		if err != nil {
			return fmt.Errorf("%s: calibration failed: %v", t.old.Key, err)
		}
		t.n = n
		for _, v := range m.Values {
			seen[v.Unit] = true
		}
	}
	if !seen[unit] {
		return fmt.Errorf("%s: no benchmark reports it; they report %v", cfg.Metric, slices.Sorted(maps.Keys(seen)))
	}
	return nil
}

// iterationMeasurement is one side's iteration of a duet or of a round in
// turns as a stored measurement, with the values its result line has
// (sec/op, B/s from b.SetBytes, B/op and allocs/op with benchmem,
// b.ReportMetric's, which replace the computed ones of the same unit) and,
// from the probe, cpu-sec/op.
func iterationMeasurement(key bench.Key, coord bench.Coord, it duet.Iteration, benchmem bool) bench.Measurement {
	n := max(it.N, 1)
	m := bench.Measurement{Key: key, Coord: coord, N: it.N, Start: it.Start, End: it.End}
	put := func(v bench.Value) {
		for i := range m.Values {
			if m.Values[i].Unit == v.Unit {
				m.Values[i] = v
				return
			}
		}
		m.Values = append(m.Values, v)
	}
	put(bench.Value{Value: it.Duration.Seconds() / float64(n), Unit: "sec/op", OrigUnit: "ns/op", OrigValue: float64(it.Duration.Nanoseconds()) / float64(n)})
	if it.CPU > 0 {
		put(bench.Value{Value: it.CPU.Seconds() / float64(n), Unit: "cpu-sec/op",
			OrigUnit: "cpu-ns/op", OrigValue: float64(it.CPU.Nanoseconds()) / float64(n)})
	}
	if it.Bytes > 0 && it.Duration > 0 {
		mbs := float64(it.Bytes) * float64(n) / 1e6 / it.Duration.Seconds()
		v, unit := benchunit.Tidy(mbs, "MB/s")
		put(bench.Value{Value: v, Unit: unit, OrigUnit: "MB/s", OrigValue: mbs})
	}
	if benchmem {
		// Whole numbers, as the testing package divides them
		// (BenchmarkResult.AllocedBytesPerOp): the few bytes the runtime
		// allocates now and then during a long run are not an allocation
		// of the benchmark's.
		put(bench.Value{Value: float64(it.MemBytes / uint64(n)), Unit: "B/op"})
		put(bench.Value{Value: float64(it.MemAllocs / uint64(n)), Unit: "allocs/op"})
	}
	units := slices.Sorted(maps.Keys(it.Extra))
	for _, u := range units {
		v, unit := benchunit.Tidy(it.Extra[u], u)
		put(bench.Value{Value: v, Unit: unit, OrigUnit: u, OrigValue: it.Extra[u]})
	}
	return m
}

// ParallelNotes returns what only a parallel session knows, for the end of
// the text report: the start skew of paired iterations, and how much
// narrower the pairing made the intervals of res than the same data
// shuffled. It starts with an empty line.
func ParallelNotes(res *compare.Result, skews []float64) string {
	var b strings.Builder
	b.WriteString("\n")
	if len(skews) > 0 {
		fmt.Fprintf(&b, "start skew of paired iterations: median %.3f%%, max %.3f%% of the iteration (%d pairs)\n",
			100*stats.Median(skews), 100*slices.Max(skews), len(skews))
	}
	var gains []float64
	for _, row := range res.Rows {
		if w, p := row.Shuffled.RelWidth(), row.Ratio.RelWidth(); w > 0 && p > 0 {
			gains = append(gains, w/p)
		}
	}
	if len(gains) > 0 {
		fmt.Fprintf(&b, "pairing: with the pairs shuffled, intervals are %.1f× as wide (median over %d benchmarks; range %.1f–%.1f)\n",
			stats.Median(gains), len(gains), slices.Min(gains), slices.Max(gains))
	}
	if len(res.Rows) > 0 && res.Rows[0].Key.Name != "Command" {
		// Each side is pinned to one CPU, so the benchmarks ran at
		// GOMAXPROCS 1, where the garbage collector and the benchmark share
		// one CPU: the time per op, and so the size of a change, can differ
		// from what the same benchmark shows at the user's GOMAXPROCS.
		fmt.Fprintf(&b, "figures at GOMAXPROCS 1 (each side pinned to one CPU); mbench ab measures at this machine's GOMAXPROCS (%d)\n", runtime.GOMAXPROCS(0))
	}
	return b.String()
}

// ParallelCPUNote compares the wall-time intervals of a parallel session
// with those of the processes' CPU time, and returns a note when the
// wall-time ones are much wider, "" otherwise. Another process that takes
// one side's CPU for a while slows that side only, which pairing cannot
// cancel; CPU time does not count it.
func ParallelCPUNote(wall, cpu *compare.Result) string {
	widths := map[bench.Key]float64{}
	for _, row := range cpu.Rows {
		widths[row.Key] = row.Ratio.RelWidth()
	}
	var ratios []float64
	for _, row := range wall.Rows {
		if c, ok := widths[row.Key]; ok && c > 0 && row.Ratio.RelWidth() > 0 {
			ratios = append(ratios, row.Ratio.RelWidth()/c)
		}
	}
	if len(ratios) == 0 {
		return ""
	}
	if r := stats.Median(ratios); r >= 2 {
		return fmt.Sprintf("CPU time: wall-time intervals are %.1f× wider than the processes' CPU-time ones (median over %d benchmarks):\n"+
			"other work took the CPUs from one side at a time; -metric cpu-sec/op compares without it\n", r, len(ratios))
	}
	return ""
}
