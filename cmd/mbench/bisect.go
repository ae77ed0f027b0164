package main

import (
	"errors"
	"flag"

	"github.com/mbench/mbench/bisect"
)

func init() {
	commands = append(commands, &command{
		name:      "bisect",
		usageLine: "-good REV -bad REV [-bench regexp] [-threshold X] [flags] [packages]",
		short:     "find the commit at which benchmarks got slower",
		long:      helpText("bisect"),
		setFlags: func(fs *flag.FlagSet) func(*env, []string) error {
			c, r := bisect.DefaultConfig, &report{format: "text"}
			sessionFlags(fs, &c.Session)
			fs.StringVar(&c.Good, "good", "", "a `revision` before the change")
			fs.StringVar(&c.Bad, "bad", "", "a `revision` after the change")
			faster := fs.Bool("improvement", false, "look for the first faster commit")
			fs.BoolVar(&c.AllParents, "all-parents", false, "when the change is a merge, search the commits it brings in")
			fs.Float64Var(&c.Search.Confidence, "confidence", c.Search.Confidence, "`probability` at which a commit is the culprit")
			fs.Float64Var(&c.Search.StepError, "step-error", 0, "`probability` that a decided session is wrong (default: -alpha)")
			fs.IntVar(&c.Search.MaxSteps, "max-steps", 0, "most `comparisons` per search (default: 3 per halving of the range + 12)")
			fs.BoolVar(&c.Resume, "resume", false, "take up the bisection stored last")
			fs.StringVar(&r.db, "db", defaultDB, "result database `path`")
			return func(e *env, args []string) error {
				if *faster {
					c.Search.Direction = bisect.Faster
				}
				var invalid error
				if !c.Resume && (c.Good == "" || c.Bad == "") {
					invalid = errors.New("give -good REV and -bad REV, or -resume")
				}
				ctx, db, wd, platform, stop, err := r.start(e, invalid, c.Session.Compare)
				if err != nil {
					return err
				}
				defer stop()
				c.Session.Dir, c.Session.Packages, c.Session.Platform, c.Log, c.Session.Log = wd, args, &platform, e.stdout, prefixWriter{e.stderr}
				rep, err := bisect.Run(ctx, c, db)
				if rep != nil {
					warnAll(e, rep.Warnings)
					rep.Write(e.stdout)
				}
				if err == nil && !rep.Found() {
					err = errors.New("no change located to one commit at the required confidence")
				}
				return err
			}
		},
	})
}
