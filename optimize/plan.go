package optimize

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/internal/outfile"
	"github.com/mbench/mbench/stats"
)

// PlanFormat is the value of a plan file's "format" field. It changes only
// when a change would make old readers misread new files.
const PlanFormat = "mbench-plan/v1"

// A Plan is the outcome of Optimize that later runs use: a configuration per
// benchmark, with the settings that chose it. Its file format is specified in
// docs/formats.md ("mbench plan").
type Plan struct {
	// Levels is the full run's configuration; every benchmark's is within it.
	Levels bench.Levels
	// IterTime is the full run's iteration time; a run following the plan
	// must use the same, since the plan counts iterations of that length.
	IterTime  time.Duration
	Metric    Metric
	Threshold float64
	Bootstrap stats.Bootstrap
	Seed      uint64
	// MinForks is Options.MinForks of the optimisation; 0 or 1 when no
	// minimum beyond MinMeasurements applied.
	MinForks int
	// Instances is the number of instances (machines) of the full run,
	// each measured in Levels; 0 means 1, as in a plan from before
	// instances were a level.
	Instances int
	// Benchmarks holds one entry per benchmark, each key once.
	Benchmarks []PlanBenchmark
}

// A PlanBenchmark is one benchmark's configuration in a Plan.
type PlanBenchmark struct {
	Key    bench.Key
	Levels bench.Levels
	// Instances is the number of instances to measure the benchmark on,
	// each in Levels; 0 means 1.
	Instances int
	// Metric is the stability metric of the configuration in the full run,
	// NaN if it was not finite.
	Metric float64
	// Stable is false when no configuration was stable and Levels is the
	// full configuration.
	Stable bool
}

// Validate reports the first problem that makes p unusable: a format-level
// setting out of range, a benchmark without a name, a level that is not
// positive or larger than the full run's, or a benchmark given twice.
func (p *Plan) Validate() error {
	if err := p.Levels.Validate(); err != nil {
		return fmt.Errorf("full run: %w", err)
	}
	if p.IterTime < 0 {
		return fmt.Errorf("iteration time %v is negative", p.IterTime)
	}
	if !p.Metric.valid() {
		return fmt.Errorf("unknown stability metric %v", p.Metric)
	}
	if !(p.Threshold > 0) || math.IsInf(p.Threshold, 1) {
		return fmt.Errorf("threshold %v: want a positive number", p.Threshold)
	}
	if p.Metric.bootstrapped() && !(p.Bootstrap.Level > 0 && p.Bootstrap.Level < 1 && p.Bootstrap.Replicates >= 1) {
		return fmt.Errorf("bootstrap of %v replicates at level %v: want at least 1 at a level in (0,1)", p.Bootstrap.Replicates, p.Bootstrap.Level)
	}
	if p.Instances < 0 || p.Instances > maxInstances {
		return fmt.Errorf("full run: %d instances: want between 1 and %d", p.Instances, maxInstances)
	}
	if len(p.Benchmarks) == 0 {
		return errors.New("no benchmarks")
	}
	seen := make(map[bench.Key]int, len(p.Benchmarks))
	for k, b := range p.Benchmarks {
		if b.Key.Name == "" {
			return fmt.Errorf("benchmark %d: no name", k+1)
		}
		if b.Key.Procs < 0 {
			return fmt.Errorf("benchmark %d (%s): procs %d is negative", k+1, b.Key, b.Key.Procs)
		}
		if err := b.Levels.Validate(); err != nil {
			return fmt.Errorf("benchmark %d (%s): %w", k+1, b.Key, err)
		}
		if !b.Levels.Within(p.Levels) {
			return fmt.Errorf("benchmark %d (%s): levels %v exceed the full run's %v", k+1, b.Key, b.Levels, p.Levels)
		}
		if b.Instances < 0 || max(1, b.Instances) > max(1, p.Instances) {
			return fmt.Errorf("benchmark %d (%s): %d instances: want between 1 and the full run's %d", k+1, b.Key, b.Instances, max(1, p.Instances))
		}
		if first, ok := seen[b.Key]; ok {
			return fmt.Errorf("benchmark %d (%s): duplicate of benchmark %d", k+1, b.Key, first)
		}
		seen[b.Key] = k + 1
	}
	return nil
}

