// Command tabulate reads the JSON output of mbench profile written by
// eval/profile/run.sh (files level-L-trial-T.json) and prints, per level
// of injected change, how often the function at fault was named first and
// among the first three, the change the profiles measured, and how long
// profiling took, as a markdown table.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
)

type profiled struct {
	Benchmark string
	CPU       *struct {
		Total struct {
			Pts float64
		}
		Functions []struct {
			Func string
			Flat struct {
				Pts   float64
				Named bool
			}
		}
	}
	Error   string
	Seconds float64 `json:"profiling_seconds"`
}

var level = regexp.MustCompile(`level-(\d+)-trial-\d+\.json$`)

func main() {
	fault := flag.String("fault", "", "the function at fault")
	flag.Parse()
	type row struct {
		n, first, top3, failed int
		pts, faultPts, secs    []float64
	}
	rows := map[int]*row{}
	for _, file := range flag.Args() {
		m := level.FindStringSubmatch(filepath.Base(file))
		if m == nil {
			log.Fatalf("%s: not a level-L-trial-T.json file", file)
		}
		l, _ := strconv.Atoi(m[1])
		if rows[l] == nil {
			rows[l] = &row{}
		}
		r := rows[l]
		data, err := os.ReadFile(file)
		if err != nil {
			log.Fatal(err)
		}
		var ps []profiled
		if err := json.Unmarshal(data, &ps); err != nil {
			log.Fatalf("%s: %v", file, err)
		}
		for _, p := range ps {
			r.n++
			r.secs = append(r.secs, p.Seconds)
			if p.CPU == nil {
				r.failed++
				continue
			}
			r.pts = append(r.pts, p.CPU.Total.Pts)
			rank := 0
			for _, f := range p.CPU.Functions {
				if !f.Flat.Named {
					continue
				}
				rank++
				if f.Func == *fault {
					if rank == 1 {
						r.first++
					}
					if rank <= 3 {
						r.top3++
					}
					r.faultPts = append(r.faultPts, f.Flat.Pts)
					break
				}
			}
		}
	}
	fmt.Println("| injected | trials | fault named first | in the first three | profile's total change (median) | fault's change (median) | profiling time (median) |")
	fmt.Println("|---:|---:|---:|---:|---:|---:|---:|")
	for _, l := range slices.Sorted(func(yield func(int) bool) {
		for l := range rows {
			if !yield(l) {
				return
			}
		}
	}) {
		r := rows[l]
		fmt.Printf("| +%d%% | %d | %d | %d | %s | %s | %s |\n", l, r.n, r.first, r.top3,
			median(r.pts, "%+.1f pts"), median(r.faultPts, "%+.1f pts"), median(r.secs, "%.0fs"))
		if r.failed > 0 {
			fmt.Printf("|  | %d failed | | | | | |\n", r.failed)
		}
	}
}

func median(x []float64, format string) string {
	if len(x) == 0 {
		return "–"
	}
	s := slices.Sorted(slices.Values(x))
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return fmt.Sprintf(format, m)
}
