package main

import (
	"flag"
	"slices"

	"github.com/mbench/mbench/ab"
	"github.com/mbench/mbench/compare"
)

func init() {
	commands = append(commands, &command{
		name:      "profile",
		usageLine: "-old REV [-new REV] [-bench regexp] [flags] [packages]",
		short:     "profile two versions' benchmarks and name the functions that changed",
		long:      helpText("profile"),
		setFlags: func(fs *flag.FlagSet) func(*env, []string) error {
			o := ab.DefaultOptions
			profileFlags(fs, &o)
			format := fs.String("format", "text", "output `format`: text, markdown or json")
			db := fs.String("db", defaultDB, "result database `path`; the profiles are kept in its directory")
			return func(e *env, args []string) error {
				if !slices.Contains([]compare.Format{compare.Text, compare.Markdown, compare.JSON}, compare.Format(*format)) {
					return usagef("-format %q: want text, markdown or json", *format)
				}
				if err := o.Check(); err != nil {
					return usagef("%v", namingFlags(err, abFlagOf))
				}
				ctx, cancel := interruptContext(e.stderr)
				defer cancel()
				o.Packages, o.NoiseDir, o.Log = args, noiseDir(*db), prefixWriter{e.stderr}
				p, err := ab.ProfileVersions(ctx, o)
				if p == nil {
					return err
				}
				warnAll(e, p.Warnings)
				if werr := ab.WriteWhy(e.stdout, compare.Format(*format), p.Why); werr != nil {
					return werr
				}
				return err
			}
		},
	})
}
