package main

import (
	"cmp"
	"flag"
	"fmt"

	"github.com/mbench/mbench/ab"
	"github.com/mbench/mbench/compare"
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
the default), checked out in scratch clones so the working tree is never
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
left out by a documented rule (compare.OneSidedRule). The text report adds
what the pairing bought: the interval the same data give with the pairing
shuffled. The pairs of every run of processes are stored as the run ends,
as two runs in the result database (labels of the two versions), which 'mbench compare' analyses as
a duet.

Exit status is 0, 1 on error or interrupt, 3 with -fail when a benchmark
got slower.
`,
		setFlags: setDuetFlags,
	})
}

func setDuetFlags(fs *flag.FlagSet) func(*env, []string) error {
	c, opts, r := ab.DefaultParallelConfig, compare.DefaultOptions, &report{}
	parsed := c.Flags(fs, &opts)
	r.flags(fs, "exit with status 3 when a benchmark got slower")
	return func(e *env, args []string) error {
		return duetCmd(e, c, opts, r, args, parsed())
	}
}

// duetCmd runs a parallel session, for mbench duet and mbench ab
// -parallel, unless the flags were invalid: a usage error then.
func duetCmd(e *env, c ab.ParallelConfig, opts compare.Options, r *report, args []string, invalid error) error {
	ctx, db, wd, platform, stop, err := r.start(e, cmp.Or(invalid, c.Check(), c.CheckMetric(opts.Metric)), opts)
	if err != nil {
		return err
	}
	defer stop()
	c.Dir, c.Platform, c.Packages = wd, &platform, args
	sess, err := ab.NewParallel(ctx, c, db)
	if err != nil {
		return err
	}
	head := r.head(e)
	fmt.Fprint(head, platform.Header(), sess.Header())
	res, runErr := sess.Run(ctx, prefixWriter{e.stderr})
	warnAll(e, res.Warnings)
	fmt.Fprintf(e.stderr, "mbench: %d paired iterations stored in %s as runs %s (old) and %s (new)\n", res.Pairs, r.db, res.Old.ID, res.New.ID)
	kept := fmt.Sprintf("every finished pair is kept in runs %s and %s", res.Old.ID, res.New.ID)
	result, notes, err := res.Report(opts)
	if err != nil {
		return r.end(ctx, cmp.Or(runErr, err), kept)
	}
	if err := result.Write(e.stdout, compare.Format(r.format)); err != nil {
		return err
	}
	fmt.Fprint(head, notes)
	return r.end(ctx, runErr, kept, result)
}
