// Tabulate prints the tables of docs/eval/ab.md from the results eval.sh
// wrote: for every subject, load, condition and method, the share of
// (benchmark, trial) cases called slower, faster, no change and
// inconclusive, how often the interval covers the true change, and the
// median wall time of a trial, with its ratio to go test's.
//
// usage: go run ./ab/tabulate OUTDIR
package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// A row is one benchmark of one trial as a method judged it.
type row struct {
	name          string
	verdict       string // slower, faster, no change, inconclusive
	ratio, lo, hi float64
	hasCI         bool
}

type jsonRow struct {
	Name    string   `json:"name"`
	Ratio   *float64 `json:"ratio"`
	Lo      *float64 `json:"lo"`
	Hi      *float64 `json:"hi"`
	Verdict string   `json:"verdict"`
}

type jsonResult struct {
	Metric string    `json:"metric"`
	Rows   []jsonRow `json:"rows"`
}

// readJSON reads mbench's JSON: one comparison, or an array of them (the
// time comparison is taken).
func readJSON(path string) ([]row, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var results []jsonResult
	if err := json.Unmarshal(data, &results); err != nil {
		var one jsonResult
		if err := json.Unmarshal(data, &one); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		results = []jsonResult{one}
	}
	var out []row
	for _, r := range results {
		if r.Metric != "sec/op" {
			continue
		}
		for _, jr := range r.Rows {
			x := row{name: jr.Name, verdict: jr.Verdict}
			if jr.Ratio != nil {
				x.ratio = *jr.Ratio
			}
			if jr.Lo != nil && jr.Hi != nil {
				x.lo, x.hi, x.hasCI = *jr.Lo, *jr.Hi, true
			}
			if x.verdict == "too few samples" {
				x.verdict = "inconclusive"
			}
			out = append(out, x)
		}
	}
	return out, nil
}

// readBenchstat reads benchstat's CSV: a change is reported where "vs
// base" is not "~". benchstat gives no interval of the change.
func readBenchstat(path string) ([]row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	recs, _ := r.ReadAll()
	var out []row
	inTime := false
	for _, rec := range recs {
		if len(rec) >= 2 && rec[0] == "" {
			inTime = rec[1] == "sec/op"
			continue
		}
		if !inTime || len(rec) < 6 || rec[0] == "geomean" {
			continue
		}
		x := row{name: rec[0], verdict: "no change"}
		if d := rec[5]; d != "~" {
			v, err := strconv.ParseFloat(strings.TrimSuffix(d, "%"), 64)
			if err == nil {
				x.ratio = 1 + v/100
				x.verdict = "faster"
				if v > 0 {
					x.verdict = "slower"
				}
			}
		}
		out = append(out, x)
	}
	return out, nil
}

type cell struct {
	cases, slower, faster, same, inconclusive, withCI, covered int
	times, widths                                              []float64
}

func median(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	s := slices.Clone(x)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: tabulate OUTDIR")
		os.Exit(2)
	}
	root := os.Args[1]
	cells := map[string]*cell{}
	var keys []string
	files, _ := filepath.Glob(filepath.Join(root, "*", "*", "*", "*", "*.time"))
	for _, tf := range files {
		rel, _ := filepath.Rel(root, tf)
		parts := strings.Split(rel, string(filepath.Separator)) // module/load/cond/method/T.time
		trial := strings.TrimSuffix(parts[4], ".time")
		key := strings.Join(parts[:4], "/")
		c := cells[key]
		if c == nil {
			c = &cell{}
			cells[key] = c
			keys = append(keys, key)
		}
		if b, err := os.ReadFile(tf); err == nil {
			if v, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64); err == nil {
				c.times = append(c.times, v)
			}
		}
		dir := filepath.Dir(tf)
		var rows []row
		var err error
		if parts[3] == "gotest" {
			rows, err = readBenchstat(filepath.Join(dir, trial+".csv"))
		} else {
			rows, err = readJSON(filepath.Join(dir, trial+".json"))
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", rel, err)
			continue
		}
		truth := 1.0
		if parts[2] != "aa" {
			pctChange, _ := strconv.ParseFloat(parts[2], 64)
			truth = 1 + pctChange/100
		}
		for _, r := range rows {
			c.cases++
			switch r.verdict {
			case "slower":
				c.slower++
			case "faster":
				c.faster++
			case "no change":
				c.same++
			default:
				c.inconclusive++
			}
			if r.hasCI {
				c.widths = append(c.widths, (r.hi-r.lo)/2)
				c.withCI++
				if r.lo <= truth && truth <= r.hi {
					c.covered++
				}
			}
		}
	}
	sort.Strings(keys)
	fmt.Println("| module | load | change | method | cases | slower | faster | no change | inconclusive | flagged per 23 | CI covers truth | median ± width | median wall s | × go test |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, k := range keys {
		c := cells[k]
		p := strings.Split(k, "/")
		pct := func(n int) string {
			if c.cases == 0 {
				return "–"
			}
			return fmt.Sprintf("%.0f%%", 100*float64(n)/float64(c.cases))
		}
		cover := "–"
		if c.withCI > 0 {
			cover = fmt.Sprintf("%.0f%% (%d)", 100*float64(c.covered)/float64(c.withCI), c.withCI)
		}
		flagged := "–"
		if c.cases > 0 && p[2] == "aa" {
			flagged = fmt.Sprintf("%.2f", 23*float64(c.slower+c.faster)/float64(c.cases))
		}
		// go test's time hardly depends on the change: without a gotest
		// trial of this condition, the module's A/A one is the reference.
		rel := "–"
		g := cells[strings.Join([]string{p[0], p[1], p[2], "gotest"}, "/")]
		if g == nil {
			g = cells[strings.Join([]string{p[0], p[1], "aa", "gotest"}, "/")]
		}
		if g != nil && median(g.times) > 0 {
			rel = fmt.Sprintf("%.2f", median(c.times)/median(g.times))
		}
		width := "–"
		if len(c.widths) > 0 {
			width = fmt.Sprintf("±%.1f%%", 100*median(c.widths))
		}
		fmt.Printf("| %s | %s | %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %.0f | %s |\n",
			p[0], p[1], p[2], p[3], c.cases, pct(c.slower), pct(c.faster), pct(c.same), pct(c.inconclusive),
			flagged, cover, width, median(c.times), rel)
	}
}
