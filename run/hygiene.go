package run

import (
	"debug/buildinfo"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/stats"
	"github.com/mbench/mbench/stop"
)

// Thresholds of the hygiene checks. Each is a plausibility bound from paper
// 002 (Sestoft, Microbenchmarks in Java and C#, §3 and §7), adapted to Go.
const (
	// implausibleOp: below about one nanosecond per op a modern CPU does
	// a handful of instructions at most; results like these usually mean
	// the compiler removed the work (§3.3, "dead code elimination").
	implausibleOp = 1e-9
	// slowFirst: a first iteration this many times slower than the median
	// of the rest says that start-up work (page faults, caches, lazy
	// initialisation) is being measured (§3.1).
	slowFirst = 1.5
	// noisyCV: iterations that vary by more than this coefficient of
	// variation make every conclusion weak.
	noisyCV = 0.10
	// timerResolution bounds what the clock can resolve; an iteration that
	// lasts under timerResolution*granularityFactor is dominated by
	// timer granularity (§3.5: "long enough to avoid problems with ...
	// clock resolution").
	timerResolution   = time.Microsecond
	granularityFactor = 1000
	// highBusy is the share of all CPUs' time other work may take before
	// the run starts without a warning (§7: shut down other programs). A
	// sample, not the load average: the load average still counts a
	// benchmark run that ended seconds ago.
	highBusy = 0.25
)

// PlatformWarnings checks the machine (Sestoft 2015 §7): frequency scaling and
// other load.
func PlatformWarnings(p Platform) []string {
	var w []string
	if p.Governor != "" && p.Governor != "performance" {
		w = append(w, fmt.Sprintf("CPU frequency governor is %q, not \"performance\": the clock speed may change during the run "+
			"(as root: cpupower frequency-set -g performance)", p.Governor))
	}
	if p.Busy > highBusy {
		w = append(w, fmt.Sprintf("other work keeps %.0f%% of the CPUs busy (load average %.2f on %d cores): it competes with the benchmarks; stop it or expect noise",
			100*p.Busy, p.Load, p.Cores))
	}
	return w
}

// BinaryWarnings checks how a test binary was built: the race detector,
// coverage and disabled optimisation make benchmarks measure something else.
func BinaryWarnings(path string, flags []string) []string {
	var w []string
	settings := map[string]string{}
	if bi, err := buildinfo.ReadFile(path); err == nil {
		for _, s := range bi.Settings {
			settings[s.Key] = s.Value
		}
	}
	gcflags := settings["-gcflags"]
	for _, f := range flags {
		if v, ok := strings.CutPrefix(f, "-gcflags="); ok {
			gcflags += " " + v
		}
	}
	if settings["-race"] == "true" {
		w = append(w, fmt.Sprintf("%s was built with -race: the race detector slows code 2-20x and changes what is measured", path))
	}
	if settings["-cover"] == "true" || settings["-covermode"] != "" {
		w = append(w, fmt.Sprintf("%s was built with coverage instrumentation: counters change what is measured", path))
	}
	if strings.Contains(gcflags, "-N") || strings.Contains(gcflags, "-l") {
		w = append(w, fmt.Sprintf("%s was built with -gcflags=%q: optimisation or inlining is disabled", path, strings.TrimSpace(gcflags)))
	}
	return w
}

// ResultWarnings checks one benchmark's measurements for implausible
// results (Sestoft 2015 §3). Each note reads the same for every benchmark it
// applies to, with the benchmark's own figure in Detail, so that a run
// prints it once for all of them.
func ResultWarnings(r *Result, metric string) []stop.Note {
	var w []stop.Note
	var measure, firsts, rest []float64
	for i := range r.Measurements {
		m := &r.Measurements[i]
		v, ok := m.Get(metric)
		if !ok {
			continue
		}
		if m.Coord.Phase == bench.Measure {
			measure = append(measure, v)
		}
		// A fork's first iteration holds its process's first op (see
		// MinOps): it counts only when measured, as without warm-up;
		// warm-up that discards it has done its work.
		if m.Coord.Iteration == 0 {
			if m.Coord.Phase == bench.Measure {
				firsts = append(firsts, v)
			}
		} else {
			rest = append(rest, v)
		}
	}
	if len(measure) == 0 {
		return nil
	}
	mean := stats.Mean(measure)
	if metric == "sec/op" && mean < implausibleOp {
		w = append(w, stop.Note{Problem: "implausibly fast: the compiler may have removed the work",
			Advice: "use the result, e.g. assign it to a package-level sink, or use b.Loop",
			Detail: fmt.Sprintf("%.3g ns/op", mean*1e9)})
	}
	if len(firsts) > 0 && len(rest) > 0 {
		if ratio := stats.Median(firsts) / stats.Median(rest); ratio > slowFirst {
			w = append(w, stop.Note{Problem: "the first iteration of a fork is much slower than the rest: start-up cost is in the measurement",
				Advice: "keep warm-up iterations (-wi-min 1 or more), or do one-time set-up before the timing starts: before b.ResetTimer in a b.N loop, before the loop with b.Loop",
				Detail: fmt.Sprintf("%.1fx", ratio)})
		}
	}
	if cv := stats.CV(measure); cv > noisyCV && !math.IsNaN(cv) {
		w = append(w, stop.Note{Problem: fmt.Sprintf("noisy results: iterations vary by more than %.0f%% (coefficient of variation)", 100*noisyCV),
			Advice: "look for interference, or lengthen -iter",
			Detail: fmt.Sprintf("%.0f%%", 100*cv)})
	}
	if metric == "sec/op" && r.N > 0 {
		if iter := time.Duration(mean * float64(r.N) * 1e9); iter < timerResolution*granularityFactor {
			w = append(w, stop.Note{Problem: "iterations last close to the clock's resolution",
				Advice: "lengthen -iter", Detail: iter.String()})
		}
	}
	return w
}
