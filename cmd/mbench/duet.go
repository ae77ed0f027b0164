package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"regexp"
	"slices"
	"syscall"

	"github.com/mbench/mbench/ab"
	"github.com/mbench/mbench/compare"
	"github.com/mbench/mbench/run"
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

// duetFlags are the flags of mbench duet: the session's configuration,
// bound straight into an ab.ParallelConfig, and how to report it.
type duetFlags struct {
	cfg      ab.ParallelConfig
	metricRE string
	cpus     string
	db       string
	format   string
	fail     bool
	opts     compare.Options
}

func setDuetFlags(fs *flag.FlagSet) func(*env, []string) error {
	f := &duetFlags{cfg: ab.DefaultParallelConfig, opts: compare.DefaultOptions}
	c := &f.cfg
	fs.StringVar(&c.OldRev, "old", "", "old version: a git `revision`")
	fs.StringVar(&c.NewRev, "new", c.NewRev, "new version: a git `revision`; . is the working tree")
	fs.StringVar(&c.OldBin, "old-bin", "", "old version: a prebuilt test `binary`")
	fs.StringVar(&c.NewBin, "new-bin", "", "new version: a prebuilt test `binary`")
	fs.StringVar(&c.CmdOld, "cmd-old", "", "old version: a `command` (run by sh -c); one run is one iteration")
	fs.StringVar(&c.CmdNew, "cmd-new", "", "new version: a `command` (run by sh -c)")
	fs.StringVar(&f.metricRE, "metric-re", "", "with -cmd-*, take each iteration's value from the output: the first submatch of `regexp` (default: wall time)")
	fs.StringVar(&c.Unit, "unit", "", "with -metric-re, the `unit` of the value, e.g. ops/s (default \"value\")")
	fs.BoolVar(&c.AA, "aa", false, "run the old version against itself (A/A control)")
	fs.StringVar(&c.Bench, "bench", c.Bench, "run only benchmarks matching `regexp`")
	fs.IntVar(&c.Runs, "runs", c.Runs, "`runs` (pairs of processes) per benchmark")
	fs.IntVar(&c.Iters, "iters", c.Iters, "measured paired `iterations` per run")
	fs.IntVar(&c.Warmup, "warmup", c.Warmup, "discarded paired `iterations` at the start of each run")
	fs.DurationVar(&c.Iter, "iter", c.Iter, "target `duration` of one iteration")
	fs.DurationVar(&c.Timeout, "timeout", c.Timeout, "end a run that takes longer than `duration`")
	fs.StringVar(&f.cpus, "cpus", fmt.Sprintf("%d,%d", c.CPUs[0], c.CPUs[1]), "the two `cpus` to run on")
	fs.BoolVar(&c.Filler, "filler", c.Filler, "keep the side that finishes an iteration first busy until the other finishes")
	fs.BoolVar(&c.Probe, "probe", c.Probe, "build with the testing-package probe (barrier and filler); false runs free")
	fs.StringVar(&c.Tags, "tags", "", "build `tags` for go test -c")
	fs.StringVar(&c.GCFlags, "gcflags", "", "`flags` for go test -c -gcflags")
	fs.BoolVar(&c.Benchmem, "benchmem", false, "also record B/op and allocs/op")
	fs.StringVar(&f.db, "db", defaultDB, "result database `path`")
	fs.StringVar(&c.OldLabel, "old-label", "", "`label` of the old side's stored run (default: the revision)")
	fs.StringVar(&c.NewLabel, "new-label", "", "`label` of the new side's stored run (default: the revision)")
	fs.StringVar(&f.format, "format", "text", "output `format`: text, markdown, json or csv")
	fs.BoolVar(&f.fail, "fail", false, "exit with status 3 when a benchmark got slower")
	fs.StringVar(&f.opts.Metric, "metric", f.opts.Metric, "compare `unit`: sec/op (wall time), cpu-sec/op (the process's CPU time; with the probe), B/op or allocs/op (with -benchmem)")
	fs.Float64Var(&f.opts.Alpha, "alpha", f.opts.Alpha, "one minus the confidence `level` of the interval")
	fs.Float64Var(&f.opts.Threshold, "threshold", f.opts.Threshold, "smallest relative change that matters, as a `fraction` (not for allocs/op)")
	fs.IntVar(&f.opts.Replicates, "reps", f.opts.Replicates, "bootstrap `replicates`")
	fs.Uint64Var(&f.opts.Seed, "seed", f.opts.Seed, "random `seed` of the order, the CPU assignment and the bootstrap")
	fs.BoolVar(&c.Verbose, "v", false, "print each run as it starts")
	return func(e *env, args []string) error { return duetCmd(e, f, args) }
}

