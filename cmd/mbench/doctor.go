package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mbench/mbench/run"
)

func init() {
	commands = append(commands, &command{
		name:      "doctor",
		usageLine: "[flags] [test binaries]",
		short:     "check the machine (and test binaries) for benchmarking",
		long:      helpText("doctor"),
		setFlags: func(fs *flag.FlagSet) func(*env, []string) error {
			noise := fs.Bool("noise", false, "measure how other work slows each CPU, and keep the result beside the result database for later runs")
			noiseTime := fs.Duration("noise-time", run.DefaultNoiseTime, "with -noise, measure for `duration`")
			db := fs.String("db", defaultDB, "with -noise, keep the noise beside the result database `path`")
			return func(e *env, args []string) error {
				var timeSet bool
				fs.Visit(func(f *flag.Flag) { timeSet = timeSet || f.Name == "noise-time" })
				switch {
				case *noiseTime <= 0 || *noiseTime > run.MaxNoiseTime:
					return usagef("-noise-time %v: want a duration above 0 and at most %v", *noiseTime, run.MaxNoiseTime)
				case timeSet && !*noise:
					return usagef("-noise-time without -noise: give -noise")
				case *noise && len(args) > 0:
					return usagef("-noise checks the machine alone: name no test binaries")
				case *noise:
					return doctorNoise(e, *noiseTime, noiseDir(*db))
				}
				return doctor(e, args)
			}
		},
	})
}

// doctor checks the machine and the test binaries named, and says what
// it could not check.
func doctor(e *env, bins []string) error {
	wd, _ := os.Getwd()
	c, err := run.Doctor(context.Background(), wd, bins)
	if err != nil {
		return err
	}
	if err := c.WriteText(e.stdout); err != nil {
		return err
	}
	return c.Err()
}

// doctorNoise measures the machine's noise for d, prints it and keeps it
// in dir for the runs that follow.
func doctorNoise(e *env, d time.Duration, dir string) error {
	if err := checkNoiseDir(dir); err != nil {
		return err
	}
	ctx, stopSignals := interruptContext(e.stderr)
	defer stopSignals()
	fmt.Fprintf(e.stderr, "mbench: measuring the noise on every CPU for %v\n", d)
	n, err := run.MeasureNoise(ctx, d)
	if err != nil {
		return err
	}
	if err := n.WriteText(e.stdout); err != nil {
		return err
	}
	if err := run.SaveNoise(dir, n); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "mbench: noise kept in %s for the runs that follow\n", filepath.Join(dir, run.NoiseFile))
	return nil
}

// checkNoiseDir checks, before the noise is measured, that it can be kept
// in dir, beside the result database of -db, creating dir as SaveNoise
// would.
func checkNoiseDir(dir string) error {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return usagef("-db: cannot keep the noise beside the result database: %v", err)
	}
	return checkOutput("-db", filepath.Join(dir, run.NoiseFile))
}
