// Command tabulate summarises the scale-out experiment of eval/scaleout:
// how the shards of each label split the suite, how their gathered result
// compares with the one-machine run, and what measuring a large suite
// would cost on 1, 8 or 64 CI runners at the measured per-benchmark time.
//
// usage: tabulate -db FILE -times FILE [flags] SINGLE=CMP.json ...
//
// -db is the store holding every run (the runs of each label are read
// with store.Runs and Load); -times is the wall-clock log eval.sh writes,
// one "what<TAB>label<TAB>shard<TAB>seconds" line per step (what is run,
// fetch, install, build or gather); each LABEL=CMP.json is the output of
// `mbench compare -format json SINGLE LABEL`.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/store"
)

func main() {
	db := flag.String("db", "", "the experiment's store")
	times := flag.String("times", "", "the wall-clock log of eval.sh")
	single := flag.String("single", "single", "label of the one-machine run")
	price := flag.Float64("price", 0.008, "runner price in US$ per minute, each job billed in whole minutes")
	startup := flag.Duration("startup", 30*time.Second, "assumed start of a runner job before its first step (queue, VM, checkout action)")
	suite := flag.Int("benchmarks", 1000, "suite size of the cost table")
	abBudget := flag.Duration("ab-budget", 10*time.Second, "mbench ab's budget per benchmark, the second cost scenario")
	flag.Parse()
	if *db == "" || *times == "" {
		fmt.Fprintln(os.Stderr, "usage: tabulate -db FILE -times FILE [flags] LABEL=CMP.json ...")
		os.Exit(2)
	}
	c := costModel{price: *price, startup: *startup, suite: *suite, abBudget: *abBudget}
	if err := run(*db, *times, *single, flag.Args(), c); err != nil {
		fmt.Fprintln(os.Stderr, "tabulate:", err)
		os.Exit(1)
	}
}

// A step is one timed line of the log: a run (of a label, maybe a shard)
// or a part of a CI job's overhead.
type step struct {
	what, label, shard string
	seconds            float64
}

func readTimes(path string) ([]step, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var steps []step
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) != 4 {
			return nil, fmt.Errorf("%s:%d: want 4 tab-separated fields, have %d", path, n, len(fields))
		}
		s, err := strconv.ParseFloat(fields[3], 64)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		steps = append(steps, step{fields[0], fields[1], fields[2], s})
	}
	return steps, sc.Err()
}

func sum(steps []step, keep func(step) bool) (total float64, n int) {
	for _, s := range steps {
		if keep(s) {
			total, n = total+s.seconds, n+1
		}
	}
	return total, n
}

// A shardRun is one stored run of a label, with the keys it measured.
type shardRun struct {
	id, shard, basis string
	keys             map[string]bool
}

func loadLabels(path string) (map[string][]shardRun, error) {
	s, err := store.OpenReadOnly(path)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	infos, err := s.Runs()
	if err != nil {
		return nil, err
	}
	labels := map[string][]shardRun{}
	for _, ri := range infos {
		r, err := s.Load(ri.ID)
		if err != nil {
			return nil, err
		}
		sr := shardRun{id: ri.ID, shard: r.Settings[bench.SettingShard], basis: r.Settings[bench.SettingShardBasis], keys: map[string]bool{}}
		for _, k := range r.Keys() {
			sr.keys[k.String()] = true
		}
		labels[ri.Label] = append(labels[ri.Label], sr)
	}
	return labels, nil
}

// comparison is the part of `mbench compare -format json` read here.
type comparison struct {
	Rows []struct {
		Name       string   `json:"name"`
		Ratio      *float64 `json:"ratio"`
		Lo         *float64 `json:"lo"`
		Hi         *float64 `json:"hi"`
		Verdict    string   `json:"verdict"`
		Resolution *float64 `json:"resolution"`
	} `json:"rows"`
	OnlyOld []json.RawMessage `json:"only_old"`
	OnlyNew []json.RawMessage `json:"only_new"`
	Geomean struct {
		Ratio *float64 `json:"ratio"`
	} `json:"geomean"`
}

