package main

import (
	"errors"
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
			return func(e *env, args []string) error {
				if len(args) == 0 || args[0] != "copy" {
					return usagef("want a subcommand: copy")
				}
				return storeCopy(e, args[1:])
			}
		},
	})
}

// storeCopy runs 'mbench store copy' with the arguments after "copy".
func storeCopy(e *env, args []string) error {
	fs := flag.NewFlagSet("store copy", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {} // mbench prints the help for -h and the usage after an error
	label := fs.String("label", "", "copy every run with label `L`")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usagef("store copy: %v", err)
	}
	args = fs.Args()
	if len(args) < 2 {
		return usagef("store copy: want the source and destination databases")
	}
	refs, srcPath, dstPath := args[:len(args)-2], args[len(args)-2], args[len(args)-1]
	if *label != "" && len(refs) > 0 {
		return usagef("store copy: -label and runs: give one")
	}
	return store.CopyFiles(e.stdout, srcPath, dstPath, *label, refs...)
}
