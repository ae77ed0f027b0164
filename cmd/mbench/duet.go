package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"math"
	mrand "math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/compare"
	"github.com/mbench/mbench/duet"
	"github.com/mbench/mbench/run"
	"github.com/mbench/mbench/stats"
	"github.com/mbench/mbench/store"
	"golang.org/x/perf/benchunit"
)

func init() {
	commands = append(commands, &command{
		name:      "duet",
		usageLine: "[flags] [packages]",
		short:     "compare two versions by running them side by side",
		long: `
Duet compares two versions of the benchmarks by running them at the same
time, each pinned to its own CPU, with every measured iteration of both
started together, and analyses the ratio of each pair of iterations
(duet benchmarking, Bulej et al., ICPE 2020). Interference from the rest of
the machine hits both versions at once and cancels in the ratio, so the
result needs far fewer repetitions than two runs one after the other.

The versions are git revisions (-old, -new; -new . is the working tree,
the default), built in scratch worktrees so the working tree is never
touched; or two prebuilt test binaries (-old-bin, -new-bin); or two
commands (-cmd-old, -cmd-new), where one run of a command is one
iteration, measured by its wall time or by a number its output prints
(-metric-re). -aa runs the old version against itself: the control that
shows what "no change" looks like on this machine.

Each benchmark runs in -runs runs (a fresh pair of processes each, the
CPUs of old and new swapped at random per run, benchmarks in random order
within each round of runs) of -warmup discarded and -iters measured paired
iterations, every iteration doing the same number of operations on both
sides (calibrated to about -iter). Test binaries are built with a probe in
the testing package that holds each timed iteration at a barrier until the
other side is ready and keeps the faster side running its benchmark,
untimed, until the slower one finishes; prebuilt binaries cannot carry the
probe and run free, paired by iteration index, with a warning.

The report is that of 'mbench compare': per benchmark the ratio new/old as
the grand geometric mean of per-run geometric means of paired ratios, its
confidence interval (percentile bootstrap over runs, widened for few runs),
and a verdict. Pairs or runs slowed on one side only (a disturbed CPU) are
left out by a documented rule (see the duet package). The text report adds
what the pairing bought: the interval the same data give with the pairing
shuffled. Every pair is stored as it finishes, as two runs in the result
database (labels of the two versions), which 'mbench compare' analyses as
a duet.

Exit status is 0, 1 on error or interrupt, 3 with -fail when a benchmark
got slower.
`,
		setFlags: setDuetFlags,
	})
}

type duetFlags struct {
	oldRev, newRev      string
	oldBin, newBin      string
	cmdOld, cmdNew      string
	metricRE, unit      string
	aa                  bool
	bench               string
	runs, iters, warmup int
	iter, timeout       time.Duration
	cpus                string
	filler              bool
	tags, gcflags       string
	benchmem            bool
	db, format          string
	fail                bool
	opts                compare.Options
	verbose             bool
	oldLabel, newLabel  string
	probe               bool
}