func run(dbPath, timesPath, single string, cmps []string, c costModel) error {
	steps, err := readTimes(timesPath)
	if err != nil {
		return err
	}
	labels, err := loadLabels(dbPath)
	if err != nil {
		return err
	}
	one := labels[single]
	if len(one) != 1 {
		return fmt.Errorf("%s: label %q has %d runs, want one", dbPath, single, len(one))
	}
	suite := one[0].keys

	fmt.Println("Shards: each label's runs against the one-machine run's benchmarks")
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "label\truns\tbasis\tbenchmarks per shard\tdisjoint\tcover the suite\twall per shard (s)\tslowest / mean")
	var names []string
	for _, arg := range cmps {
		label, _, _ := strings.Cut(arg, "=")
		names = append(names, label)
	}
	for _, label := range names {
		runs := labels[label]
		union := map[string]int{}
		var sizes []int
		var bases []string
		for _, r := range runs {
			sizes = append(sizes, len(r.keys))
			for k := range r.keys {
				union[k]++
			}
			if !slices.Contains(bases, r.basis) {
				bases = append(bases, r.basis)
			}
		}
		disjoint := true
		for _, n := range union {
			disjoint = disjoint && n == 1
		}
		covers := len(union) == len(suite)
		for k := range suite {
			covers = covers && union[k] > 0
		}
		var walls []float64
		for _, s := range steps {
			if s.what == "run" && s.label == label {
				walls = append(walls, s.seconds)
			}
		}
		slices.Sort(sizes)
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%v\t%v (%d of %d)\t%s\t%s\n", label, len(runs), basisNames(bases, labels),
			span(sizes), disjoint, covers, len(union), len(suite), spanF(walls), ratioF(slowest(walls)))
	}
	tw.Flush()

	fmt.Println("\nGathered shards against the one-machine run (mbench compare -format json", single, "LABEL), sec/op")
	tw = tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "label\tcompared\tone side only\tno change\tinconclusive\tslower\tfaster\ttoo few samples\tinterval holds 0%\tmedian resolution\tgeomean change")
	for _, arg := range cmps {
		label, file, ok := strings.Cut(arg, "=")
		if !ok {
			return fmt.Errorf("%q: want LABEL=FILE", arg)
		}
		b, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		var cmp comparison
		if err := json.Unmarshal(b, &cmp); err != nil {
			return fmt.Errorf("%s: %v", file, err)
		}
		verdicts := map[string]int{}
		var holds int
		var res []float64
		for _, r := range cmp.Rows {
			verdicts[r.Verdict]++
			if r.Lo != nil && r.Hi != nil && *r.Lo <= 1 && 1 <= *r.Hi {
				holds++
			}
			if r.Resolution != nil {
				res = append(res, *r.Resolution)
			}
		}
		geo := math.NaN()
		if cmp.Geomean.Ratio != nil {
			geo = *cmp.Geomean.Ratio - 1
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d of %d\t±%.1f%%\t%+.2f%%\n", label, len(cmp.Rows), len(cmp.OnlyOld)+len(cmp.OnlyNew),
			verdicts["no change"], verdicts["inconclusive"], verdicts["slower"], verdicts["faster"], verdicts["too few samples"],
			holds, len(cmp.Rows), 100*median(res), 100*geo)
	}
	tw.Flush()

	// Each run's wall time against the benchmarks it measured: a fixed
	// cost per mbench run (build check, discovery) plus a cost per
	// benchmark, fitted by least squares over every run of the experiment.
	var xs, ys []float64
	for _, s := range steps {
		if s.what != "run" {
			continue
		}
		for _, r := range labels[s.label] {
			if r.shard == s.shard {
				xs, ys = append(xs, float64(len(r.keys))), append(ys, s.seconds)
			}
		}
	}
	fixed, perBench := fit(xs, ys)
	singleWall, _ := sum(steps, func(s step) bool { return s.what == "run" && s.label == single })
	var overhead float64
	fmt.Println("\nPer-benchmark time and the overhead of a CI job, measured (s)")
	tw = tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "one-machine run\t%.1f\tfor %d benchmarks: %.2f s each\n", singleWall, len(suite), singleWall/float64(len(suite)))
	for _, label := range names {
		wall, n := sum(steps, func(s step) bool { return s.what == "run" && s.label == label })
		fmt.Fprintf(tw, "%s\t%.1f\tin %d runs, %.0f%% of the one-machine run's time\n", label, wall, n, 100*wall/singleWall)
	}
	fmt.Fprintf(tw, "fit over %d runs\t\twall = %.1f s + %.2f s × benchmarks\n", len(xs), fixed, perBench)
	var fetch float64
	for _, what := range []string{"fetch", "install", "build"} {
		t, _ := sum(steps, func(s step) bool { return s.what == what })
		overhead += t
		if what == "fetch" {
			fetch = t
		}
		fmt.Fprintf(tw, "%s\t%.1f\t%s\n", what, t, overheadNotes[what])
	}
	gather, _ := sum(steps, func(s step) bool { return s.what == "gather" })
	fmt.Fprintf(tw, "gather\t%.1f\t%s\n", gather, overheadNotes["gather"])
	tw.Flush()

	c.overhead = seconds(overhead + fixed)
	c.warm = seconds(fetch + fixed)
	c.gather = seconds(gather)
	for _, per := range []struct {
		name string
		t    time.Duration
	}{
		{fmt.Sprintf("mbench run at the experiment's settings, %.2f s per benchmark", perBench), seconds(perBench)},
		{fmt.Sprintf("mbench ab at its default budget, %v per benchmark", c.abBudget), c.abBudget},
	} {
		fmt.Printf("\n%d benchmarks, %s; job overhead measured, %v with an empty build cache (fetch, install, build, mbench's fixed cost), %v with a restored one, + %v assumed start-up; $%.3f per runner-minute\n",
			c.suite, per.name, c.overhead.Round(time.Second), c.warm.Round(time.Second), c.startup, c.price)
		c.table(os.Stdout, per.t)
	}
	return nil
}

