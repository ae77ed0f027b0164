// Command tabulate fits the scaling families of benchmark files with
// package scaling and prints them as `mbench report -format text` does,
// followed by one summary line per family:
//
//	family  points  forks  slope  [lo, hi]  tail slope  [lo, hi]  curved
//
// usage: tabulate [-stat mean|median] file...
package main

import (
	"flag"
	"fmt"
	"os"
	"text/tabwriter"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/scaling"
	"github.com/mbench/mbench/stats"
)

func main() {
	stat := flag.String("stat", "mean", "centre of each point: mean or median")
	flag.Parse()
	opts := scaling.DefaultOptions
	var err error
	if opts.Stat, err = stats.ParseStat(*stat); err != nil {
		fmt.Fprintln(os.Stderr, "tabulate:", err)
		os.Exit(2)
	}
	if err := run(flag.Args(), opts); err != nil {
		fmt.Fprintln(os.Stderr, "tabulate:", err)
		os.Exit(1)
	}
}

func run(files []string, opts scaling.Options) error {
	var all []*scaling.Family
	for _, f := range files {
		r, warns, err := bench.ReadFile(f)
		if err != nil {
			return err
		}
		for _, w := range warns {
			fmt.Fprintln(os.Stderr, w)
		}
		fams, err := scaling.Find(r, "sec/op", opts)
		if err != nil {
			return fmt.Errorf("%s: %v", f, err)
		}
		if err := scaling.Write(os.Stdout, fams); err != nil {
			return err
		}
		fmt.Println()
		all = append(all, fams...)
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "family\tpoints\tforks\tslope\t99% CI\ttail slope\t99% CI\tcurved")
	for _, f := range all {
		forks := f.Points[0].Forks
		for _, p := range f.Points {
			forks = min(forks, p.Forks)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.3f\t[%.3f, %.3f]\t%.3f\t[%.3f, %.3f]\t%v\n", f.Name(), len(f.Points), forks,
			f.Slope.Center, f.Slope.Lo, f.Slope.Hi, f.Tail.Center, f.Tail.Lo, f.Tail.Hi, f.Curved)
	}
	return tw.Flush()
}
