package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mbench/mbench/gen"
)

func init() {
	commands = append(commands, &command{
		name:      "gen",
		usageLine: "[-all-loops] [-max-inputs N] [-check] [packages]",
		short:     "generate benchmarks from code marked //mbench:bench",
		long:      helpText("gen"),
		setFlags: func(fs *flag.FlagSet) func(*env, []string) error {
			allLoops := fs.Bool("all-loops", false, "mark every loop of the packages (an experiment: how much code becomes a benchmark)")
			maxInputs := fs.Int("max-inputs", gen.DefaultMaxInputs, "record at most `n` distinct input sets per segment")
			check := fs.Bool("check", false, "change nothing; exit 1 naming the generated and recorded files that are stale")
			return func(e *env, args []string) error {
				if *maxInputs < 1 {
					return usagef("-max-inputs %d: must be at least 1", *maxInputs)
				}
				ctx, stop := interruptContext(e.stderr)
				defer stop()
				r, err := gen.Generate(ctx, gen.Options{
					Patterns:  args,
					AllLoops:  *allLoops,
					MaxInputs: *maxInputs,
					Check:     *check,
					Log: func(format string, args ...any) {
						fmt.Fprintf(e.stderr, "mbench gen: "+format+"\n", args...)
					},
				})
				if ctx.Err() != nil {
					// The segments' outcomes are half decided: a line
					// saying "generated" would be false.
					return errors.New("interrupted; run mbench gen again to finish")
				}
				if r != nil {
					printGen(e, r)
					for _, w := range r.Warnings {
						e.warnf("%v", w)
					}
				}
				if err != nil {
					return err
				}
				if len(r.Stale) > 0 {
					files := "files"
					if len(r.Stale) == 1 {
						files = "file"
					}
					return fmt.Errorf("%d stale %s (run mbench gen):\n\t%s", len(r.Stale), files, strings.Join(relPaths(r.Stale), "\n\t"))
				}
				return nil
			}
		},
	})
}

// printGen prints a line per segment and the counts per reason.
func printGen(e *env, r *gen.Result) {
	for _, s := range r.Segments {
		fmt.Fprintf(e.stdout, "%s:%d %s: ", relPath(s.Pos.Filename), s.Pos.Line, s.Name)
		switch {
		case s.Reason == gen.Accepted && s.Sets == 0:
			fmt.Fprintln(e.stdout, "accepted, no input sets recorded")
		case s.Reason == gen.Accepted && s.Sets == 1:
			fmt.Fprintln(e.stdout, "generated, 1 input set")
		case s.Reason == gen.Accepted:
			fmt.Fprintf(e.stdout, "generated, %d input sets\n", s.Sets)
		case s.Reason == gen.NotReached:
			fmt.Fprintln(e.stdout, s.Reason)
		case s.Detail != "":
			fmt.Fprintf(e.stdout, "rejected: %s (%s)\n", s.Reason, s.Detail)
		default:
			fmt.Fprintf(e.stdout, "rejected: %s\n", s.Reason)
		}
	}
	var parts []string
	for _, c := range r.Counts() {
		parts = append(parts, fmt.Sprintf("%d %s", c.N, c.Label()))
	}
	if len(parts) == 0 {
		parts = []string{"no marked segments"}
	}
	noun := "segments"
	if len(r.Segments) == 1 {
		noun = "segment"
	}
	fmt.Fprintf(e.stdout, "%d %s: %s\n", len(r.Segments), noun, strings.Join(parts, ", "))
}

// relPath returns file relative to the working directory when it is
// under it.
func relPath(file string) string {
	wd, err := os.Getwd()
	if err != nil {
		return file
	}
	rel, err := filepath.Rel(wd, file)
	if err != nil || strings.HasPrefix(rel, "..") {
		return file
	}
	return rel
}

func relPaths(files []string) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = relPath(f)
	}
	return out
}