var overheadNotes = map[string]string{
	"fetch":   "go mod download of the module into an empty module cache (stands in for the checkout)",
	"install": "go build of mbench with an empty build cache (go install in a fresh job)",
	"build":   "go test -c of the module's packages with an empty build cache (mbench builds them in each job)",
	"gather":  "the report job: mbench store copy of the shards' files into one, then mbench compare",
}

// costModel prices a suite split over runners: each runner job starts,
// fetches, installs and builds (overhead), then measures its share of the
// suite; the report job gathers once all have ended.
type costModel struct {
	price             float64
	startup, overhead time.Duration
	// warm is the overhead with a restored build cache (actions/setup-go
	// caches it by default): the fetch and mbench's fixed cost per run.
	warm             time.Duration
	gather, abBudget time.Duration
	suite            int
}

func (c costModel) table(w *os.File, perBench time.Duration) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "runners\tbuild cache\tbenchmarks per runner\tshard job\twall time to the comment\tbilled runner-minutes\tcost per run")
	for _, cache := range []struct {
		name     string
		overhead time.Duration
	}{{"empty", c.overhead}, {"restored", c.warm}} {
		for _, runners := range []int{1, 8, 64} {
			share := (c.suite + runners - 1) / runners
			job := c.startup + cache.overhead + time.Duration(share)*perBench
			wall := job
			minutes := runners * int(math.Ceil(job.Minutes()))
			if runners > 1 {
				report := c.startup + c.gather
				wall += report
				minutes += int(math.Ceil(report.Minutes()))
			}
			fmt.Fprintf(tw, "%d\t%s\t%d\t%s\t%s\t%d\t$%.2f\n", runners, cache.name, share, minutesText(job), minutesText(wall), minutes, float64(minutes)*c.price)
		}
	}
	tw.Flush()
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// fit returns the least-squares line y = a + b·x.
func fit(xs, ys []float64) (a, b float64) {
	n := float64(len(xs))
	var sx, sy, sxx, sxy float64
	for i := range xs {
		sx, sy = sx+xs[i], sy+ys[i]
		sxx, sxy = sxx+xs[i]*xs[i], sxy+xs[i]*ys[i]
	}
	b = (n*sxy - sx*sy) / (n*sxx - sx*sx)
	return (sy - b*sx) / n, b
}

func minutesText(d time.Duration) string {
	if d >= time.Hour {
		return fmt.Sprintf("%.1f h", d.Hours())
	}
	return fmt.Sprintf("%.1f min", d.Minutes())
}

// basisNames names the bases of a label's shards by the label of the runs
// they came from.
func basisNames(bases []string, labels map[string][]shardRun) string {
	labelOf := map[string]string{}
	for l, runs := range labels {
		for _, r := range runs {
			labelOf[r.id] = l
		}
	}
	var out []string
	for _, b := range bases {
		ids := strings.Split(b, ",")
		switch l, ok := labelOf[ids[0]]; {
		case b == "":
			out = append(out, "-")
		case ok:
			out = append(out, fmt.Sprintf("%s (%d run%s)", l, len(ids), map[bool]string{true: "s"}[len(ids) > 1]))
		default:
			out = append(out, b)
		}
	}
	return strings.Join(out, ", ")
}

func span(xs []int) string {
	if len(xs) == 0 {
		return "-"
	}
	if xs[0] == xs[len(xs)-1] {
		return strconv.Itoa(xs[0])
	}
	return fmt.Sprintf("%d–%d", xs[0], xs[len(xs)-1])
}

func spanF(xs []float64) string {
	if len(xs) == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f–%.0f", slices.Min(xs), slices.Max(xs))
}

// slowest returns the slowest shard's time over the mean: 1 is a perfect
// balance, and the wall time of the sharded run is this much longer than
// an even split's.
func slowest(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	var total float64
	for _, x := range xs {
		total += x
	}
	return slices.Max(xs) / (total / float64(len(xs)))
}

func ratioF(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fmt.Sprintf("%.2f", x)
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
