package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"time"

	"github.com/mbench/mbench/ab"
	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/compare"
	"github.com/mbench/mbench/internal/gitrev"
	"github.com/mbench/mbench/run"
)

func init() {
	commands = append(commands, &command{
		name:      "ab",
		usageLine: "-old REV [-new REV] [flags] [packages]",
		short:     "compare two versions interleaved until each verdict is decided",
		long: `
Ab compares the benchmarks of two versions of a module and says, for each,
whether the new version is slower, faster, unchanged (the whole confidence
interval within ±threshold), or whether the data cannot tell
(inconclusive, with the smallest change they could have shown).

The versions are git revisions (-old, and -new, by default the working
tree), each built in a scratch worktree so that the working tree, index
and branches are never touched; or two prebuilt test binaries (-old-bin,
-new-bin).

The versions are measured interleaved: each round runs, for every
undecided benchmark in a random order, one process of the old version and
one of the new, back to back, in a random order. The ratio new/old is the
geometric mean of the rounds' ratios, with a bootstrap interval over
rounds, so that the machine's drift between rounds cancels. Processes run
at this machine's GOMAXPROCS (b.RunParallel benchmarks included), one
warm-up and -mi measured iterations each, every iteration doing the same
work on both sides (calibrated to about -iter). Processes are short on
purpose: two processes differ more than the iterations within one, so
many short rounds give a narrower interval than a few long ones in the
same time.

A benchmark stops when its verdict is decided. It is analysed after 10,
15, 23, 35, 53, 80, 120 and 200 rounds (from -min-rounds to
-max-rounds, each look about 1.5 times the one before); the error rate
-alpha is spent equally over the looks, so that stopping early keeps it:
an unchanged benchmark is reported slower or faster with probability at
most -alpha. The session ends when the next round would not fit in its
budget: -budget, or by default 10s per benchmark (-budget-per-benchmark),
about 40% of what 'go test -count 10' takes for both versions; benchmarks
decided early leave their time to the others. What is undecided then is
inconclusive.

Every process's iterations are stored when it ends, as one run in the
result database whose measurements carry their version; 'mbench compare
RUN' analyses a stored session again (also an interrupted one), and
-resume RUN goes on with an interrupted session.

B/op and allocs/op are compared beside time (-benchmem, on by default);
any change in allocs/op is reported. With -fail, the exit status is 3
when a benchmark got slower or allocates more.

-parallel runs the two versions side by side instead, each pinned to its
own CPU at GOMAXPROCS 1, every iteration of both started together ('mbench
duet'; see 'mbench help duet'). -mi, -wi, -iter, -timeout, -max-rounds (its
runs), -alpha, -threshold, -reps and -seed carry over when given; duet's
defaults hold otherwise. Its figures are for GOMAXPROCS 1: a change
measured there can be smaller or larger than at this machine's GOMAXPROCS
(the garbage collector shares the one CPU), and b.RunParallel benchmarks
run on one goroutine.
`,
		setFlags: setABFlags,
	})
}

type abFlags struct {
	oldRev, newRev     string
	oldBin, newBin     string
	oldLabel, newLabel string
	cfg                ab.Config
	tags, gcflags      string
	db, format         string
	fail, verbose      bool
	parallel           bool
	resume             string
	set                map[string]bool // flags given on the command line
}

