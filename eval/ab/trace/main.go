// Trace records what the machine does to the two ways `mbench ab` can pair
// versions and to duet, on the same binaries in the same minutes, and
// explains with the records why their ratios spread as they do
// (docs/eval/ab.md, "Why interleaved rounds spread").
//
// Record runs rounds of one benchmark; each round runs, in a random order,
// one pairing of each mode:
//
//	processes  one process of old, then one of new (or the other way),
//	           unpinned, as mbench ab -pairing processes
//	turns      both processes at once, unpinned, taking turns iteration by
//	           iteration (duet.PairSpec.Turns), as mbench ab
//	parallel   both processes at once, pinned to CPUs 0 and 1, iterations
//	           started together with the filler (mbench duet)
//
// and writes one JSON line per iteration: mode, round, side, iteration,
// wall-clock start and end, timed duration per op, process CPU time per
// op, the CPU the benchmark's goroutine ran on when its timer started and
// stopped (the probe's; -1 for processes), the bytes allocated, and how
// long after its process started the iteration began (process start
// cost). Analyze reads such a file and prints, per mode, the spread of the
// rounds' log-ratios by the mean of their iterations, by the median of
// their paired iterations' ratios, by the minimum and the 25th percentile
// of each side (Chen and Revels, "Robust benchmarking in noisy
// environments", 2016) and by the median of CPU-time ratios,
// the spread of paired iterations, how often the two sides of a pair ran
// on different CPUs and what that did to their ratio, migrations within
// an iteration, the iterations a garbage collection ran in, the lag-1 autocorrelation of each side's iteration times,
// and the first iterations' cost against the later ones.
//
// usage:
//
//	go run ./ab/trace record -old OLD.test -new NEW.test -bench REGEXP [-rounds 20] [-iter 20ms] [-iters 8] [-warmup 2] -o TRACE.jsonl
//	go run ./ab/trace analyze TRACE.jsonl...
//	mbench export -format json SESSION | go run ./ab/trace rounds >ROUNDS.jsonl
//
// Rounds turns a stored interleaved session into one line per benchmark
// and round: the measured sec/op of each version's iterations, in order
// ({"name":..., "old":[...], "new":[...]}), the form of the recorded
// rounds ab's simulation of the sequential decision draws from
// (ab/testdata/rounds).
//
// The binaries must carry mbench's probe (eval/ab/pad -probe, or
// run.BuildProbed); REGEXP must select one benchmark.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/duet"
	"github.com/mbench/mbench/run"
	"github.com/mbench/mbench/stats"
	"gonum.org/v1/gonum/stat"
)

// A record is one iteration of one side.
type record struct {
	Mode      string  `json:"mode"`
	Round     int     `json:"round"`
	Side      string  `json:"side"` // old or new
	Iter      int     `json:"iter"` // 0-based; the first Warmup are warm-up
	Warmup    int     `json:"warmup"`
	Start     int64   `json:"start"` // Unix ns
	End       int64   `json:"end"`
	SecPerOp  float64 `json:"sec_op"`
	CPUPerOp  float64 `json:"cpu_sec_op"`
	StartCPU  int     `json:"start_cpu"`
	EndCPU    int     `json:"end_cpu"`
	BytesOp   float64 `json:"b_op"`
	GCs       int     `json:"gcs"`          // garbage collection cycles during the timed run (-1: unknown)
	SinceProc float64 `json:"since_proc_s"` // from the process's start to this iteration's
}

func main() {
	log.SetFlags(0)
	if len(os.Args) < 2 {
		log.Fatal("usage: trace record|analyze ...")
	}
	switch os.Args[1] {
	case "record":
		record1(os.Args[2:])
	case "analyze":
		for _, f := range os.Args[2:] {
			analyze(f)
		}
	case "rounds":
		rounds(os.Stdin, os.Stdout)
	default:
		log.Fatalf("unknown command %q: want record or analyze", os.Args[1])
	}
}

