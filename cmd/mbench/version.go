package main

import (
	"flag"
	"runtime/debug"

	"github.com/mbench/mbench/internal/version"
)

func init() {
	commands = append(commands, &command{
		name:      "version",
		usageLine: "",
		short:     "print the version of mbench and of the Go that built it",
		long:      helpText("version"),
		setFlags: func(fs *flag.FlagSet) func(*env, []string) error {
			return func(e *env, args []string) error {
				if len(args) != 0 {
					return usagef("version takes no arguments")
				}
				info, _ := debug.ReadBuildInfo()
				version.Write(e.stdout, info)
				return nil
			}
		},
	})
}