func setABFlags(fs *flag.FlagSet) func(*env, []string) error {
	f := &abFlags{cfg: ab.DefaultConfig}
	c := &f.cfg
	fs.StringVar(&f.oldRev, "old", "", "old version: a git `revision`")
	fs.StringVar(&f.newRev, "new", gitrev.WorkingTree, "new version: a git `revision`; . is the working tree")
	fs.StringVar(&f.oldBin, "old-bin", "", "old version: a prebuilt test `binary`")
	fs.StringVar(&f.newBin, "new-bin", "", "new version: a prebuilt test `binary`")
	fs.StringVar(&f.oldLabel, "old-label", "", "`label` of the old version (default: the revision)")
	fs.StringVar(&f.newLabel, "new-label", "", "`label` of the new version (default: the revision)")
	fs.StringVar(&c.Bench, "bench", c.Bench, "run only benchmarks matching `regexp`")
	fs.DurationVar(&c.Iter, "iter", c.Iter, "target `duration` of one iteration")
	fs.IntVar(&c.Iterations, "mi", c.Iterations, "measured `iterations` per process")
	fs.IntVar(&c.Warmup, "wi", c.Warmup, "discarded warm-up `iterations` per process")
	fs.IntVar(&c.MinRounds, "min-rounds", c.MinRounds, "first look: `rounds` before any verdict")
	fs.IntVar(&c.MaxRounds, "max-rounds", c.MaxRounds, "last look: most `rounds` per benchmark")
	fs.DurationVar(&c.Budget, "budget", c.Budget, "end the session when the next round would end after `duration` (0: -budget-per-benchmark applies)")
	fs.DurationVar(&c.BenchmarkBudget, "budget-per-benchmark", c.BenchmarkBudget, "without -budget, the session's limit is this `duration` times the number of benchmarks (0: no limit)")
	fs.DurationVar(&c.Timeout, "timeout", c.Timeout, "end a process that runs longer than `duration`")
	fs.BoolVar(&c.Benchmem, "benchmem", c.Benchmem, "also compare B/op and allocs/op")
	fs.StringVar(&f.tags, "tags", "", "build `tags` for go test -c")
	fs.StringVar(&f.gcflags, "gcflags", "", "`flags` for go test -c -gcflags")
	fs.StringVar(&f.db, "db", defaultDB, "result database `path`")
	fs.StringVar(&f.format, "format", "text", "output `format`: text, markdown, json or csv")
	fs.BoolVar(&f.fail, "fail", false, "exit with status 3 when a benchmark got slower or allocates more")
	fs.Float64Var(&c.Compare.Alpha, "alpha", c.Compare.Alpha, "error `rate` of the whole sequential decision")
	fs.Float64Var(&c.Compare.Threshold, "threshold", c.Compare.Threshold, "smallest relative change that matters, as a `fraction`")
	fs.IntVar(&c.Compare.Replicates, "reps", c.Compare.Replicates, "bootstrap `replicates`")
	fs.Uint64Var(&c.Compare.Seed, "seed", c.Compare.Seed, "random `seed` of the order and the bootstrap")
	fs.BoolVar(&f.verbose, "v", false, "print each round as it starts")
	fs.BoolVar(&f.parallel, "parallel", false, "run the versions side by side on two CPUs (mbench duet)")
	fs.StringVar(&f.resume, "resume", "", "go on with the interrupted session stored as `run` (give the same versions)")
	return func(e *env, args []string) error {
		f.set = map[string]bool{}
		fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
		if f.parallel {
			return abParallel(e, f, args)
		}
		return abCmd(e, f, args)
	}
}

