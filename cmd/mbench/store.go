package main

import (
	"flag"

	"github.com/mbench/mbench/store"
)

func init() {
	commands = append(commands, &command{
		name:      "store",
		usageLine: "copy [-label L] [RUN...] SRC DST",
		short:     "copy runs between result databases (SQLite files, PostgreSQL)",
		long:      helpText("store"),
		setFlags: func(fs *flag.FlagSet) func(*env, []string) error {
			label := fs.String("label", "", "copy every run with label `L` (instead of naming runs)")
			return func(e *env, args []string) error {
				if len(args) == 0 || args[0] != "copy" {
					return usagef("want a subcommand: copy")
				}
				refs, n := args[1:], len(args)
				if n < 3 {
					return usagef("store copy: want the source and destination databases, SRC DST, last; got %q", refs)
				} else if *label != "" && n > 3 {
					return usagef("store copy: -label and runs: give one")
				}
				return store.CopyFiles(e.stdout, args[n-2], args[n-1], *label, refs[:n-3]...)
			}
		},
	})
}
