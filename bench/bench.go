// Package bench is mbench's data model: what a benchmark is (Key), what one
// timed iteration produced (Measurement) and where it sits in the experiment
// (Coord), and the metadata of a set of measurements (Run).
//
// The model is a superset of the Go benchmark format
// (golang.org/design/14313-benchmark-format): every result line of
// `go test -bench` output is a Measurement whose coordinates are unknown
// (all zero), and every Measurement of the measurement phase can be written
// back as a result line that benchstat reads. Coordinates, phases and
// timestamps, which the text format has no place for, travel in mbench's
// JSON Lines format (see docs/formats.md) and in the result store.
package bench

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// A Key identifies a benchmark: the package it lives in, its full name with
// sub-benchmark parts, and the GOMAXPROCS it ran with.
type Key struct {
	// Package is the import path from the "pkg" configuration key, or ""
	// when the input did not say.
	Package string
	// Name is the full name without the "Benchmark" prefix and without the
	// GOMAXPROCS suffix, e.g. "Decode/size=small".
	Name string
	// Procs is the GOMAXPROCS suffix of the name, or 0 when the name had
	// none (as `go test` prints it when GOMAXPROCS is 1).
	Procs int
}

// FullName returns the name as `go test` prints it: "Benchmark" + Name, with
// "-Procs" when Procs is not 0.
func (k Key) FullName() string {
	if k.Procs == 0 {
		return "Benchmark" + k.Name
	}
	return fmt.Sprintf("Benchmark%s-%d", k.Name, k.Procs)
}

// String returns the key in a compact, human-readable form:
// "pkg.Name-Procs", or just "Name-Procs" when the package is unknown.
func (k Key) String() string {
	s := strings.TrimPrefix(k.FullName(), "Benchmark")
	if k.Package == "" {
		return s
	}
	return k.Package + "." + s
}

// Compare orders keys by package, name, then GOMAXPROCS.
func (k Key) Compare(o Key) int {
	if c := strings.Compare(k.Package, o.Package); c != 0 {
		return c
	}
	if c := strings.Compare(k.Name, o.Name); c != 0 {
		return c
	}
	return k.Procs - o.Procs
}

// A Phase says whether an iteration was discarded as warm-up or kept.
type Phase uint8

const (
	// Measure marks a measurement iteration. It is the zero value, so that
	// results read from plain `go test -bench` output count as measurements.
	Measure Phase = iota
	// Warmup marks a warm-up iteration, which analyses leave out.
	Warmup
)

func (p Phase) String() string {
	switch p {
	case Measure:
		return "measure"
	case Warmup:
		return "warmup"
	}
	return fmt.Sprintf("Phase(%d)", uint8(p))
}

// ParsePhase parses the String form of a Phase.
func ParsePhase(s string) (Phase, error) {
	switch s {
	case "measure", "":
		return Measure, nil
	case "warmup":
		return Warmup, nil
	}
	return 0, fmt.Errorf("unknown phase %q (want measure or warmup)", s)
}

// A Coord places a measurement in the experiment: which version of the code
// was measured, on which instance (machine), in which suite run, in which
// fork (process), which iteration of that fork, and in which phase. Results
// read from `go test -bench` output have zero coordinates except Iteration,
// which counts results of one benchmark in input order.
type Coord struct {
	// Version labels the version of the code measured ("old", "new", a
	// commit) when one run measures several versions side by side, as an
	// A/B session or `mbench run old=old.test new=new.test` does, so that
	// the versions' measurements of one benchmark stay apart. It is ""
	// when a run measures a single version, which the run's own Label
	// then names.
	Version   string
	Instance  string
	SuiteRun  int
	Fork      int
	Iteration int
	Phase     Phase
}

// ForkID identifies the process a measurement came from. Measurements with
// equal ForkIDs share a process and are not independent of each other.
// The version is part of it because two versions are two test binaries:
// forks of different versions never share a process, even when their
// suite run and fork numbers are equal.
type ForkID struct {
	Version  string
	Instance string
	SuiteRun int
	Fork     int
}

// ForkID returns the fork part of c.
func (c Coord) ForkID() ForkID {
	return ForkID{c.Version, c.Instance, c.SuiteRun, c.Fork}
}

// A Value is one metric of a measurement.
type Value struct {
	// Value and Unit are in tidy form (golang.org/x/perf/benchunit.Tidy):
	// time is in "sec/op", for example, never "ns/op".
	Value float64
	Unit  string
	// OrigValue and OrigUnit are the value as the input wrote it, when it
	// differed from the tidy form. They let writers reproduce the input.
	OrigValue float64
	OrigUnit  string
}

// A Config is one configuration key of a measurement, in the sense of the Go
// benchmark format ("goos: linux").
type Config struct {
	Key, Value string
}

// A Measurement is one iteration: N operations of one benchmark timed together.
type Measurement struct {
	Key   Key
	Coord Coord
	// N is the number of operations (b.N) of the iteration.
	N      int
	Values []Value
	// Start and End bound the iteration on the wall clock; both are zero
	// when the input did not record them.
	Start, End time.Time
	// Config is the configuration in force for this measurement, without
	// the "pkg" key (which is Key.Package). Readers share one slice among
	// consecutive measurements with the same configuration; treat it as
	// read-only.
	Config []Config
}

// Get returns the value of m in the given tidy unit.
func (m *Measurement) Get(unit string) (float64, bool) {
	for _, v := range m.Values {
		if v.Unit == unit {
			return v.Value, true
		}
	}
	return 0, false
}

