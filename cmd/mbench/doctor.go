package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/mbench/mbench/run"
)

func init() {
	commands = append(commands, &command{
		name:      "doctor",
		usageLine: "[test binaries]",
		short:     "check the machine (and test binaries) for benchmarking",
		long:      helpText("doctor"),
		setFlags: func(fs *flag.FlagSet) func(*env, []string) error {
			return func(e *env, args []string) error {
				wd, _ := os.Getwd()
				p := run.Detect(context.Background(), wd)
				fmt.Fprint(e.stdout, p.Header())
				warnings := run.PlatformWarnings(p)
				for _, bin := range args {
					if _, err := os.Stat(bin); err != nil {
						return err
					}
					warnings = append(warnings, run.BinaryWarnings(bin, nil)...)
				}
				if len(warnings) == 0 {
					fmt.Fprintln(e.stdout, "\nno problems found")
					return nil
				}
				fmt.Fprintln(e.stdout)
				for _, w := range warnings {
					fmt.Fprintf(e.stdout, "- %s\n", w)
				}
				if len(warnings) == 1 {
					return fmt.Errorf("1 problem found")
				}
				return fmt.Errorf("%d problems found", len(warnings))
			}
		},
	})
}
