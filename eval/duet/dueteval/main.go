// Command dueteval is the harness of eval/duet/eval.sh and
// eval/optimize/eval.sh, the evaluations of `mbench duet` and `mbench
// optimize` in docs/eval/ab.md and docs/eval/optimize.md. It does what the
// mbench command does not, because one mbench run cannot hold two versions
// of one package:
//
//	dueteval seq -old DIR -new DIR -bench RE -suites S -iters I -iter D -o FILE
//
// runs the sequential baseline: the benchmarks of two versions (module
// directories) interleaved in one randomised suite run after another, one
// fork per version per suite run of 1 warm-up and I measured iterations,
// as `mbench run -levels S,1,I` would run them if it could hold two versions
// of one package, and writes `mbench compare -format json` of the two sides
// to FILE. -pin 0 pins every fork to CPU 0, so that the versions run with
// GOMAXPROCS 1 as each side of a duet does.
//
//	dueteval levels -levels S,I,D -iter D -o PREFIX LABEL=DIR...
//
// runs full runs (as `mbench run -levels S,I,D`) of several versions of a
// suite at once: every version's forks of a suite run are interleaved in one
// random order, so the versions see the same machine, and a drift of the
// machine over the minutes the runs take does not pass for a difference
// between versions. Each version's measurements go to PREFIX-LABEL.json in
// mbench's JSON Lines format, for `mbench optimize -replay`.
//
//	dueteval load
//
// keeps the machine busy until killed, as a noisy neighbour does: one worker
// per CPU, each alternating bursts of memory-streaming work and idle spells
// of random lengths (20–300 ms each, so each CPU is about half busy).
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/compare"
	"github.com/mbench/mbench/run"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: dueteval seq|load [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "seq":
		err = seq(os.Args[2:])
	case "levels":
		err = levels(os.Args[2:])
	case "load":
		load()
	default:
		err = fmt.Errorf("unknown subcommand %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "dueteval:", err)
		os.Exit(1)
	}
}