func record1(args []string) {
	fs := flag.NewFlagSet("record", flag.ExitOnError)
	oldPath := fs.String("old", "", "old test `binary` (with the probe)")
	newPath := fs.String("new", "", "new test `binary` (with the probe)")
	pattern := fs.String("bench", "", "`regexp` selecting one benchmark")
	rounds := fs.Int("rounds", 20, "`rounds`, each one pairing per mode")
	iter := fs.Duration("iter", 20*time.Millisecond, "iteration `duration` to calibrate to")
	iters := fs.Int("iters", 8, "measured `iterations` per process")
	warmup := fs.Int("warmup", 2, "warm-up `iterations` per process")
	minOps := fs.Int("min-ops", 2, "fewest `operations` per iteration")
	out := fs.String("o", "", "output `file` (JSON Lines)")
	seed := fs.Uint64("seed", 1, "random `seed` of the order")
	fs.Parse(args)
	if *oldPath == "" || *newPath == "" || *pattern == "" || *out == "" {
		log.Fatal("record: -old, -new, -bench and -o are required")
	}
	ctx := context.Background()
	bin := func(p string) *run.Binary {
		abs, err := filepath.Abs(p)
		if err != nil {
			log.Fatal(err)
		}
		if !run.HasProbe(ctx, abs) {
			log.Fatalf("%s carries no probe: build it with eval/ab/pad -probe", p)
		}
		return &run.Binary{Path: abs, Dir: filepath.Dir(abs)}
	}
	oldBin, newBin := bin(*oldPath), bin(*newPath)
	targets, err := run.Discover(ctx, oldBin, *pattern, nil, nil, time.Minute)
	if err != nil || len(targets) != 1 {
		log.Fatalf("-bench %q: %d benchmarks, %v; want one", *pattern, len(targets), err)
	}
	t := targets[0]
	n, _, err := run.CalibrateWarm(ctx, &t, *iter, false, time.Minute)
	if err != nil {
		log.Fatal(err)
	}
	n = max(n, *minOps)
	f, err := os.Create(*out)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	defer w.Flush()
	enc := json.NewEncoder(w)
	emit := func(r record) {
		if err := enc.Encode(r); err != nil {
			log.Fatal(err)
		}
	}
	log.Printf("%s: N=%d, %d rounds of processes, turns and parallel", t.Key, n, *rounds)
	rng := rand.New(rand.NewPCG(*seed, 0x7472616365))
	modes := []string{"processes", "turns", "parallel"}
	count := *warmup + *iters
	for r := 1; r <= *rounds; r++ {
		rng.Shuffle(len(modes), func(i, j int) { modes[i], modes[j] = modes[j], modes[i] })
		for _, mode := range modes {
			sides := [2]*run.Binary{oldBin, newBin}
			names := [2]string{"old", "new"}
			if rng.IntN(2) == 1 {
				sides[0], sides[1] = sides[1], sides[0]
				names[0], names[1] = names[1], names[0]
			}
			if mode == "processes" {
				for i, b := range sides {
					start := time.Now()
					k := 0
					spec := run.ForkSpec{Binary: *b, Pattern: t.Pattern, Procs: t.Procs, BenchTime: strconv.Itoa(n) + "x", Count: count, Benchmem: true}
					err := run.RunFork(ctx, spec, func(m *bench.Measurement) bool {
						if m.Key != t.Key {
							return true
						}
						sec, _ := m.Get("sec/op")
						bop, _ := m.Get("B/op")
						// m.Start is when the previous result line
						// arrived: the iteration's timed part ends at
						// m.End and lasts about N × sec/op.
						end := m.End
						st := end.Add(-time.Duration(sec * float64(m.N) * 1e9))
						emit(record{Mode: mode, Round: r, Side: names[i], Iter: k, Warmup: *warmup, Start: st.UnixNano(), End: end.UnixNano(),
							SecPerOp: sec, CPUPerOp: math.NaN(), StartCPU: -1, EndCPU: -1, BytesOp: bop, GCs: -1, SinceProc: st.Sub(start).Seconds()})
						k++
						return k < count
					})
					if err != nil {
						log.Fatalf("round %d, processes, %s: %v", r, names[i], err)
					}
				}
				continue
			}
			spec := duet.PairSpec{
				Old: duet.Side{Binary: *sides[0], CPU: 0}, New: duet.Side{Binary: *sides[1], CPU: 1},
				Pattern: t.Pattern, N: n, Count: count, Procs: t.Procs, Benchmem: true, Timeout: 5 * time.Minute,
				Turns: mode == "turns",
			}
			start := time.Now()
			_, err := duet.RunPair(ctx, spec, func(p duet.Pair) bool {
				for i, it := range [2]duet.Iteration{p.Old, p.New} {
					ops := float64(max(it.N, 1))
					emit(record{Mode: mode, Round: r, Side: names[i], Iter: p.Index, Warmup: *warmup,
						Start: it.Start.UnixNano(), End: it.End.UnixNano(),
						SecPerOp: it.Duration.Seconds() / ops, CPUPerOp: it.CPU.Seconds() / ops,
						StartCPU: it.StartCPU, EndCPU: it.EndCPU, BytesOp: float64(it.MemBytes) / ops, GCs: it.GCs,
						SinceProc: it.Start.Sub(start).Seconds()})
				}
				return true
			})
			if err != nil {
				log.Fatalf("round %d, %s: %v", r, mode, err)
			}
		}
		log.Printf("round %d of %d", r, *rounds)
	}
}

