package main

import (
	"flag"
	"fmt"

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
	label := fs.String("label", "", "copy every run with label `L`")
	if err := fs.Parse(args); err != nil {
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
	src, err := openExisting(srcPath)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := openDB(dstPath)
	if err != nil {
		return err
	}
	defer dst.Close()
	var copied []store.Copied
	if *label != "" {
		copied, err = store.CopyLabel(src, dst, *label)
	} else {
		copied, err = store.Copy(src, dst, refs...)
	}
	// dst.Name, not dstPath: a PostgreSQL URL may hold a password.
	if werr := store.WriteCopied(e.stdout, copied, dst.Name()); err == nil {
		err = werr
	}
	if err != nil {
		return fmt.Errorf("%w (the runs listed as copied are complete in %s; the same command copies the rest)", err, dst.Name())
	}
	return nil
}
