// Steady checks that mbench measures the steady state go test measures:
// for every benchmark in a go test -bench output (-benchtime 1s, the
// reference), the median sec/op, B/op and allocs/op of each mbench result
// given (stored runs or sessions, as `mbench export -format json` writes
// them; for a session of two versions, the old one's), against the
// reference's medians. B/op and allocs/op must be equal: within one unit
// (go test divides whole numbers) or 1% (an allocation-heavy benchmark's
// maps and buffers grow with the collector's timing), sec/op within ±10%.
//
// usage: go run ./ab/steady GOTEST.txt NAME=EXPORT.jsonl...
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"log"
	"math"
	"os"
	"sort"
	"strings"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/stats"
	"golang.org/x/perf/benchfmt"
)

// values[benchmark][unit] are the values of one source.
type values map[string]map[string][]float64

func (v values) add(name, unit string, x float64) {
	if v[name] == nil {
		v[name] = map[string][]float64{}
	}
	v[name][unit] = append(v[name][unit], x)
}

func main() {
	log.SetFlags(0)
	if len(os.Args) < 3 {
		log.Fatal("usage: steady GOTEST.txt NAME=EXPORT.jsonl...")
	}
	ref := readGoTest(os.Args[1])
	var names []string
	sources := map[string]values{}
	for _, arg := range os.Args[2:] {
		name, path, ok := strings.Cut(arg, "=")
		if !ok {
			log.Fatalf("%q: want NAME=EXPORT.jsonl", arg)
		}
		names = append(names, name)
		sources[name] = readExport(path)
	}
	benchmarks := make([]string, 0, len(ref))
	for b := range ref {
		benchmarks = append(benchmarks, b)
	}
	sort.Strings(benchmarks)
	fmt.Println("| benchmark | source | go test sec/op | its sec/op | ratio | go test B/op | its B/op | go test allocs/op | its allocs/op | steady |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
	for _, b := range benchmarks {
		for _, n := range names {
			got := sources[n][b]
			if got == nil {
				continue
			}
			r, g := ref[b], got
			med := func(v map[string][]float64, unit string) float64 { return stats.Median(v[unit]) }
			ratio := med(g, "sec/op") / med(r, "sec/op")
			same := func(unit string) bool {
				a, b := med(g, unit), med(r, unit)
				return math.Abs(a-b) <= max(1, 0.01*b)
			}
			ok := math.Abs(ratio-1) <= 0.10 && same("B/op") && same("allocs/op")
			word := "yes"
			if !ok {
				word = "**no**"
			}
			fmt.Printf("| %s | %s | %.4g | %.4g | %.3f | %.0f | %.0f | %.0f | %.0f | %s |\n", b, n,
				med(r, "sec/op"), med(g, "sec/op"), ratio, med(r, "B/op"), med(g, "B/op"), med(r, "allocs/op"), med(g, "allocs/op"), word)
		}
	}
}

// readGoTest reads go test -bench output.
func readGoTest(path string) values {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	out := values{}
	rd := benchfmt.NewReader(f, path)
	for rd.Scan() {
		res, ok := rd.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		name := strings.TrimPrefix(string(res.Name.Full()), "Benchmark")
		for _, v := range res.Values {
			out.add(name, v.Unit, v.Value)
		}
	}
	if err := rd.Err(); err != nil {
		log.Fatal(err)
	}
	return out
}

// readExport reads mbench's JSON Lines: the measured iterations of the
// first version of each run (an interleaved session's old version).
func readExport(path string) values {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	out := values{}
	var version string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var m struct {
			Type     string            `json:"type"`
			Name     string            `json:"name"`
			Procs    int               `json:"procs"`
			Version  string            `json:"version"`
			Phase    string            `json:"phase"`
			Settings map[string]string `json:"settings"`
			Values   []struct {
				Value float64 `json:"value"`
				Unit  string  `json:"unit"`
			} `json:"values"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			log.Fatalf("%s: %v", path, err)
		}
		if m.Type == "run" {
			version = m.Settings[bench.SettingOld]
			continue
		}
		if m.Type != "measurement" || m.Phase != "measure" || version != "" && m.Version != version {
			continue
		}
		name := m.Name
		if m.Procs > 1 {
			name = fmt.Sprintf("%s-%d", m.Name, m.Procs)
		}
		for _, v := range m.Values {
			out.add(name, v.Unit, v.Value)
		}
	}
	return out
}