// maxInstances bounds a plan's instances: more machines than this under
// one label is a mistake in the file.
const maxInstances = 100_000

// MaxInstances returns the most instances any benchmark of the plan asks
// for, at least 1.
func (p *Plan) MaxInstances() int {
	n := 1
	for _, b := range p.Benchmarks {
		n = max(n, b.Instances)
	}
	return n
}

// InstanceNote returns what a run of the plan on one machine must say when
// the plan asks for several instances, or "" when it asks for one: a run
// measures the machine it runs on, and the instances are that many runs on
// as many machines, gathered under one label.
func (p *Plan) InstanceNote() string {
	n := p.MaxInstances()
	if n < 2 {
		return ""
	}
	many := 0
	for _, b := range p.Benchmarks {
		if b.Instances > 1 {
			many++
		}
	}
	return fmt.Sprintf("the plan asks for up to %d instances (%d of %d benchmarks on more than one); this run measures one: "+
		"run it on %d machines under one -label, each with its own -instance, and analyse them together", n, many, len(p.Benchmarks), n)
}

// Lookup returns the configuration of the benchmark with key k.
func (p *Plan) Lookup(k bench.Key) (PlanBenchmark, bool) {
	for _, b := range p.Benchmarks {
		if b.Key == k {
			return b, true
		}
	}
	return PlanBenchmark{}, false
}

// The JSON form of a plan; docs/formats.md specifies it.
type (
	planJSON struct {
		Format     string            `json:"format"`
		Levels     *levelsJSON       `json:"levels"`
		IterTime   string            `json:"iter_time"`
		Metric     string            `json:"metric"`
		Threshold  float64           `json:"threshold"`
		Bootstrap  *bootstrapJSON    `json:"bootstrap"`
		Seed       uint64            `json:"seed"`
		MinForks   int               `json:"min_forks"`
		Benchmarks []json.RawMessage `json:"benchmarks"`
	}
	levelsJSON struct {
		Instances int `json:"instances,omitempty"` // only when more than one
		S         int `json:"s"`
		I         int `json:"i"`
		D         int `json:"d"`
	}
	bootstrapJSON struct {
		Level      float64 `json:"level"`
		Replicates int     `json:"replicates"`
	}
	planBenchmarkJSON struct {
		Pkg       string   `json:"pkg"`
		Name      string   `json:"name"`
		Procs     int      `json:"procs"`
		Instances int      `json:"instances,omitempty"` // only when more than one
		S         int      `json:"s"`
		I         int      `json:"i"`
		D         int      `json:"d"`
		Metric    *float64 `json:"metric"`
		Stable    bool     `json:"stable"`
	}
)

// multi returns n when it is more than 1 and 0 otherwise: the JSON forms
// omit an instance count of one, so that a plan or report of one instance
// reads as it did before instances were a level.
func multi(n int) int {
	if n > 1 {
		return n
	}
	return 0
}

// levelsWith returns the JSON form of l on n instances.
func levelsWith(n int, l bench.Levels) levelsJSON {
	return levelsJSON{multi(n), l.SuiteRuns, l.Forks, l.Iterations}
}

// WritePlan writes p as JSON, one line per benchmark so that plans diff
// well. It refuses a plan that does not Validate.
func WritePlan(w io.Writer, p *Plan) error {
	if err := p.Validate(); err != nil {
		return fmt.Errorf("writing plan: %w", err)
	}
	head := struct {
		Format    string        `json:"format"`
		Levels    levelsJSON    `json:"levels"`
		IterTime  string        `json:"iter_time"`
		Metric    string        `json:"metric"`
		Threshold float64       `json:"threshold"`
		Bootstrap bootstrapJSON `json:"bootstrap"`
		Seed      uint64        `json:"seed"`
		MinForks  int           `json:"min_forks,omitempty"`
	}{
		PlanFormat,
		levelsWith(p.Instances, p.Levels),
		p.IterTime.String(),
		p.Metric.String(),
		p.Threshold,
		bootstrapJSON{p.Bootstrap.Level, p.Bootstrap.Replicates},
		p.Seed,
		p.MinForks,
	}
	h, err := json.MarshalIndent(head, "", "  ")
	if err != nil {
		return fmt.Errorf("writing plan: %w", err)
	}
	bw := bufio.NewWriter(w)
	bw.Write(h[:len(h)-2]) // up to the closing "\n}"
	bw.WriteString(",\n  \"benchmarks\": [\n")
	for k, b := range p.Benchmarks {
		e := planBenchmarkJSON{
			Pkg: b.Key.Package, Name: b.Key.Name, Procs: b.Key.Procs, Instances: multi(b.Instances),
			S: b.Levels.SuiteRuns, I: b.Levels.Forks, D: b.Levels.Iterations,
			Stable: b.Stable,
		}
		if !math.IsNaN(b.Metric) && !math.IsInf(b.Metric, 0) {
			e.Metric = &b.Metric
		}
		line, err := json.Marshal(e)
		if err != nil {
			return fmt.Errorf("writing plan: benchmark %s: %w", b.Key, err)
		}
		bw.WriteString("    ")
		bw.Write(line)
		if k < len(p.Benchmarks)-1 {
			bw.WriteByte(',')
		}
		bw.WriteByte('\n')
	}
	bw.WriteString("  ]\n}\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing plan: %w", err)
	}
	return nil
}

