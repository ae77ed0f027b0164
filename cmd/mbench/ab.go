package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/mbench/mbench/ab"
	"github.com/mbench/mbench/compare"
	"github.com/mbench/mbench/run"
	"github.com/mbench/mbench/store"
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
tree), each built in a scratch checkout so that the working tree, index
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

// report holds the flags of ab and duet that say how to report and
// where to store.
type report struct {
	db, format string
	fail       bool
}

func (r *report) flags(fs *flag.FlagSet, failHelp string) {
	fs.StringVar(&r.db, "db", defaultDB, "result database `path`")
	fs.StringVar(&r.format, "format", "text", "output `format`: text, markdown, json or csv")
	fs.BoolVar(&r.fail, "fail", false, failHelp)
}

// start checks the options (invalid, the options' own check, a usage
// error), the report's flags and the analysis options, then opens the
// store and describes the machine, with a context an interrupt cancels.
// The caller calls stop when the session has ended.
func (r *report) start(e *env, invalid error, o compare.Options) (ctx context.Context, db *store.Store, wd string, p run.Platform, stop func(), err error) {
	switch {
	case invalid != nil:
		err = usagef("%v", invalid)
	case !slices.Contains(compare.Formats, compare.Format(r.format)):
		err = usagef("-format %q: want one of %v", r.format, compare.Formats)
	default:
		if err = checkCompareFlags(o); err == nil {
			db, err = openDB(r.db)
		}
	}
	if err != nil {
		return
	}
	ctx, cancel := interruptContext(e.stderr)
	wd, _ = os.Getwd()
	return ctx, db, wd, e.platform(ctx, wd), func() { cancel(); db.Close() }, nil
}

// head is where the header and notes go: after the text report on
// stdout; with a machine format on stdout, to stderr, so it stays pure.
func (r *report) head(e *env) io.Writer {
	if r.format != string(compare.Text) {
		return e.stderr
	}
	return e.stdout
}

func setABFlags(fs *flag.FlagSet) func(*env, []string) error {
	o, r := ab.DefaultOptions, &report{}
	var parallel bool
	o.Flags(fs)
	r.flags(fs, "exit with status 3 when a benchmark got slower or allocates more")
	fs.BoolVar(&parallel, "parallel", false, "run the versions side by side on two CPUs (mbench duet)")
	return func(e *env, args []string) error {
		if parallel {
			pc, opts, err := o.Parallel(fs)
			return duetCmd(e, pc, opts, r, args, err)
		}
		ctx, db, wd, platform, stop, err := r.start(e, o.Check(), o.Compare)
		if err != nil {
			return err
		}
		defer stop()
		o.Dir, o.Packages, o.Platform, o.Head, o.Log = wd, args, &platform, r.head(e), prefixWriter{e.stderr}
		sess, runErr := ab.RunInterleaved(ctx, o, db)
		if sess == nil {
			return runErr
		}
		warnAll(e, sess.Warnings)
		fmt.Fprintf(e.stderr, "mbench: session %s in %s: %d rounds in %v; %s\n", sess.ID, r.db, sess.Rounds, sess.Elapsed.Round(time.Second), sess.Stopped())
		results, err := sess.Results()
		if err != nil {
			return cmp.Or(runErr, err)
		}
		if err := compare.WriteAll(e.stdout, compare.Format(r.format), results); err != nil {
			return err
		}
		if r.format == string(compare.Text) {
			fmt.Fprintf(e.stdout, "\n%s\n", sess.Note())
		}
		return r.end(ctx, runErr, fmt.Sprintf("every finished process is kept in run %[1]s: the same command with -resume %[1]s goes on, 'mbench compare %[1]s' analyses it", sess.ID), results...)
	}
}

func warnAll[T any](e *env, warnings []T) {
	for _, w := range warnings {
		e.warnf("%v", w)
	}
}

// end returns the error a session of ab or duet ends with: the interrupt
// and what was kept, the session's error, or with -fail the regressions.
func (r *report) end(ctx context.Context, runErr error, kept string, results ...*compare.Result) error {
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("interrupted; %s", kept)
	case runErr != nil:
		return runErr
	case r.fail:
		return regressionErrorOf(results...)
	}
	return nil
}
