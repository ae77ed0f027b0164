package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/mbench/mbench/ab"
	"github.com/mbench/mbench/compare"
	"github.com/mbench/mbench/internal/term"
	"github.com/mbench/mbench/run"
	"github.com/mbench/mbench/store"
)

func init() {
	commands = append(commands, &command{
		name:      "ab",
		usageLine: "-old REV [-new REV] [flags] [packages]",
		short:     "compare two versions interleaved until each verdict is decided",
		long:      helpText("ab"),
		setFlags:  setABFlags,
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
	var shard string
	abFlags(fs, &o)
	quiet := quietFlag(fs)
	shardFlags(fs, &shard, &o.ShardBasis)
	r.flags(fs, "exit with status 3 when a benchmark got slower or allocates more")
	fs.BoolVar(&parallel, "parallel", false, "run the versions side by side on two CPUs (mbench duet)")
	return func(e *env, args []string) error {
		var err error
		if o.Shard, err = parseShard(shard); err != nil {
			return err
		}
		if parallel {
			pc, opts, err := abParallel(fs, &o)
			return duetCmd(e, pc, opts, r, args, err)
		}
		ctx, db, wd, platform, stop, err := r.start(e, namingFlags(o.Check(), abFlagOf), o.Compare)
		if err != nil {
			return err
		}
		defer stop()
		if err := checkRefs(db, storedRef{"-resume", o.Resume, false}, storedRef{"-shard-basis", o.ShardBasis, true}); err != nil {
			return err
		}
		status := e.status(*quiet)
		defer status.Done()
		o.Dir, o.Packages, o.Platform, o.Head, o.Log = wd, args, &platform, r.head(e), prefixWriter{e.stderr}
		o.NoiseDir, o.FromNoise, o.Progress = noiseDir(r.db), !isSet(fs, "mi"), term.Show[ab.Progress](status)
		sess, runErr := ab.RunInterleaved(ctx, o, db)
		status.Done()
		if sess == nil {
			return runErr
		}
		warnAll(e, sess.Warnings)
		fmt.Fprintf(e.stderr, "mbench: session %s in %s: %d rounds in %v; %s\n", sess.ID, db.Name(), sess.Rounds, sess.Elapsed.Round(time.Second), sess.Stopped())
		if sess.Shard != nil && len(sess.Benchmarks) == 0 && runErr == nil {
			return nil // an empty shard, recorded: nothing to compare
		}
		results, err := sess.Results()
		if err != nil {
			return cmp.Or(runErr, err)
		}
		if err := ab.Write(e.results(), compare.Format(r.format), results, sess.Profiles); err != nil {
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
	case errors.Is(runErr, store.ErrConnectionLost):
		return fmt.Errorf("%w\n%s", runErr, kept)
	case runErr != nil:
		return runErr
	case r.fail:
		return regressionErrorOf(results...)
	}
	return nil
}

// isSet reports whether the flag name was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
