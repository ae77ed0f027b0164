package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/mbench/mbench/gen"
)

func init() {
	commands = append(commands, &command{
		name:      "gen",
		usageLine: "[-all-loops] [-max-inputs N] [-check] [-tags list] [packages]",
		short:     "generate benchmarks from code marked //mbench:bench",
		long:      helpText("gen"),
		setFlags: func(fs *flag.FlagSet) func(*env, []string) error {
			allLoops := fs.Bool("all-loops", false, "mark every loop of the packages (an experiment: how much code becomes a benchmark)")
			maxInputs := fs.Int("max-inputs", gen.DefaultMaxInputs, "record at most `n` distinct input sets per segment")
			check := fs.Bool("check", false, "change nothing; exit 1 naming the generated and recorded files that are stale")
			tags := fs.String("tags", "", "build `tags` of the go command: the files they select are searched for markers and tested")
			quiet := quietFlag(fs)
			return func(e *env, args []string) error {
				if *maxInputs < 1 {
					return usagef("-max-inputs %d: must be at least 1", *maxInputs)
				}
				ctx, stop := interruptContext(e.stderr)
				defer stop()
				status := e.status(*quiet)
				defer status.Done()
				r, err := gen.Generate(ctx, gen.Options{
					Patterns:  args,
					AllLoops:  *allLoops,
					MaxInputs: *maxInputs,
					Check:     *check,
					Tags:      *tags,
					Log: func(format string, args ...any) {
						fmt.Fprintf(e.stderr, "mbench gen: "+format+"\n", args...)
					},
					Progress: status.Set,
				})
				status.Done()
				if ctx.Err() != nil {
					// The segments' outcomes are half decided: a line
					// saying "generated" would be false.
					return errors.New("interrupted; run mbench gen again to finish")
				}
				if r != nil {
					if werr := r.WriteSummary(e.stdout, ""); werr != nil {
						return werr
					}
					for _, w := range r.Warnings {
						e.warnf("%v", w)
					}
				}
				if err != nil {
					return err
				}
				return r.StaleError("")
			}
		},
	})
}
