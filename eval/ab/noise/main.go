// Noise reads an interleaved session of mbench ab (as `mbench export
// -format json` writes it) and prints, per benchmark, what limits the
// width of its interval: the standard deviation of the rounds' log ratios
// new/old (which the interval shrinks like 1/√rounds), the same with the
// pairing ignored (old and new processes of different rounds), the
// correlation of the two versions' process means within a round (what
// interleaving buys), the spread of process means of one version, and the
// spread of iterations within a process. All in percent.
//
// usage: mbench export -db DB -format json SESSION | go run ./ab/noise [-mi N]
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"slices"
	"sort"
)

type record struct {
	Type     string            `json:"type"`
	Name     string            `json:"name"`
	Version  string            `json:"version"`
	Suite    int               `json:"suite"`
	Phase    string            `json:"phase"`
	Settings map[string]string `json:"settings"`
	Values   []struct {
		Value float64 `json:"value"`
		Unit  string  `json:"unit"`
	} `json:"values"`
}

func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

func sd(x []float64) float64 {
	m, s := mean(x), 0.0
	for _, v := range x {
		s += (v - m) * (v - m)
	}
	return math.Sqrt(s / float64(len(x)-1))
}

func median(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	s := slices.Clone(x)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func main() {
	mi := flag.Int("mi", 0, "use only the first `n` measured iterations of each process (0: all)")
	flag.Parse()
	var oldV, newV string
	// values[benchmark][round][version]
	values := map[string]map[int]map[string][]float64{}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			log.Fatal(err)
		}
		switch {
		case r.Type == "run":
			oldV, newV = r.Settings["ab-old"], r.Settings["ab-new"]
		case r.Type == "measurement" && r.Phase == "measure":
			for _, v := range r.Values {
				if v.Unit != "sec/op" {
					continue
				}
				if values[r.Name] == nil {
					values[r.Name] = map[int]map[string][]float64{}
				}
				if values[r.Name][r.Suite] == nil {
					values[r.Name][r.Suite] = map[string][]float64{}
				}
				values[r.Name][r.Suite][r.Version] = append(values[r.Name][r.Suite][r.Version], v.Value)
			}
		}
	}
	if oldV == "" {
		log.Fatal("not an interleaved session of mbench ab")
	}
	names := make([]string, 0, len(values))
	for n := range values {
		names = append(names, n)
	}
	sort.Strings(names)
	var all [5][]float64
	fmt.Println("| benchmark | rounds | sd of round log-ratio | sd unpaired | correlation | sd of process means | sd within process |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for _, n := range names {
		var lo, ln, d, within []float64
		for _, byV := range values[n] {
			o, w := byV[oldV], byV[newV]
			if len(o) == 0 || len(w) == 0 {
				continue
			}
			if *mi > 0 {
				o, w = o[:min(*mi, len(o))], w[:min(*mi, len(w))]
			}
			a, b := math.Log(mean(o)), math.Log(mean(w))
			lo, ln, d = append(lo, a), append(ln, b), append(d, b-a)
			logs := make([]float64, len(o))
			for i, v := range o {
				logs[i] = math.Log(v)
			}
			if len(logs) > 1 {
				within = append(within, sd(logs))
			}
		}
		if len(d) < 3 {
			continue
		}
		ma, mb := mean(lo), mean(ln)
		var cov float64
		for i := range lo {
			cov += (lo[i] - ma) * (ln[i] - mb)
		}
		cov /= float64(len(lo) - 1)
		corr := cov / (sd(lo) * sd(ln))
		unpaired := math.Sqrt(sd(lo)*sd(lo) + sd(ln)*sd(ln))
		row := [5]float64{100 * sd(d), 100 * unpaired, corr, 100 * sd(lo), 100 * median(within)}
		for i, v := range row {
			all[i] = append(all[i], v)
		}
		fmt.Printf("| %s | %d | %.1f | %.1f | %+.2f | %.1f | %.1f |\n", n, len(d), row[0], row[1], row[2], row[3], row[4])
	}
	if len(all[0]) > 0 {
		fmt.Printf("| median | | %.1f | %.1f | %+.2f | %.1f | %.1f |\n", median(all[0]), median(all[1]), median(all[2]), median(all[3]), median(all[4]))
	}
}