func duetCmd(e *env, f *duetFlags, args []string) error {
	c := &f.cfg
	modes := 0
	for _, set := range []bool{c.OldRev != "", c.OldBin != "" || c.NewBin != "", c.CmdOld != "" || c.CmdNew != ""} {
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
	case c.OldBin != "" && c.NewBin == "" && !c.AA, c.CmdOld != "" && c.CmdNew == "" && !c.AA:
		return usagef("the new version is missing: give -new-bin or -cmd-new, or -aa")
	case c.Runs < 2:
		return usagef("-runs %d: want at least 2 (the interval is over runs)", c.Runs)
	case c.Iters < 1 || c.Warmup < 0:
		return usagef("-iters %d -warmup %d: want at least one measured iteration and no negative warm-up", c.Iters, c.Warmup)
	case c.Iter <= 0:
		return usagef("-iter %v: want a positive duration", c.Iter)
	case !slices.Contains(compare.Formats, compare.Format(f.format)):
		return usagef("-format %q: want one of %v", f.format, compare.Formats)
	case f.metricRE != "" && c.CmdOld == "":
		return usagef("-metric-re applies to -cmd-old and -cmd-new")
	}
	cpus, err := run.ParseCPUList(f.cpus)
	if err != nil || len(cpus) != 2 || cpus[0] == cpus[1] {
		return usagef("-cpus %q: want two different CPUs, e.g. 0,1", f.cpus)
	}
	c.CPUs = [2]int{cpus[0], cpus[1]}
	if f.metricRE != "" {
		if c.MetricRE, err = regexp.Compile(f.metricRE); err != nil {
			return usagef("-metric-re: %v", err)
		}
		if c.MetricRE.NumSubexp() < 1 {
			return usagef("-metric-re %q: want a submatch around the number, e.g. 'score: ([0-9.]+)'", f.metricRE)
		}
	}
	c.Packages, c.Seed = args, f.opts.Seed

	ctx, stopSignals := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stopSignals()
	wd, _ := os.Getwd()
	platform := e.platform(ctx, wd)
	c.Dir, c.Platform = wd, &platform

	db, err := openDB(f.db)
	if err != nil {
		return err
	}
	defer db.Close()
	sess, err := ab.NewParallel(ctx, *c, db)
	if err != nil {
		if ctx.Err() != nil {
			return errors.New("interrupted before the session started")
		}
		return err
	}
	// The header is part of the text report; a machine format on stdout
	// stays pure, so it goes to stderr then.
	head := e.stdout
	if f.format != string(compare.Text) {
		head = e.stderr
	}
	fmt.Fprint(head, platform.Header())
	fmt.Fprintf(head, "duet %s: old %s (run %s), new %s (run %s); %d runs × %d iterations (+%d warm-up), CPUs %d and %d\n\n",
		sess.ID, sess.Old.Label, sess.Old.ID, sess.New.Label, sess.New.ID, c.Runs, c.Iters, c.Warmup, c.CPUs[0], c.CPUs[1])

	res, runErr := sess.Run(ctx, prefixWriter{e.stderr})
	for _, w := range res.Warnings {
		e.warnf("%v", w)
	}
	fmt.Fprintf(e.stderr, "mbench: %d paired iterations stored in %s as runs %s (old) and %s (new)\n", res.Pairs, f.db, res.Old.ID, res.New.ID)
	if res.Pairs == 0 {
		if ctx.Err() != nil {
			return errors.New("interrupted before a pair was measured")
		}
		if runErr != nil {
			return runErr
		}
		return errors.New("no paired iteration was measured")
	}

	opts := f.opts
	if c.CmdOld != "" && c.MetricRE != nil {
		opts.Metric = unitOr(c.Unit)
	}
	if _, u := benchunit.Tidy(1, opts.Metric); u == "cpu-sec/op" && !res.CPUTimes() {
		return fmt.Errorf("-metric cpu-sec/op: no CPU times were measured (they need the testing probe; not for prebuilt binaries or commands)")
	}
	cmp, err := compare.Compare(res.Old, res.New, opts)
	if err != nil {
		return err
	}
	if err := cmp.Write(e.stdout, compare.Format(f.format)); err != nil {
		return err
	}
	// The duet's own findings follow the text report; with a machine
	// format on stdout they go to stderr.
	notes := e.stdout
	if f.format != string(compare.Text) {
		notes = e.stderr
	}
	fmt.Fprint(notes, ab.ParallelNotes(cmp, res.Skews))
	if _, u := benchunit.Tidy(1, opts.Metric); u == "sec/op" && res.CPUTimes() {
		co := opts
		co.Metric = "cpu-sec/op"
		if cres, err := compare.Compare(res.Old, res.New, co); err == nil {
			fmt.Fprint(notes, ab.ParallelCPUNote(cmp, cres))
		}
	}
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("interrupted; every finished pair is kept in runs %s and %s", res.Old.ID, res.New.ID)
	case runErr != nil:
		return runErr
	}
	if f.fail {
		if regs := cmp.Regressions(); len(regs) > 0 {
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

// writeCPUNote writes ab.ParallelCPUNote's note on wall and CPU time, if
// any, to stdout.
func writeCPUNote(e *env, wall, cpu *compare.Result) {
	fmt.Fprint(e.stdout, ab.ParallelCPUNote(wall, cpu))
}
