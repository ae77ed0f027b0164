package run

import (
	"bytes"
	"context"
	"errors"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/optimize"
)

// memStore is a Store in memory.
type memStore struct {
	runs     []*bench.Run
	settings map[string]string
	status   string
}

func (s *memStore) CreateRun(r *bench.Run) (string, error) {
	s.runs = append(s.runs, r)
	s.settings = make(map[string]string)
	return "r1", nil
}

func (s *memStore) Append(id string, ms ...bench.Measurement) error {
	s.runs[0].Measurements = append(s.runs[0].Measurements, ms...)
	return nil
}

func (s *memStore) SetSettings(id string, kv map[string]string) error {
	for k, v := range kv {
		s.settings[k] = v
	}
	return nil
}

func (s *memStore) Finish(id string, end time.Time, status string) error {
	s.status = status
	return nil
}

func TestJobCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(j *Job)
		want string // in the error
	}{
		{"cpuset huge range", func(j *Job) { j.CPUSet = "0-99999999" }, "CPU numbers go up to 1023"},
		{"cpuset huge number", func(j *Job) { j.CPUSet = "99999999999999999999" }, "not a number"},
		{"cpu zero", func(j *Job) { j.CPU = "0,2" }, "-cpu 0,2: 0 is below 1"},
		{"cpu huge", func(j *Job) { j.CPU = "1-5000" }, "-cpu"},
		{"forks", func(j *Job) { j.Config.ForksMin = 0 }, "ForksMin 0"},
		{"warm-up", func(j *Job) { j.Config.WarmupMin = -1 }, "WarmupMin -1"},
		{"iterations", func(j *Job) { j.Config.Measure = 0 }, "Measure 0"},
		{"iter", func(j *Job) { j.Config.IterTime = -time.Second }, "IterTime"},
		{"criterion", func(j *Job) { j.Criterion = "vibes" }, `Criterion "vibes"`},
		{"window", func(j *Job) { j.CriterionOptions.Window = 0 }, "Window 0"},
		{"cv NaN", func(j *Job) { j.CriterionOptions.CVThreshold = math.NaN() }, "CVThreshold NaN"},
		{"rciw Inf", func(j *Job) { j.CriterionOptions.RCIWThreshold = math.Inf(1) }, "RCIWThreshold +Inf"},
		{"kld NaN, other criterion", func(j *Job) { j.CriterionOptions.KLDThreshold = math.NaN() }, "KLDThreshold NaN"},
		{"timeout", func(j *Job) { j.ForkTimeout = -time.Second }, "ForkTimeout -1s"},
		{"rmit-min", func(j *Job) { j.MinPerSuiteRun = 0 }, "MinPerSuiteRun 0"},
		{"min-ops", func(j *Job) { j.MinOps = 0 }, "MinOps 0"},
		{"levels", func(j *Job) { j.Levels = "1,2" }, `Levels "1,2"`},
		{"levels and plan", func(j *Job) { j.Levels, j.Plan = "1,2,3", &optimize.Plan{} }, "Levels and Plan"},
		{"labels", func(j *Job) { j.Args = []string{"x=a.test", "x=b.test"} }, `label "x" names two test binaries`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := DefaultJob
			tc.edit(&j)
			err := j.Check()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Check() = %v, want an error with %q", err, tc.want)
			}
		})
	}
	if j := DefaultJob; j.Check() != nil {
		t.Errorf("the defaults do not check: %v", j.Check())
	}
}

// fixtureJob is a job on the fixture module with fast settings.
func fixtureJob(t *testing.T, st Store) Job {
	bin := fixture(t)
	j := DefaultJob
	j.Options = fastOptions()
	j.Args = []string{bin.Path}
	j.Build.Dir = bin.Dir
	j.Store = st
	return j
}