// abParallel runs 'mbench ab -parallel' as 'mbench duet' with the same
// versions and the flags the two modes share; duet's own defaults hold
// for the rest (10 runs of 10 paired iterations, 99% intervals).
func abParallel(e *env, f *abFlags, args []string) error {
	for _, name := range []string{"min-rounds", "budget", "resume"} {
		if f.set[name] {
			return usagef("-%s applies to the interleaved mode, not to -parallel", name)
		}
	}
	d := &duetFlags{cfg: ab.DefaultParallelConfig, opts: compare.DefaultOptions, db: f.db, format: f.format, fail: f.fail,
		cpus: fmt.Sprintf("%d,%d", ab.DefaultParallelConfig.CPUs[0], ab.DefaultParallelConfig.CPUs[1])}
	c, ac := &d.cfg, &f.cfg
	c.OldRev, c.NewRev, c.OldBin, c.NewBin = f.oldRev, f.newRev, f.oldBin, f.newBin
	c.OldLabel, c.NewLabel = f.oldLabel, f.newLabel
	c.Bench, c.Tags, c.GCFlags, c.Benchmem, c.Verbose = ac.Bench, f.tags, f.gcflags, ac.Benchmem, f.verbose
	shared := []struct {
		flag string
		set  func()
	}{
		{"mi", func() { c.Iters = ac.Iterations }},
		{"wi", func() { c.Warmup = ac.Warmup }},
		{"iter", func() { c.Iter = ac.Iter }},
		{"timeout", func() { c.Timeout = ac.Timeout }},
		{"max-rounds", func() { c.Runs = ac.MaxRounds }},
		{"alpha", func() { d.opts.Alpha = ac.Compare.Alpha }},
		{"threshold", func() { d.opts.Threshold = ac.Compare.Threshold }},
		{"reps", func() { d.opts.Replicates = ac.Compare.Replicates }},
		{"seed", func() { d.opts.Seed = ac.Compare.Seed }},
	}
	for _, s := range shared {
		if f.set[s.flag] {
			s.set()
		}
	}
	return duetCmd(e, d, args)
}

func abCmd(e *env, f *abFlags, args []string) error {
	c := &f.cfg
	switch {
	case (f.oldRev != "") == (f.oldBin != "" || f.newBin != ""):
		return usagef("give the old version once: -old REV, or -old-bin FILE with -new-bin FILE")
	case f.oldBin != "" && f.newBin == "", f.oldBin == "" && f.newBin != "":
		return usagef("-old-bin and -new-bin go together")
	case c.Iter <= 0:
		return usagef("-iter %v: want a positive duration", c.Iter)
	case c.Iterations < 1 || c.Warmup < 0:
		return usagef("-mi %d -wi %d: want at least one measured iteration and no negative warm-up", c.Iterations, c.Warmup)
	case c.MinRounds < 2 || c.MaxRounds < c.MinRounds:
		return usagef("-min-rounds %d -max-rounds %d: want 2 ≤ min ≤ max", c.MinRounds, c.MaxRounds)
	case c.Budget < 0 || c.BenchmarkBudget < 0 || c.Timeout <= 0:
		return usagef("-budget %v -budget-per-benchmark %v -timeout %v: want no negative budget and a positive timeout", c.Budget, c.BenchmarkBudget, c.Timeout)
	case !slices.Contains(compare.Formats, compare.Format(f.format)):
		return usagef("-format %q: want one of %v", f.format, compare.Formats)
	}
	if err := checkCompareFlags(c.Compare); err != nil {
		return err
	}

	ctx, stopSignals := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stopSignals()
	wd, _ := os.Getwd()
	platform := e.platform(ctx, wd)
	patterns := args
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}

	var old, new *ab.Version
	var err error
	if f.oldBin != "" {
		if old, err = ab.Prebuilt(f.oldBin); err != nil {
			return err
		}
		if new, err = ab.Prebuilt(f.newBin); err != nil {
			return err
		}
	} else {
		opts := run.BuildOptions{Dir: wd, Tags: f.tags, GCFlags: f.gcflags, Log: prefixWriter{e.stderr}}
		if old, err = ab.BuildRevision(ctx, f.oldRev, patterns, opts); err != nil {
			return err
		}
		defer old.Close()
		if new, err = ab.BuildRevision(ctx, f.newRev, patterns, opts); err != nil {
			return err
		}
		defer new.Close()
	}
	c.Old, c.New = old.Binaries, new.Binaries
	c.OldLabel, c.NewLabel = old.Label, new.Label
	if f.oldLabel != "" {
		c.OldLabel = f.oldLabel
	}
	if f.newLabel != "" {
		c.NewLabel = f.newLabel
	}
	if c.OldLabel == c.NewLabel {
		c.NewLabel += " (new)"
	}
	c.Instance = platform.Host
	if f.verbose {
		c.Log = prefixWriter{e.stderr}
	}

	db, err := openDB(f.db)
	if err != nil {
		return err
	}
	defer db.Close()
	meta := &bench.Run{
		Label: c.OldLabel + ".." + c.NewLabel, Commit: new.Commit, Dirty: new.Dirty, Toolchain: platform.Go,
		GOOS: platform.OS, GOARCH: platform.Arch, Host: platform.Host, CPU: platform.CPU, Start: time.Now(),
		Settings: map[string]string{"ab-old-commit": old.Commit, "ab-new-commit": new.Commit},
	}
	head := e.stdout
	if f.format != string(compare.Text) {
		head = e.stderr
	}
	fmt.Fprint(head, platform.Header())
	fmt.Fprintf(e.stderr, "mbench: %s against %s, interleaved, %d to %d rounds per benchmark\n", c.NewLabel, c.OldLabel, c.MinRounds, c.MaxRounds)

	var sess *ab.Session
	var runErr error
	if f.resume != "" {
		id, err := db.Resolve(f.resume)
		if err != nil {
			return fmt.Errorf("-resume: %v", err)
		}
		sess, runErr = ab.Resume(ctx, *c, db, id)
	} else {
		sess, runErr = ab.Interleaved(ctx, *c, db, meta)
	}
	if sess == nil {
		return runErr
	}
	for _, w := range sess.Warnings {
		e.warnf("%s", w)
	}
	fmt.Fprintf(e.stderr, "mbench: session %s in %s: %d rounds in %v; %s\n", sess.ID, f.db, sess.Rounds, sess.Elapsed.Round(time.Second), sess.Stopped())
	results, err := sessionResults(sess)
	if err != nil {
		if runErr != nil {
			return runErr
		}
		return err
	}
	if err := compare.WriteAll(e.stdout, compare.Format(f.format), results); err != nil {
		return err
	}
	if f.format == string(compare.Text) {
		fmt.Fprintf(e.stdout, "\n%s\n", sessionNote(sess))
	}
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("interrupted; every finished process is kept in run %s: the same command with -resume %s goes on, 'mbench compare %s' analyses it",
			sess.ID, sess.ID, sess.ID)
	case runErr != nil:
		return runErr
	}
	if f.fail {
		if regs := regressions(results); len(regs) > 0 {
			return regressionErrorOf(regs)
		}
	}
	return nil
}

