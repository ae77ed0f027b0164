// Command dueteval is the harness of scripts/eval-duet.sh, the evaluation of
// `mbench duet` in docs/EVALUATION.md. It does what the mbench command does
// not:
//
//	dueteval seq -old DIR -new DIR -bench RE -suites S -iters I -iter D -o FILE
//
// runs the sequential baseline: the benchmarks of two versions (module
// directories) interleaved in one randomised suite run after another, one
// fork per version per suite run of 1 warm-up and I measured iterations,
// as `mbench run -levels S,1,I` would run them if it could hold two versions
// of one package, and writes `mbench compare -format json` of the two sides
// to FILE.
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
	fs.Parse(args)
	ctx := context.Background()
	var targets []run.Target
	for i, dir := range []string{*oldDir, *newDir} {
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
				// The versions' keys are equal; the suffix keeps them apart.
				t.Key.Package += []string{"#old", "#new"}[i]
				targets = append(targets, t)
			}
		}
	}
	opts := run.StaticOptions{Options: run.DefaultOptions, Warmup: 1, MinPerSuiteRun: 1,
		Levels: func(*run.Target) (run.Levels, bool) {
			return run.Levels{SuiteRuns: *suites, Forks: 1, Iterations: *iters}, true
		}}
	opts.Config.IterTime = *iter
	opts.Seed = *seed
	results, err := run.StaticSuite(ctx, targets, opts)
	if err != nil {
		return err
	}
	sides := [2]*bench.Run{{Label: "old"}, {Label: "new"}}
	for _, r := range results {
		if r.Failed() {
			return fmt.Errorf("%s failed: %v", r.Target.Key, r.Failures[0])
		}
		side := 0
		if strings.HasSuffix(r.Target.Key.Package, "#new") {
			side = 1
		}
		for _, m := range r.Measurements {
			m.Key.Package = strings.TrimSuffix(strings.TrimSuffix(m.Key.Package, "#old"), "#new")
			sides[side].Measurements = append(sides[side].Measurements, m)
		}
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