func setDuetFlags(fs *flag.FlagSet) func(*env, []string) error {
	f := &duetFlags{opts: compare.DefaultOptions}
	fs.StringVar(&f.oldRev, "old", "", "old version: a git `revision`")
	fs.StringVar(&f.newRev, "new", ".", "new version: a git `revision`; . is the working tree")
	fs.StringVar(&f.oldBin, "old-bin", "", "old version: a prebuilt test `binary`")
	fs.StringVar(&f.newBin, "new-bin", "", "new version: a prebuilt test `binary`")
	fs.StringVar(&f.cmdOld, "cmd-old", "", "old version: a `command` (run by sh -c); one run is one iteration")
	fs.StringVar(&f.cmdNew, "cmd-new", "", "new version: a `command` (run by sh -c)")
	fs.StringVar(&f.metricRE, "metric-re", "", "with -cmd-*, take each iteration's value from the output: the first submatch of `regexp` (default: wall time)")
	fs.StringVar(&f.unit, "unit", "", "with -metric-re, the `unit` of the value, e.g. ops/s (default \"value\")")
	fs.BoolVar(&f.aa, "aa", false, "run the old version against itself (A/A control)")
	fs.StringVar(&f.bench, "bench", ".", "run only benchmarks matching `regexp`")
	fs.IntVar(&f.runs, "runs", 10, "`runs` (pairs of processes) per benchmark")
	fs.IntVar(&f.iters, "iters", 10, "measured paired `iterations` per run")
	fs.IntVar(&f.warmup, "warmup", 1, "discarded paired `iterations` at the start of each run")
	fs.DurationVar(&f.iter, "iter", 50*time.Millisecond, "target `duration` of one iteration")
	fs.DurationVar(&f.timeout, "timeout", 10*time.Minute, "end a run that takes longer than `duration`")
	fs.StringVar(&f.cpus, "cpus", "0,1", "the two `cpus` to run on")
	fs.BoolVar(&f.filler, "filler", true, "keep the side that finishes an iteration first busy until the other finishes")
	fs.BoolVar(&f.probe, "probe", true, "build with the testing-package probe (barrier and filler); false runs free")
	fs.StringVar(&f.tags, "tags", "", "build `tags` for go test -c")
	fs.StringVar(&f.gcflags, "gcflags", "", "`flags` for go test -c -gcflags")
	fs.BoolVar(&f.benchmem, "benchmem", false, "also record B/op and allocs/op")
	fs.StringVar(&f.db, "db", defaultDB, "result database `path`")
	fs.StringVar(&f.oldLabel, "old-label", "", "`label` of the old side's stored run (default: the revision)")
	fs.StringVar(&f.newLabel, "new-label", "", "`label` of the new side's stored run (default: the revision)")
	fs.StringVar(&f.format, "format", "text", "output `format`: text, markdown, json or csv")
	fs.BoolVar(&f.fail, "fail", false, "exit with status 3 when a benchmark got slower")
	fs.StringVar(&f.opts.Metric, "metric", f.opts.Metric, "compare `unit`: sec/op (wall time), cpu-sec/op (the process's CPU time; with the probe), B/op or allocs/op (with -benchmem)")
	fs.Float64Var(&f.opts.Alpha, "alpha", f.opts.Alpha, "one minus the confidence `level` of the interval")
	fs.Float64Var(&f.opts.Threshold, "threshold", f.opts.Threshold, "smallest relative change that matters, as a `fraction` (not for allocs/op)")
	fs.IntVar(&f.opts.Replicates, "reps", f.opts.Replicates, "bootstrap `replicates`")
	fs.Uint64Var(&f.opts.Seed, "seed", f.opts.Seed, "random `seed` of the order, the CPU assignment and the bootstrap")
	fs.BoolVar(&f.verbose, "v", false, "print each run as it starts")
	return func(e *env, args []string) error { return duetCmd(e, f, args) }
}

// duetSession is a duet in progress: where its pairs go.
type duetSession struct {
	e        *env
	db       *store.Store
	ids      [2]string
	runs     [2]*bench.Run
	instance string
	stored   int
}

// add stores one paired iteration durably, old side first.
func (s *duetSession) add(old, new bench.Measurement) error {
	for i, m := range []bench.Measurement{old, new} {
		if err := s.db.Append(s.ids[i], m); err != nil {
			return err
		}
		s.runs[i].Measurements = append(s.runs[i].Measurements, m)
	}
	s.stored++
	return nil
}