// MarshalJSON writes NaN as null, which encoding/json refuses.
func (r record) MarshalJSON() ([]byte, error) {
	type plain record
	cpu := &r.CPUPerOp
	if math.IsNaN(r.CPUPerOp) {
		cpu = nil
	}
	return json.Marshal(struct {
		plain
		CPUPerOp *float64 `json:"cpu_sec_op"`
	}{plain(r), cpu})
}

func analyze(path string) {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	// byMode[mode][round][side] = iterations in order
	byMode := map[string]map[int]map[string][]record{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			log.Fatalf("%s: %v", path, err)
		}
		if byMode[r.Mode] == nil {
			byMode[r.Mode] = map[int]map[string][]record{}
		}
		if byMode[r.Mode][r.Round] == nil {
			byMode[r.Mode][r.Round] = map[string][]record{}
		}
		byMode[r.Mode][r.Round][r.Side] = append(byMode[r.Mode][r.Round][r.Side], r)
	}
	fmt.Printf("%s\n\n", path)
	fmt.Println("| mode | rounds | sd of round log-ratio, means | by medians | by minimums | by 25th percentiles | by CPU time medians | sd of paired iterations | pairs on different CPUs | their median abs log-ratio | same CPU | migrated iterations | iterations with a GC | lag-1 autocorrelation | first measured / later |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, mode := range []string{"processes", "turns", "parallel"} {
		rounds := byMode[mode]
		if len(rounds) == 0 {
			continue
		}
		var dMean, dMed, dMin, dQ25, dCPU, pairLogs, diffAbs, sameAbs, lag1, first []float64
		migrated, measured, diff, pairs, withGC := 0, 0, 0, 0, 0
		for _, sides := range rounds {
			o, n := measuredOf(sides["old"]), measuredOf(sides["new"])
			if len(o) == 0 || len(n) == 0 {
				continue
			}
			dMean = append(dMean, math.Log(meanOf(n, secOp)/meanOf(o, secOp)))
			ov, nv := values(o, secOp), values(n, secOp)
			dMin = append(dMin, math.Log(stats.Quantile(nv, 0)/stats.Quantile(ov, 0)))
			dQ25 = append(dQ25, math.Log(stats.Quantile(nv, 0.25)/stats.Quantile(ov, 0.25)))
			k := min(len(o), len(n))
			var logs, cpuLogs []float64
			for i := range k {
				l := math.Log(n[i].SecPerOp / o[i].SecPerOp)
				logs = append(logs, l)
				if o[i].CPUPerOp > 0 && n[i].CPUPerOp > 0 {
					cpuLogs = append(cpuLogs, math.Log(n[i].CPUPerOp/o[i].CPUPerOp))
				}
				pairLogs = append(pairLogs, l)
				if o[i].StartCPU >= 0 && n[i].StartCPU >= 0 {
					pairs++
					if o[i].StartCPU != n[i].StartCPU {
						diff++
						diffAbs = append(diffAbs, math.Abs(l))
					} else {
						sameAbs = append(sameAbs, math.Abs(l))
					}
				}
			}
			dMed = append(dMed, median(logs))
			if len(cpuLogs) > 0 {
				dCPU = append(dCPU, median(cpuLogs))
			}
			for _, side := range [][]record{o, n} {
				for _, r := range side {
					if r.StartCPU >= 0 {
						measured++
						if r.StartCPU != r.EndCPU {
							migrated++
						}
						if r.GCs > 0 {
							withGC++
						}
					}
				}
				if x := values(side, secOp); len(x) > 2 {
					lag1 = append(lag1, autocorr(x))
				}
				if len(side) > 1 {
					first = append(first, side[0].SecPerOp/median(values(side[1:], secOp)))
				}
			}
		}
		pct := func(x []float64) string {
			if len(x) < 2 {
				return "–"
			}
			return fmt.Sprintf("%.1f%%", 100*sd(x))
		}
		share := func(a, b int) string {
			if b == 0 {
				return "–"
			}
			return fmt.Sprintf("%.0f%%", 100*float64(a)/float64(b))
		}
		medPct := func(x []float64) string {
			if len(x) == 0 {
				return "–"
			}
			return fmt.Sprintf("%.1f%%", 100*median(x))
		}
		fmt.Printf("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %+.2f | %.2f |\n", mode, len(dMean), pct(dMean), pct(dMed), pct(dMin), pct(dQ25), pct(dCPU), pct(pairLogs),
			share(diff, pairs), medPct(diffAbs), medPct(sameAbs), share(migrated, measured), share(withGC, measured), median(lag1), median(first))
	}
	fmt.Println()
}