// WritePlanFile writes p to the file at path (WritePlan), written aside
// and renamed into place (internal/outfile), so that a failed write leaves
// the plan that was there before.
func WritePlanFile(path string, p *Plan) error {
	return outfile.Write(path, func(w io.Writer) error { return WritePlan(w, p) })
}

// ReadPlanFile reads the plan in the file at path.
func ReadPlanFile(path string) (*Plan, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadPlan(f, path)
}

// ReadPlan reads a plan written by WritePlan from r; name is the file name
// used in errors. Reading is strict, since a plan decides what later runs
// measure: a field the format does not define, a missing setting, trailing
// data, or a plan that does not Validate is an error naming the file and,
// where there is one, the benchmark.
func ReadPlan(r io.Reader, name string) (*Plan, error) {
	p, err := readPlan(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return p, nil
}

func readPlan(r io.Reader) (*Plan, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var pj planJSON
	if err := dec.Decode(&pj); err != nil {
		return nil, fmt.Errorf("not a plan: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the plan")
	}
	switch {
	case pj.Format == "":
		return nil, errors.New(`no "format"; not a plan`)
	case pj.Format != PlanFormat:
		return nil, fmt.Errorf("format %q: this mbench reads %q", pj.Format, PlanFormat)
	case pj.Levels == nil:
		return nil, errors.New(`no "levels" of the full run`)
	case pj.Metric == "":
		return nil, errors.New(`no "metric"`)
	case pj.Bootstrap == nil:
		return nil, errors.New(`no "bootstrap"`)
	case pj.IterTime == "":
		return nil, errors.New(`no "iter_time"`)
	}
	p := &Plan{
		Levels:    bench.Levels{SuiteRuns: pj.Levels.S, Forks: pj.Levels.I, Iterations: pj.Levels.D},
		Threshold: pj.Threshold,
		Bootstrap: stats.Bootstrap{Level: pj.Bootstrap.Level, Replicates: pj.Bootstrap.Replicates},
		Seed:      pj.Seed,
		MinForks:  pj.MinForks,
		Instances: pj.Levels.Instances,
	}
	var err error
	if p.IterTime, err = time.ParseDuration(pj.IterTime); err != nil {
		return nil, fmt.Errorf("iter_time: %w", err)
	}
	if p.Metric, err = ParseMetric(pj.Metric); err != nil {
		return nil, err
	}
	for k, raw := range pj.Benchmarks {
		d := json.NewDecoder(bytes.NewReader(raw))
		d.DisallowUnknownFields()
		var bj planBenchmarkJSON
		if err := d.Decode(&bj); err != nil {
			return nil, fmt.Errorf("benchmark %d: %w", k+1, err)
		}
		b := PlanBenchmark{
			Key:       bench.Key{Package: bj.Pkg, Name: bj.Name, Procs: bj.Procs},
			Levels:    bench.Levels{SuiteRuns: bj.S, Forks: bj.I, Iterations: bj.D},
			Instances: bj.Instances,
			Metric:    math.NaN(),
			Stable:    bj.Stable,
		}
		if bj.Metric != nil {
			b.Metric = *bj.Metric
		}
		p.Benchmarks = append(p.Benchmarks, b)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return p, nil
}