func duetCmd(e *env, f *duetFlags, args []string) error {
	modes := 0
	for _, set := range []bool{f.oldRev != "", f.oldBin != "" || f.newBin != "", f.cmdOld != "" || f.cmdNew != ""} {
		if set {
			modes++
		}
	}
	// The analysis flags are checked before anything runs, not by
	// compare.Compare after the duet.
	if err := checkCompareFlags(f.opts); err != nil {
		return err
	}
	switch {
	case modes != 1:
		return usagef("give the old version once: -old REV, -old-bin FILE (with -new-bin), or -cmd-old CMD (with -cmd-new)")
	case f.oldBin != "" && f.newBin == "" && !f.aa, f.cmdOld != "" && f.cmdNew == "" && !f.aa:
		return usagef("the new version is missing: give -new-bin or -cmd-new, or -aa")
	case f.runs < 2:
		return usagef("-runs %d: want at least 2 (the interval is over runs)", f.runs)
	case f.iters < 1 || f.warmup < 0:
		return usagef("-iters %d -warmup %d: want at least one measured iteration and no negative warm-up", f.iters, f.warmup)
	case f.iter <= 0:
		return usagef("-iter %v: want a positive duration", f.iter)
	case !slices.Contains(compare.Formats, compare.Format(f.format)):
		return usagef("-format %q: want one of %v", f.format, compare.Formats)
	case f.metricRE != "" && f.cmdOld == "":
		return usagef("-metric-re applies to -cmd-old and -cmd-new")
	}
	cpus, err := run.ParseCPUList(f.cpus)
	if err != nil || len(cpus) != 2 || cpus[0] == cpus[1] {
		return usagef("-cpus %q: want two different CPUs, e.g. 0,1", f.cpus)
	}
	var metric *regexp.Regexp
	if f.metricRE != "" {
		if metric, err = regexp.Compile(f.metricRE); err != nil {
			return usagef("-metric-re: %v", err)
		}
		if metric.NumSubexp() < 1 {
			return usagef("-metric-re %q: want a submatch around the number, e.g. 'score: ([0-9.]+)'", f.metricRE)
		}
	}

	ctx, stopSignals := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stopSignals()
	wd, _ := os.Getwd()
	platform := e.platform(ctx, wd)

	// Labels of the two sides.
	oldLabel, newLabel := "old", "new"
	switch {
	case f.oldRev != "":
		oldLabel, newLabel = f.oldRev, f.newRev
		if newLabel == "." {
			newLabel = platform.DefaultLabel()
			if newLabel == "" {
				newLabel = "worktree"
			}
		}
	case f.oldBin != "":
		oldLabel, newLabel = filepath.Base(f.oldBin), filepath.Base(f.newBin)
	}
	if f.aa {
		newLabel = oldLabel + " (again)"
	}
	if f.oldLabel != "" {
		oldLabel = f.oldLabel
	}
	if f.newLabel != "" {
		newLabel = f.newLabel
	}
	if oldLabel == newLabel {
		newLabel += " (new)"
	}

	db, err := openDB(f.db)
	if err != nil {
		return err
	}
	defer db.Close()
	var idBytes [6]byte
	rand.Read(idBytes[:])
	duetID := hex.EncodeToString(idBytes[:])
	sess := &duetSession{e: e, db: db, instance: platform.Host}
	settings := map[string]string{
		"duet": duetID, "runs": fmt.Sprint(f.runs), "iters": fmt.Sprint(f.iters), "warmup": fmt.Sprint(f.warmup),
		"iter": f.iter.String(), "cpus": f.cpus, "filler": fmt.Sprint(f.filler), "seed": fmt.Sprint(f.opts.Seed),
	}
	for i, label := range []string{oldLabel, newLabel} {
		meta := &bench.Run{
			Label: label, Toolchain: platform.Go, GOOS: platform.OS, GOARCH: platform.Arch, Host: platform.Host,
			CPU: platform.CPU, Start: time.Now(), Settings: mergeSettings(settings, map[string]string{"duet-side": []string{"old", "new"}[i]}),
		}
		id, err := db.CreateRun(meta)
		if err != nil {
			return err
		}
		sess.ids[i], sess.runs[i] = id, meta
	}
	// The header is part of the text report; a machine format on stdout
	// stays pure, so it goes to stderr then.
	head := e.stdout
	if f.format != string(compare.Text) {
		head = e.stderr
	}
	fmt.Fprint(head, platform.Header())
	fmt.Fprintf(head, "duet %s: old %s (run %s), new %s (run %s); %d runs × %d iterations (+%d warm-up), CPUs %d and %d\n\n",
		duetID, oldLabel, sess.ids[0], newLabel, sess.ids[1], f.runs, f.iters, f.warmup, cpus[0], cpus[1])

	var skews []float64 // start skew of each measured pair, as a fraction of its iteration
	var runErr error
	if f.cmdOld != "" {
		skews, runErr = duetCommands(ctx, e, f, sess, [2]int{cpus[0], cpus[1]}, metric)
	} else {
		skews, runErr = duetBenchmarks(ctx, e, f, wd, args, sess, [2]int{cpus[0], cpus[1]})
	}
	status := "complete"
	switch {
	case ctx.Err() != nil:
		status = "interrupted"
	case runErr != nil:
		status = "failed"
	}
	for i := range 2 {
		if err := db.Finish(sess.ids[i], time.Now(), status); err != nil {
			e.warnf("recording the end of run %s: %v", sess.ids[i], err)
		}
	}
	fmt.Fprintf(e.stderr, "mbench: %d paired iterations stored in %s as runs %s (old) and %s (new)\n", sess.stored, f.db, sess.ids[0], sess.ids[1])
	if sess.stored == 0 {
		if runErr != nil {
			return runErr
		}
		return errors.New("no paired iteration was measured")
	}

	opts := f.opts
	if f.cmdOld != "" && metric != nil {
		opts.Metric = unitOr(f.unit)
	}
	if _, u := benchunit.Tidy(1, opts.Metric); u == "cpu-sec/op" && !probedAny(sess.runs[0]) {
		return fmt.Errorf("-metric cpu-sec/op: no CPU times were measured (they need the testing probe; not for prebuilt binaries or commands)")
	}
	res, err := compare.Compare(sess.runs[0], sess.runs[1], opts)
	if err != nil {
		return err
	}
	if err := res.Write(e.stdout, compare.Format(f.format)); err != nil {
		return err
	}
	// The duet's own findings follow the text report; with a machine
	// format on stdout they go to stderr.
	notes := e
	if f.format != string(compare.Text) {
		notes = &env{stdout: e.stderr, stderr: e.stderr}
	}
	writeDuetNotes(notes, res, skews)
	if _, u := benchunit.Tidy(1, opts.Metric); u == "sec/op" && probedAny(sess.runs[0]) {
		co := opts
		co.Metric = "cpu-sec/op"
		if cres, err := compare.Compare(sess.runs[0], sess.runs[1], co); err == nil {
			writeCPUNote(notes, res, cres)
		}
	}
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("interrupted; every finished pair is kept in runs %s and %s", sess.ids[0], sess.ids[1])
	case runErr != nil:
		return runErr
	}
	if f.fail {
		if regs := res.Regressions(); len(regs) > 0 {
			return regressionErrorOf(regs)
		}
	}
	return nil
}

