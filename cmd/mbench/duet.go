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
		long:      helpText("duet"),
		setFlags:  setDuetFlags,
	})
}

func setDuetFlags(fs *flag.FlagSet) func(*env, []string) error {
	c, opts, r := ab.DefaultParallelConfig, compare.DefaultOptions, &report{}
	parsed := duetFlags(fs, &c, &opts)
	r.flags(fs, "exit with status 3 when a benchmark got slower")
	return func(e *env, args []string) error {
		return duetCmd(e, c, opts, r, args, parsed())
	}
}

// duetCmd runs a parallel session, for mbench duet and mbench ab
// -parallel, unless the flags were invalid: a usage error then.
func duetCmd(e *env, c ab.ParallelConfig, opts compare.Options, r *report, args []string, invalid error) error {
	c.Metric = opts.Metric
	ctx, db, wd, platform, stop, err := r.start(e, cmp.Or(invalid, namingFlags(c.Check(), duetFlagOf), namingFlags(c.CheckMetric(opts.Metric), duetFlagOf)), opts)
	if err != nil {
		return err
	}
	defer stop()
	if err := checkRefs(db, storedRef{"-shard-basis", c.ShardBasis, true}); err != nil {
		return err
	}
	c.Dir, c.Platform, c.Packages = wd, &platform, args
	sess, err := ab.NewParallel(ctx, c, db)
	if err != nil {
		return err
	}
	head := r.head(e)
	fmt.Fprint(head, platform.Header(), sess.Header())
	res, runErr := sess.Run(ctx, prefixWriter{e.stderr})
	warnAll(e, res.Warnings)
	fmt.Fprintf(e.stderr, "mbench: %d paired iterations stored in %s as runs %s (old) and %s (new)\n", res.Pairs, db.Name(), res.Old.ID, res.New.ID)
	kept := fmt.Sprintf("every finished pair is kept in runs %s and %s", res.Old.ID, res.New.ID)
	if res.EmptyShard() && runErr == nil {
		// Recorded, as mbench run and interleaved ab record it.
		fmt.Fprintf(e.stderr, "mbench: shard %s holds none of the benchmarks: nothing to compare\n", res.Shard.Shard)
		return nil
	}
	result, notes, err := res.Report(opts)
	if err != nil {
		return r.end(ctx, cmp.Or(runErr, err), kept)
	}
	if err := result.Write(e.results(), compare.Format(r.format)); err != nil {
		return err
	}
	fmt.Fprint(head, notes)
	return r.end(ctx, runErr, kept, result)
}