// sessionResults compares a session in each unit it measured.
func sessionResults(sess *ab.Session) ([]*compare.Result, error) {
	var out []*compare.Result
	for _, u := range sess.Units() {
		res, err := sess.Compare(u)
		if err != nil {
			if len(out) > 0 {
				continue // a session interrupted before any allocation was recorded
			}
			return nil, err
		}
		out = append(out, res)
	}
	if len(out) == 0 {
		return nil, errors.New("nothing to compare")
	}
	return out, nil
}

// sessionNote says what the figures hold for: the error rate over the
// whole sequential decision and per look, and how the benchmarks stopped.
func sessionNote(sess *ab.Session) string {
	return fmt.Sprintf("interleaved: %d rounds in %v (%s); intervals at %g%% per look, %g%% over the %d looks %v; figures at the GOMAXPROCS in each name",
		sess.Rounds, sess.Elapsed.Round(time.Second), sess.Stopped(),
		100*(1-sess.Sequence.LookAlpha()), 100*(1-sess.Sequence.Alpha), len(sess.Sequence.Looks), sess.Sequence.Looks)
}

// regressions returns the rows of results that got worse: slower, or more
// allocations or bytes.
func regressions(results []*compare.Result) []compare.Row {
	var out []compare.Row
	for _, r := range results {
		out = append(out, r.Regressions()...)
	}
	return out
}