// A UnitMeta is one piece of unit metadata ("Unit ns/op better=lower").
type UnitMeta struct {
	Unit  string // tidy unit
	Key   string // "better", "assume", ...
	Value string
}

// A Run is a set of measurements taken together, with what is known about
// how and where they were taken. Fields that are unknown are zero.
type Run struct {
	// ID identifies the run in a store; Label names it for people
	// ("main", "HEAD", "old"). Both may be empty for runs read from files.
	ID    string
	Label string

	Commit string
	Dirty  bool
	// Platform is where the run measured. Its fields are promoted:
	// r.Toolchain, r.GOOS, r.CPU, ...
	Platform
	Start time.Time
	End   time.Time
	// Settings records how the run was configured (criterion, iteration
	// time, ...), as flag-like key/value pairs.
	Settings map[string]string
	// Benchmarks lists the benchmarks the run set out to measure in the
	// order they were found, the order of the source, when the run
	// knows it (mbench run, ab); nil otherwise. A run that interleaves its
	// benchmarks in a random order measures them in another, so Keys
	// takes this order first.
	Benchmarks []Key

	Units        []UnitMeta
	Measurements []Measurement
}

// Better reports whether higher (+1) or lower (-1) values of unit are better,
// from the run's unit metadata, and 0 when the metadata does not say.
// Time, bytes and allocations per op are lower-is-better by definition; rates
// ending in "/s" are higher-is-better.
func (r *Run) Better(unit string) int {
	for _, u := range r.Units {
		if u.Unit == unit && u.Key == "better" {
			switch u.Value {
			case "higher":
				return +1
			case "lower":
				return -1
			}
		}
	}
	return DefaultBetter(unit)
}

// DefaultBetter is the direction of improvement of the units `go test`
// itself reports, and of mbench duet's CPU time per op: time, CPU time,
// memory and allocations per op are lower-is-better, throughput ("B/s") is
// higher-is-better. Other units return 0 (unknown).
func DefaultBetter(unit string) int {
	switch {
	case unit == "sec/op", unit == "cpu-sec/op", unit == "B/op", unit == "allocs/op":
		return -1
	case strings.HasSuffix(unit, "/s"):
		return +1
	}
	return 0
}

// UnitsUsed returns the distinct tidy units of the run's measurements, in order
// of first appearance.
func (r *Run) UnitsUsed() []string {
	var units []string
	for i := range r.Measurements {
		for _, v := range r.Measurements[i].Values {
			if !slices.Contains(units, v.Unit) {
				units = append(units, v.Unit)
			}
		}
	}
	return units
}

// Keys returns the distinct keys of the run's measurements in the order
// of r.Benchmarks, and those it does not list in order of first
// appearance: the order `go test` ran and printed them in, which is the
// order of the source and of sub-benchmarks' parameters (size=15, 40, 512,
// 1kB), and the order benchstat lists them in. Tables list benchmarks
// this way, never sorted by name, which would put 1kB before 40.
func (r *Run) Keys() []Key {
	seen := make(map[Key]bool)
	var keys []Key
	for i := range r.Measurements {
		k := r.Measurements[i].Key
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	if len(r.Benchmarks) == 0 {
		return keys
	}
	pos := make(map[Key]int, len(r.Benchmarks))
	for i, k := range r.Benchmarks {
		if _, ok := pos[k]; !ok {
			pos[k] = i
		}
	}
	rank := func(k Key) int {
		if i, ok := pos[k]; ok {
			return i
		}
		return len(r.Benchmarks)
	}
	slices.SortStableFunc(keys, func(a, b Key) int { return rank(a) - rank(b) })
	return keys
}

// Versions returns the distinct versions (Coord.Version) of the run's
// measurements in order of first appearance: one "" for a run of a single
// version, the labels of the versions for a run that measured several side
// by side. Analyses that compare benchmarks by key take one version at a
// time (see Version), since the same benchmark of two versions is two
// different things measured.
//
// The versions come in the order the run's SettingVersions gives, when it
// has one, and otherwise in the order they were first measured.
func (r *Run) Versions() []string {
	var versions []string
	for i := range r.Measurements {
		if v := r.Measurements[i].Coord.Version; !slices.Contains(versions, v) {
			versions = append(versions, v)
		}
	}
	var order []string
	if json.Unmarshal([]byte(r.Settings[SettingVersions]), &order) == nil && len(order) > 0 {
		rank := func(v string) int {
			if i := slices.Index(order, v); i >= 0 {
				return i
			}
			return len(order)
		}
		slices.SortStableFunc(versions, func(a, b string) int { return rank(a) - rank(b) })
	}
	return versions
}

// Version returns the part of r that measured version v: a Run with r's
// metadata, Label set to v (or left as r's when v is "", the version of a
// run that measured one), and the measurements whose Coord.Version is v,
// in their order. The result shares r's Settings, Units and measurement
// values, so treat them as read-only; its Measurements slice is its own.
// It has no measurements when v is not among r.Versions().
//
// Labelling the part by its version lets a run that measured old and new
// be compared as two runs, "old" against "new".
func (r *Run) Version(v string) *Run {
	out := *r
	if v != "" {
		out.Label = v
	}
	out.Measurements = nil
	for i := range r.Measurements {
		if r.Measurements[i].Coord.Version == v {
			out.Measurements = append(out.Measurements, r.Measurements[i])
		}
	}
	return &out
}