func unitOr(u string) string {
	if u == "" {
		return "value"
	}
	return u
}

// mergeSettings returns the union of a and b, b winning.
func mergeSettings(a, b map[string]string) map[string]string {
	out := make(map[string]string, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// writeDuetNotes adds what only a duet knows to the text report: the
// start skew of paired iterations, and how much narrower the pairing made
// the intervals than the same data shuffled.
func writeDuetNotes(e *env, res *compare.Result, skews []float64) {
	fmt.Fprintln(e.stdout)
	if len(skews) > 0 {
		fmt.Fprintf(e.stdout, "start skew of paired iterations: median %.3f%%, max %.3f%% of the iteration (%d pairs)\n",
			100*stats.Median(skews), 100*slices.Max(skews), len(skews))
	}
	var gains []float64
	for _, row := range res.Rows {
		if w, p := row.Shuffled.RelWidth(), row.Ratio.RelWidth(); w > 0 && p > 0 {
			gains = append(gains, w/p)
		}
	}
	if len(gains) > 0 {
		fmt.Fprintf(e.stdout, "pairing: with the pairs shuffled, intervals are %.1f× as wide (median over %d benchmarks; range %.1f–%.1f)\n",
			stats.Median(gains), len(gains), slices.Min(gains), slices.Max(gains))
	}
}

// duetCommands runs a duet of two commands: one benchmark, "Command".
func duetCommands(ctx context.Context, e *env, f *duetFlags, sess *duetSession, cpus [2]int, metric *regexp.Regexp) ([]float64, error) {
	cmdNew := f.cmdNew
	if f.aa {
		cmdNew = f.cmdOld
	}
	unit, n := "sec/op", 1
	if metric != nil {
		unit = unitOr(f.unit)
	}
	key := bench.Key{Package: "command", Name: "Command"}
	rng := mrand.New(mrand.NewPCG(f.opts.Seed, 0x63707573))
	var skews []float64
	for r := 1; r <= f.runs; r++ {
		c := cpus
		if rng.IntN(2) == 1 {
			c[0], c[1] = c[1], c[0]
		}
		if f.verbose {
			fmt.Fprintf(e.stderr, "mbench: run %d of %d: old on CPU %d, new on CPU %d\n", r, f.runs, c[0], c[1])
		}
		spec := duet.CommandSpec{
			Old: []string{"sh", "-c", f.cmdOld}, New: []string{"sh", "-c", cmdNew},
			Metric: metric, CPUs: c, Iterations: f.warmup + f.iters, Timeout: f.timeout, Filler: f.filler,
		}
		var storeErr error
		err := duet.RunCommands(ctx, spec, func(p duet.CommandPair) bool {
			phase := bench.Measure
			if p.Iteration < f.warmup {
				phase = bench.Warmup
			}
			coord := bench.Coord{Instance: sess.instance, SuiteRun: r, Fork: r, Iteration: p.Iteration, Phase: phase}
			old := bench.Measurement{Key: key, Coord: coord, N: n, Values: []bench.Value{{Value: p.Old, Unit: unit}}}
			new := bench.Measurement{Key: key, Coord: coord, N: n, Values: []bench.Value{{Value: p.New, Unit: unit}}}
			if storeErr = sess.add(old, new); storeErr != nil {
				return false
			}
			if phase == bench.Measure && metric == nil {
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

// checkout makes rev of the repository containing dir available as a
// directory and returns the directory that corresponds to dir in it, and a
// function that removes the checkout. Revision "." is dir itself.
func checkout(ctx context.Context, dir, rev, scratch string) (string, func(), error) {
	if rev == "." {
		return dir, func() {}, nil
	}
	top, err := gitOut(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", nil, fmt.Errorf("-old/-new need a git repository: %v", err)
	}
	if _, err := gitOut(ctx, dir, "rev-parse", "--verify", "--quiet", rev+"^{commit}"); err != nil {
		return "", nil, fmt.Errorf("git revision %q: not found in %s", rev, top)
	}
	rel, err := filepath.Rel(top, dir)
	if err != nil {
		return "", nil, err
	}
	wt, err := os.MkdirTemp(scratch, "rev-")
	if err != nil {
		return "", nil, err
	}
	if _, err := gitOut(ctx, top, "worktree", "add", "--detach", "--force", wt, rev); err != nil {
		os.RemoveAll(wt)
		return "", nil, fmt.Errorf("checking out %s: %v", rev, err)
	}
	cleanup := func() {
		gitOut(context.Background(), top, "worktree", "remove", "--force", wt)
		os.RemoveAll(wt)
	}
	return filepath.Join(wt, rel), cleanup, nil
}

func gitOut(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && len(ee.Stderr) > 0 {
			return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), strings.TrimSpace(string(ee.Stderr)))
		}
		return "", fmt.Errorf("git %s: %v", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}

// duetTarget is one benchmark present in both versions.
type duetTarget struct {
	old, new run.Target
	n        int
	failed   bool
}

// duetBenchmarks runs the duet of the two versions' test binaries.
func duetBenchmarks(ctx context.Context, e *env, f *duetFlags, wd string, args []string, sess *duetSession, cpus [2]int) ([]float64, error) {
	patterns := args
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	probed := f.probe
	var oldBins, newBins []run.Binary
	if f.oldBin != "" {
		var err error
		if oldBins, err = prebuilt(f.oldBin); err != nil {
			return nil, err
		}
		newBins = oldBins
		if !f.aa {
			if newBins, err = prebuilt(f.newBin); err != nil {
				return nil, err
			}
		}
		if probed {
			e.warnf("prebuilt test binaries carry no probe: the two sides run free, paired by iteration index, without a barrier or filler")
		}
		probed = false
	} else {
		scratch, err := os.MkdirTemp("", "mbench-duet-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(scratch)
		build := func(rev string) ([]run.Binary, func(), error) {
			dir, cleanup, err := checkout(ctx, wd, rev, scratch)
			if err != nil {
				return nil, nil, err
			}
			opts := run.BuildOptions{Dir: dir, Tags: f.tags, GCFlags: f.gcflags, Log: prefixWriter{e.stderr}}
			if probed {
				bins, err := duet.Build(ctx, opts, patterns)
				if !errors.Is(err, duet.ErrNoProbe) {
					return bins, cleanup, err
				}
				e.warnf("%v\nthe two sides run free, paired by iteration index, without a barrier or filler", err)
				probed = false
			}
			bins, err := run.Build(ctx, opts, patterns)
			return bins, cleanup, err
		}
		var cleanup func()
		oldBins, cleanup, err = build(f.oldRev)
		if cleanup != nil {
			defer cleanup()
		}
		if err != nil {
			return nil, err
		}
		newBins = oldBins
		if !f.aa {
			newBins, cleanup, err = build(f.newRev)
			if cleanup != nil {
				defer cleanup()
			}
			if err != nil {
				return nil, err
			}
		}
	}

	// The benchmarks of both versions, discovered as they will run:
	// pinned to one CPU.
	discover := func(bins []run.Binary, cpu int) (map[bench.Key]run.Target, []bench.Key, error) {
		byKey := map[bench.Key]run.Target{}
		var keys []bench.Key
		for i := range bins {
			ts, err := run.Discover(ctx, &bins[i], f.bench, nil, []int{cpu}, f.timeout)
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
	olds, oldKeys, err := discover(oldBins, cpus[0])
	if err != nil {
		return nil, err
	}
	news, _, err := discover(newBins, cpus[1])
	if err != nil {
		return nil, err
	}
	var targets []*duetTarget
	var onlyOld, onlyNew []string
	for _, k := range oldKeys {
		if nt, ok := news[k]; ok {
			targets = append(targets, &duetTarget{old: olds[k], new: nt})
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
		e.warnf("benchmarks in one version only are not compared: old only %v, new only %v", onlyOld, onlyNew)
	}
	if len(targets) == 0 {
		return nil, fmt.Errorf("no benchmark matching -bench %q is in both versions", f.bench)
	}
	fmt.Fprintf(e.stderr, "mbench: %d benchmarks in both versions; %d runs each\n", len(targets), f.runs)

	rng := mrand.New(mrand.NewPCG(f.opts.Seed, 0x64756574))
	var skews []float64
	start := time.Now()
	for r := 1; r <= f.runs; r++ {
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
				n, _, err := run.Calibrate(ctx, &t.old, f.iter, false, f.timeout)
				if err != nil {
					t.failed = true
					e.warnf("%s: calibration failed: %v", t.old.Key, err)
					continue
				}
				t.n = n
			}
			c := cpus
			if rng.IntN(2) == 1 {
				c[0], c[1] = c[1], c[0]
			}
			if f.verbose {
				fmt.Fprintf(e.stderr, "mbench: run %d/%d, %d/%d %s: N=%d, old on CPU %d, new on CPU %d, %v elapsed\n",
					r, f.runs, k+1, len(order), t.old.Key, t.n, c[0], c[1], time.Since(start).Round(time.Second))
			}
			spec := duet.PairSpec{
				Old: duet.Side{Binary: *t.old.Binary, CPU: c[0]}, New: duet.Side{Binary: *t.new.Binary, CPU: c[1]},
				Pattern: t.old.Pattern, N: t.n, Count: f.warmup + f.iters, Procs: t.old.Procs,
				Benchmem: f.benchmem, NoFiller: !f.filler, Timeout: f.timeout,
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
			for i, p := range pairs {
				phase := bench.Measure
				if i < f.warmup {
					phase = bench.Warmup
				}
				coord := bench.Coord{Instance: sess.instance, SuiteRun: r, Fork: r, Iteration: i, Phase: phase}
				if err := sess.add(duetMeasurement(t.old.Key, coord, p.Old, f.benchmem), duetMeasurement(t.old.Key, coord, p.New, f.benchmem)); err != nil {
					return skews, fmt.Errorf("storing a pair: %w", err)
				}
				if phase == bench.Measure {
					if it := (p.Old.Duration + p.New.Duration) / 2; it > 0 {
						skews = append(skews, p.Skew().Seconds()/it.Seconds())
					}
				}
			}
			switch {
			case ctx.Err() != nil:
				return skews, ctx.Err()
			case runErr != nil:
				t.failed = true
				e.warnf("%s failed in run %d; it is left out of later runs: %v", t.old.Key, r, runErr)
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

// duetMeasurement is one side's iteration as a stored measurement.
func duetMeasurement(key bench.Key, coord bench.Coord, it duet.Iteration, benchmem bool) bench.Measurement {
	n := max(it.N, 1)
	m := bench.Measurement{Key: key, Coord: coord, N: it.N, Start: it.Start, End: it.End,
		Values: []bench.Value{{Value: it.Duration.Seconds() / float64(n), Unit: "sec/op", OrigUnit: "ns/op", OrigValue: float64(it.Duration.Nanoseconds()) / float64(n)}}}
	if it.CPU > 0 {
		m.Values = append(m.Values, bench.Value{Value: it.CPU.Seconds() / float64(n), Unit: "cpu-sec/op",
			OrigUnit: "cpu-ns/op", OrigValue: float64(it.CPU.Nanoseconds()) / float64(n)})
	}
	if benchmem {
		m.Values = append(m.Values,
			bench.Value{Value: float64(it.MemBytes) / float64(n), Unit: "B/op"},
			bench.Value{Value: float64(it.MemAllocs) / float64(n), Unit: "allocs/op"})
	}
	return m
}

// prebuilt is a prebuilt test binary given as a flag.
func prebuilt(path string) ([]run.Binary, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(abs); err != nil || st.IsDir() {
		return nil, fmt.Errorf("test binary %s: not a file", path)
	}
	return []run.Binary{{Path: abs, Dir: filepath.Dir(abs)}}, nil
}

// probedAny reports whether r holds a CPU time per op, which only the probe
// measures.
func probedAny(r *bench.Run) bool {
	for i := range r.Measurements {
		if _, ok := r.Measurements[i].Get("cpu-sec/op"); ok {
			return true
		}
	}
	return false
}

// writeCPUNote compares the wall-time intervals with those of the
// processes' CPU time. Another process that takes one side's CPU for a
// while slows that side only, which pairing cannot cancel; CPU time does not
// count it. When the wall-time intervals are much wider, the note says so.
func writeCPUNote(e *env, wall, cpu *compare.Result) {
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
		return
	}
	if r := stats.Median(ratios); r >= 2 {
		fmt.Fprintf(e.stdout, "CPU time: wall-time intervals are %.1f× wider than the processes' CPU-time ones (median over %d benchmarks):\n"+
			"other work took the CPUs from one side at a time; -metric cpu-sec/op compares without it\n", r, len(ratios))
	}
}