// TestPrepareRun runs a job in a fixed configuration, as mbench run -levels
// does: every measurement is stored and streamed as JSON, the run's
// settings and end are recorded, and -o gets the measurement iterations.
func TestPrepareRun(t *testing.T) {
	st := &memStore{}
	j := fixtureJob(t, st)
	j.Bench = "Sum|Loop"
	j.Levels = "2,1,3"
	j.Label = "fx"
	var js bytes.Buffer
	j.JSON = &js
	ctx := context.Background()
	p, err := Prepare(ctx, j)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Targets) != 2 || p.Versions != nil || p.ID != "r1" {
		t.Fatalf("prepared %d targets, versions %v, id %q", len(p.Targets), p.Versions, p.ID)
	}
	if h := p.Header(); !strings.HasPrefix(h, "run: r1 (label fx), 2 benchmarks, levels 2,1,3 ") {
		t.Errorf("header %q", h)
	}
	out, err := p.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	stored := st.runs[0].Measurements
	if out.Status != "complete" || st.status != "complete" || out.Stored != len(stored) || len(out.Warnings) > 0 {
		t.Errorf("status %q (stored %q), %d stored of %d, warnings %q", out.Status, st.status, out.Stored, len(stored), out.Warnings)
	}
	measured := 0
	for _, r := range out.Results {
		if StopCode(r) != "levels 2,1,3" {
			t.Errorf("%s stopped with %q", r.Target.Key, StopCode(r))
		}
		if st.settings[bench.StopSetting(r.Target.Key, r.Target.Version)] == "" {
			t.Errorf("no stop reason stored for %s", r.Target.Key)
		}
		if got, want := st.settings[bench.WarmupSetting(r.Target.Key, r.Target.Version)], r.Report.WarmupSummary(); got != want || !strings.HasPrefix(got, "fork") {
			t.Errorf("warm-up of %s stored as %q, want %q", r.Target.Key, got, want)
		}
		for _, m := range r.Measurements {
			if m.Coord.Phase == bench.Measure {
				measured++
			}
		}
	}
	// 2 suite runs × 1 fork × 3 iterations, each of 2 benchmarks.
	if measured != 12 {
		t.Errorf("%d measurement iterations, want 12", measured)
	}
	if s := st.runs[0].Settings; s[bench.SettingCriterion] != "levels" || s[bench.SettingLevels] != "2,1,3" || s[bench.SettingForksMax] != "" {
		t.Errorf("settings %v, want the levels in place of the criterion's", s)
	}
	fromJSON, _, err := bench.Read(&js, "json")
	if err != nil {
		t.Fatal(err)
	}
	if len(fromJSON.Measurements) != len(stored) || fromJSON.Label != "fx" {
		t.Errorf("JSON stream: %d measurements of run %q, stored %d", len(fromJSON.Measurements), fromJSON.Label, len(stored))
	}
	txt := filepath.Join(t.TempDir(), "out.txt")
	if err := out.WriteBenchfmt(txt); err != nil {
		t.Fatal(err)
	}
	fromText, _, err := bench.ReadFile(txt)
	if err != nil {
		t.Fatal(err)
	}
	if len(fromText.Measurements) != measured {
		t.Errorf("-o holds %d iterations, want the %d measured", len(fromText.Measurements), measured)
	}
}

// TestPreparePlan runs a job from a plan that knows one of its two
// benchmarks: the other runs the plan's full configuration, with a warning.
func TestPreparePlan(t *testing.T) {
	st := &memStore{}
	j := fixtureJob(t, st)
	j.Bench = "Sum|Loop"
	j.Plan = &optimize.Plan{Levels: bench.Levels{SuiteRuns: 1, Forks: 2, Iterations: 2}, IterTime: 3 * time.Millisecond,
		// At another GOMAXPROCS than the run's: found by name.
		Benchmarks: []optimize.PlanBenchmark{{Key: bench.Key{Package: "example.com/fixture", Name: "Sum", Procs: 64},
			Levels: bench.Levels{SuiteRuns: 1, Forks: 1, Iterations: 1}}}}
	j.PlanFile = "p.json"
	p, err := Prepare(context.Background(), j)
	if err != nil {
		t.Fatal(err)
	}
	// The machine may add warnings of its own (load, governor).
	var missing []string
	for _, w := range p.Warnings {
		if strings.Contains(w, "not in the plan p.json") {
			missing = append(missing, w)
		}
	}
	if len(missing) != 1 || !strings.Contains(missing[0], "fixture.Loop") {
		t.Errorf("warnings %q, want one that Loop is not in the plan", p.Warnings)
	}
	if s := st.runs[0].Settings; s[bench.SettingIter] != "3ms" || s[bench.SettingPlan] != "p.json" || s[bench.SettingCriterion] != "plan" {
		t.Errorf("settings %v, want the plan's", s)
	}
	out, err := p.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]string{}
	for _, r := range out.Results {
		codes[r.Target.Key.Name] = StopCode(r)
	}
	if codes["Sum"] != "levels 1,1,1" || !strings.HasPrefix(codes["Loop"], "levels 1,2,2") {
		t.Errorf("stop codes %v, want Sum's levels from the plan and Loop's the full run's", codes)
	}
}