// rounds writes the rounds of the session read from r (mbench export
// -format json) to w.
func rounds(r io.Reader, w io.Writer) {
	type measurement struct {
		Type     string            `json:"type"`
		Name     string            `json:"name"`
		Procs    int               `json:"procs"`
		Version  string            `json:"version"`
		Suite    int               `json:"suite"`
		Iter     int               `json:"iter"`
		Phase    string            `json:"phase"`
		Settings map[string]string `json:"settings"`
		Values   []struct {
			Value float64 `json:"value"`
			Unit  string  `json:"unit"`
		} `json:"values"`
	}
	type key struct {
		name  string
		round int
	}
	var oldV string
	byKey := map[key]*[2][]float64{}
	var order []key
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var m measurement
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			log.Fatal(err)
		}
		if m.Type == "run" {
			oldV = m.Settings[bench.SettingOld]
			continue
		}
		if m.Type != "measurement" || m.Phase != "measure" {
			continue
		}
		k := key{fmt.Sprintf("%s-%d", m.Name, m.Procs), m.Suite}
		if byKey[k] == nil {
			byKey[k] = new([2][]float64)
			order = append(order, k)
		}
		side := 1
		if m.Version == oldV {
			side = 0
		}
		for _, v := range m.Values {
			if v.Unit == "sec/op" {
				// Five digits are more than the noise leaves.
				x, _ := strconv.ParseFloat(strconv.FormatFloat(v.Value, 'g', 5, 64), 64)
				byKey[k][side] = append(byKey[k][side], x)
			}
		}
	}
	if oldV == "" {
		log.Fatal("not an interleaved session of mbench ab")
	}
	enc := json.NewEncoder(w)
	for _, k := range order {
		v := byKey[k]
		if len(v[0]) == 0 || len(v[1]) == 0 {
			continue
		}
		enc.Encode(struct {
			Name string    `json:"name"`
			Old  []float64 `json:"old"`
			New  []float64 `json:"new"`
		}{k.name, v[0], v[1]})
	}
}

func measuredOf(rs []record) []record {
	var out []record
	for _, r := range rs {
		if r.Iter >= r.Warmup {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Iter < out[j].Iter })
	return out
}

func secOp(r record) float64 { return r.SecPerOp }

func values(rs []record, f func(record) float64) []float64 {
	out := make([]float64, len(rs))
	for i, r := range rs {
		out[i] = f(r)
	}
	return out
}

func meanOf(rs []record, f func(record) float64) float64 {
	var s float64
	for _, r := range rs {
		s += f(r)
	}
	return s / float64(len(rs))
}

func sd(x []float64) float64 { return stats.StdDev(x) }

func median(x []float64) float64 { return stats.Median(x) }

// autocorr returns the lag-1 autocorrelation of x.
func autocorr(x []float64) float64 {
	if len(x) < 3 {
		return math.NaN()
	}
	return stat.Correlation(x[:len(x)-1], x[1:], nil)
}