func seq(args []string) error {
	fs := flag.NewFlagSet("seq", flag.ExitOnError)
	oldDir := fs.String("old", "", "old version's module `dir`")
	newDir := fs.String("new", "", "new version's module `dir`")
	pkg := fs.String("pkg", ".", "package `pattern`")
	re := fs.String("bench", ".", "benchmark `regexp`")
	suites := fs.Int("suites", 5, "suite runs")
	iters := fs.Int("iters", 10, "measured iterations per fork")
	iter := fs.Duration("iter", 50*time.Millisecond, "iteration time")
	seed := fs.Uint64("seed", 1, "seed of the order")
	out := fs.String("o", "", "output `file` (compare JSON)")
	pinTo := fs.String("pin", "", "pin every fork to these `cpus` (one CPU: GOMAXPROCS 1, as each side of a duet)")
	fs.Parse(args)
	var pin []int
	if *pinTo != "" {
		var err error
		if pin, err = run.ParseCPUList(*pinTo); err != nil {
			return fmt.Errorf("-pin: %v", err)
		}
	}
	ctx := context.Background()
	var targets []run.Target
	var side []int // the version of each target
	for i, dir := range []string{*oldDir, *newDir} {
		bins, err := run.Build(ctx, run.BuildOptions{Dir: dir}, []string{*pkg})
		if err != nil {
			return err
		}
		for j := range bins {
			ts, err := run.Discover(ctx, &bins[j], *re, nil, pin, 10*time.Minute)
			if err != nil {
				return err
			}
			for _, t := range ts {
				targets = append(targets, t)
				side = append(side, i)
			}
		}
	}
	opts := run.StaticOptions{Options: run.DefaultOptions, Warmup: 1, MinPerSuiteRun: 1,
		Levels: func(*run.Target) (bench.Levels, bool) {
			return bench.Levels{SuiteRuns: *suites, Forks: 1, Iterations: *iters}, true
		}}
	opts.Config.IterTime = *iter
	opts.Seed = *seed
	results, err := run.StaticSuite(ctx, targets, opts)
	if err != nil {
		return err
	}
	sides := [2]*bench.Run{{Label: "old"}, {Label: "new"}}
	for i, r := range results {
		if r.Failed() {
			return fmt.Errorf("%s failed: %v", r.Target.Key, r.Failures[0])
		}
		sides[side[i]].Measurements = append(sides[side[i]].Measurements, r.Measurements...)
	}
	res, err := compare.Compare(sides[0], sides[1], compare.DefaultOptions)
	if err != nil {
		return err
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := res.Write(f, compare.JSON); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func levels(args []string) error {
	fs := flag.NewFlagSet("levels", flag.ExitOnError)
	pkg := fs.String("pkg", ".", "package `pattern`")
	re := fs.String("bench", ".", "benchmark `regexp`")
	lv := fs.String("levels", "3,5,5", "`S,I,D`")
	iter := fs.Duration("iter", 100*time.Millisecond, "iteration time")
	seed := fs.Uint64("seed", 1, "seed of the order")
	prefix := fs.String("o", "levels", "output file `prefix`")
	fs.Parse(args)
	l, err := bench.ParseLevels(*lv)
	if err != nil {
		return fmt.Errorf("-levels %q: %v", *lv, err)
	}
	ctx := context.Background()
	var labels []string
	var targets []run.Target
	var version []string // the label of each target
	for _, a := range fs.Args() {
		label, dir, ok := strings.Cut(a, "=")
		if !ok {
			return fmt.Errorf("%q: want LABEL=DIR", a)
		}
		labels = append(labels, label)
		bins, err := run.Build(ctx, run.BuildOptions{Dir: dir}, []string{*pkg})
		if err != nil {
			return err
		}
		for j := range bins {
			ts, err := run.Discover(ctx, &bins[j], *re, nil, nil, 10*time.Minute)
			if err != nil {
				return err
			}
			for _, t := range ts {
				targets = append(targets, t)
				version = append(version, label)
			}
		}
	}
	writers := map[string]*bench.JSONWriter{}
	for _, label := range labels {
		f, err := os.Create(*prefix + "-" + label + ".json")
		if err != nil {
			return err
		}
		defer f.Close()
		w := bench.NewJSONWriter(f)
		meta := &bench.Run{Label: label, Start: time.Now(), Settings: map[string]string{
			bench.SettingLevels: *lv, bench.SettingIter: iter.String(), bench.SettingCriterion: "levels",
			bench.SettingWarmupFixed: "1", "interleaved": strings.Join(labels, ","),
		}}
		if err := w.WriteRun(meta); err != nil {
			return err
		}
		writers[label] = w
	}
	opts := run.StaticOptions{Options: run.DefaultOptions, Warmup: 1, MinPerSuiteRun: 3,
		Levels: func(*run.Target) (bench.Levels, bool) { return l, true }}
	opts.Config.IterTime = *iter
	opts.Seed = *seed
	opts.Progress = func(p run.Progress) {
		if p.Done%20 == 0 {
			fmt.Fprintf(os.Stderr, "suite run %d, %d of %d forks, %v\n", p.SuiteRun, p.Done, p.Planned, p.Elapsed.Round(time.Second))
		}
	}
	results, err := run.StaticSuite(ctx, targets, opts)
	if err != nil {
		return err
	}
	for i, r := range results {
		if r.Failed() {
			return fmt.Errorf("%s failed: %v", r.Target.Key, r.Failures[0])
		}
		w := writers[version[i]]
		for j := range r.Measurements {
			if err := w.WriteMeasurement(&r.Measurements[j]); err != nil {
				return err
			}
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
	return nil
}

func load() {
	buf := make([]byte, 32<<20)
	for w := range runtime.NumCPU() {
		go func() {
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			x := byte(0)
			for {
				busy := time.Now().Add(time.Duration(20+rng.IntN(280)) * time.Millisecond)
				for time.Now().Before(busy) {
					for i := w * 64; i < len(buf); i += 64 * runtime.NumCPU() {
						buf[i] += x
						x = buf[i] ^ byte(i)
					}
				}
				time.Sleep(time.Duration(20+rng.IntN(280)) * time.Millisecond)
			}
		}()
	}
	select {}
}