// TestJobVersions runs two labelled test binaries, as
// 'mbench run old=old.test new=new.test' does: every measurement carries its
// binary's label as its version, in the store and in the -o file.
func TestJobVersions(t *testing.T) {
	st := &memStore{}
	j := fixtureJob(t, st)
	bin := j.Args[0]
	j.Args = []string{"old=" + bin, "new=" + bin}
	j.Bench = "Sum"
	p, err := Prepare(context.Background(), j)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Versions, []string{"old", "new"}) || !strings.Contains(p.Header(), "(label ") || !strings.Contains(p.Header(), ", versions old, new)") {
		t.Fatalf("versions %v, header %q", p.Versions, p.Header())
	}
	out, err := p.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	perVersion := map[string]int{}
	for _, m := range st.runs[0].Measurements {
		if m.Coord.Phase == bench.Measure {
			perVersion[m.Coord.Version]++
		}
	}
	// However the suite ran them, the stored run lists the versions in
	// the order they were given.
	if got := st.runs[0].Versions(); !slices.Equal(got, []string{"old", "new"}) {
		t.Errorf("stored versions %q, want old, new", got)
	}
	// 2 forks × 3 measurement iterations per version.
	if len(perVersion) != 2 || perVersion["old"] != 6 || perVersion["new"] != 6 {
		t.Errorf("stored measurement iterations per version %v, want 6 of old and of new", perVersion)
	}
	txt := filepath.Join(t.TempDir(), "out.txt")
	if err := out.WriteBenchfmt(txt); err != nil {
		t.Fatal(err)
	}
	r, _, err := bench.ReadFile(txt)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Versions(); !slices.Equal(got, []string{"old", "new"}) && !slices.Equal(got, []string{"new", "old"}) {
		t.Errorf("-o versions %q, want old and new", got)
	}
	// A binary that is not a file is named.
	j.Args = []string{filepath.Join(t.TempDir(), "nope.test")}
	if _, err := Prepare(context.Background(), j); err == nil || !strings.Contains(err.Error(), "nope.test: not a file") {
		t.Errorf("a missing test binary: %v", err)
	}
}

// TestRunInterrupted cancels a prepared run: the outcome holds what was
// measured, all of it stored, and the run ends interrupted.
func TestRunInterrupted(t *testing.T) {
	st := &memStore{}
	j := fixtureJob(t, st)
	j.Bench = "Sum|Loop"
	j.Config.ForksMin, j.Config.ForksMax = 50, 50
	ctx, cancel := context.WithCancel(context.Background())
	j.Sink = &cancelAfter{collect: &collect{}, n: 12, cancel: cancel}
	p, err := Prepare(ctx, j)
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.Run(ctx)
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err = %v, want ErrInterrupted", err)
	}
	kept := 0
	for _, r := range out.Results {
		kept += len(r.Measurements)
	}
	if out.Status != "interrupted" || st.status != "interrupted" || kept < 12 || kept != out.Stored || kept != len(st.runs[0].Measurements) {
		t.Errorf("status %q (stored %q), kept %d, stored %d", out.Status, st.status, kept, out.Stored)
	}
}

// TestNotes groups the notes of several benchmarks: each distinct one once,
// naming its benchmarks with their own figures.
func TestNotes(t *testing.T) {
	fast := func(name string) *Result {
		r := &Result{Target: &Target{Key: bench.Key{Package: "p", Name: name}}, N: 1000}
		for i := range 3 {
			r.Measurements = append(r.Measurements, bench.Measurement{Key: r.Target.Key, N: 1000,
				Coord:  bench.Coord{Iteration: i, Phase: bench.Measure},
				Values: []bench.Value{{Value: 0.1e-9, Unit: "sec/op"}}})
		}
		return r
	}
	groups := Notes([]*Result{fast("A"), fast("B")}, "sec/op", func(r *Result) string { return r.Target.Key.Name })
	if len(groups) == 0 {
		t.Fatal("no notes about implausibly fast benchmarks")
	}
	g := groups[0].String()
	if !strings.HasPrefix(g, "implausibly fast") || !strings.Contains(g, "in 2 benchmarks: A (0.1 ns/op), B (0.1 ns/op); ") {
		t.Errorf("note %q", g)
	}
	o := fastOptions()
	legend := StopLegend([]string{"levels 1,2,3", stopMax, "levels 2,2,2"}, &o)
	if len(legend) != 2 || legend[0].Code != stopMax || legend[1].Code != "levels S,I,D" {
		t.Errorf("legend %+v, want %q and the levels' one entry", legend, stopMax)
	}
}

// TestPrepareFailedBenchmark checks that a run in which a benchmark failed is
// stored as failed, with the other benchmarks' measurements kept.
func TestPrepareFailedBenchmark(t *testing.T) {
	st := &memStore{}
	j := fixtureJob(t, st)
	j.Bench = "Trouble|Sum"
	j.Levels = "1,1,2"
	t.Setenv("FIXTURE_TROUBLE", "fail-later")
	ctx := context.Background()
	p, err := Prepare(ctx, j)
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if out.Status != "failed" || st.status != "failed" {
		t.Errorf("status %q (stored %q), want failed", out.Status, st.status)
	}
	if out.Stored == 0 || out.Stored != len(st.runs[0].Measurements) {
		t.Errorf("%d stored, %d in the store: the benchmark that passed lost its measurements", out.Stored, len(st.runs[0].Measurements))
	}
}

// TestDiscoverFailure checks that a benchmark that fails while the
// benchmarks are listed is named, with the output that says why.
func TestDiscoverFailure(t *testing.T) {
	bin := fixture(t)
	t.Setenv("FIXTURE_TROUBLE", "fail")
	_, err := Discover(context.Background(), bin, "Trouble|Sum", nil, nil, time.Minute)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"BenchmarkTrouble", "failed when run once to list the benchmarks", "asked to fail"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}
