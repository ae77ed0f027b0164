package run

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/stat"

	"github.com/mbench/mbench/stats"
)

// Shared machines and CI runners slow down one CPU at a time: for a tenth
// of a second to minutes, one CPU runs a quarter to twice as slow while
// another runs as usual (a neighbour of a virtual machine, a sibling
// hyperthread, throttling). Noise describes such interference from traces
// of fixed chunks of work run on every CPU at once (MeasureNoise), so that
// a user, and mbench, can tell how long a slow spell lasts, how much it
// costs and whether the CPUs share it.

// The rules of AnalyzeNoise, named so that the documentation and the text
// can quote them.
const (
	// noiseBaselineQuantile is the quantile of a CPU's chunk times taken
	// for its undisturbed speed: the fastest chunks, but not the very
	// fastest, which a single lucky chunk could set.
	noiseBaselineQuantile = 0.10
	// noiseSlowRatio is how much longer than the baseline a slow chunk
	// takes: above the few percent that timer interrupts and the
	// scheduler cost a quiet CPU.
	noiseSlowRatio = 1.10
	// noiseQuietFraction is the most chunks a quiet CPU may have slow.
	noiseQuietFraction = 0.02
	// noiseBin is the width of the time bins on which the CPUs' chunk
	// times are correlated: several chunks each, so that chunks of
	// different CPUs, which start at different moments, meet in one bin.
	noiseBin = 10 * time.Millisecond
)

// A Chunk is one chunk of a noise measurement's fixed work on one CPU.
type Chunk struct {
	// Start is when the chunk began, from the start of the measurement,
	// which is common to all CPUs; Time is how long it took.
	Start time.Duration `json:"start"`
	Time  time.Duration `json:"time"`
}

// A CPUTrace is the chunks one CPU ran, in the order it ran them.
type CPUTrace struct {
	CPU    int     `json:"cpu"`
	Chunks []Chunk `json:"chunks"`
}

// Noise is the interference a machine's CPUs suffered while each ran the
// same fixed chunks of work back to back, all CPUs at once.
//
// For each CPU, the baseline is the 10th percentile of its chunk times (R's
// quantile type 7), and a chunk is slow when it takes more than 1.10 times
// the baseline. A slow phase is a maximal run of consecutive slow chunks:
// one fast chunk ends it. It lasts from the start of its first chunk to the
// end of its last.
//
// Between two CPUs, the measurement is cut into bins of 10 ms on the clock
// common to all CPUs; each CPU's series is the mean time of the chunks that
// started in each bin, and the correlation is Pearson's r of the two
// series over the bins where both CPUs started a chunk.
//
// A value that the data cannot define (the lag-1 autocorrelation of a CPU
// whose chunks all took the same time, say) is 0, so that Noise always
// encodes as JSON.
type Noise struct {
	// Start is when the measurement began, zero when unknown.
	Start time.Time `json:"start,omitzero"`
	// Duration is how long the measurement ran: until the end of its last
	// chunk.
	Duration time.Duration `json:"duration"`
	// Work is the number of steps of the fixed work in each chunk,
	// calibrated for a chunk of about 1 ms on a quiet CPU; 0 when
	// unknown.
	Work int `json:"work,omitzero"`
	// CPUs describes each CPU, in the order of Traces.
	CPUs []CPUNoise `json:"cpus"`
	// CrossCorrelation holds the correlation of each pair of CPUs.
	CrossCorrelation []Correlation `json:"cross_correlation,omitzero"`
	// Traces are the chunks measured, nil when the noise was read from
	// the file SaveNoise writes, which leaves them out.
	Traces []CPUTrace `json:"traces,omitzero"`
}

// CPUNoise is the interference one CPU suffered.
type CPUNoise struct {
	CPU    int `json:"cpu"`
	Chunks int `json:"chunks"`
	// Baseline is the 10th percentile of the chunk times, the CPU's
	// undisturbed speed; Median their median.
	Baseline time.Duration `json:"baseline"`
	Median   time.Duration `json:"median"`
	// SlowFraction is the fraction of chunks that were slow, and
	// SlowFactor the median ratio of a slow chunk's time to the
	// baseline, 0 when no chunk was slow.
	SlowFraction float64 `json:"slow_fraction"`
	SlowFactor   float64 `json:"slow_factor"`
	// Phases is the number of slow phases; MedianPhase and LongestPhase
	// their median and longest duration.
	Phases       int           `json:"phases"`
	MedianPhase  time.Duration `json:"median_phase"`
	LongestPhase time.Duration `json:"longest_phase"`
	// Lag1 is the correlation of each chunk's time with the next's: near
	// 0 when slow chunks come alone, near 1 when they come in phases.
	Lag1 float64 `json:"lag1"`
}

// Quiet reports whether the CPU had fewer than 2% of its chunks slow.
func (c *CPUNoise) Quiet() bool {
	return c.SlowFraction < noiseQuietFraction
}

// A Correlation is Pearson's r of the chunk times of CPUs A and B on a
// common grid of Bins time bins.
type Correlation struct {
	A    int     `json:"a"`
	B    int     `json:"b"`
	R    float64 `json:"r"`
	Bins int     `json:"bins"`
}

// AnalyzeNoise describes the interference that traces show, one trace per
// CPU, each in the order its chunks ran. The result holds traces as its
// Traces.
func AnalyzeNoise(traces []CPUTrace) *Noise {
	n := &Noise{Traces: traces}
	for _, t := range traces {
		n.CPUs = append(n.CPUs, analyzeCPU(t))
		for _, c := range t.Chunks {
			n.Duration = max(n.Duration, c.Start+c.Time)
		}
	}
	bins := make([]map[int64]float64, len(traces))
	for i, t := range traces {
		bins[i] = binMeans(t.Chunks)
	}
	for i := range traces {
		for j := i + 1; j < len(traces); j++ {
			r, k := binCorrelation(bins[i], bins[j])
			n.CrossCorrelation = append(n.CrossCorrelation, Correlation{A: traces[i].CPU, B: traces[j].CPU, R: r, Bins: k})
		}
	}
	return n
}

func analyzeCPU(t CPUTrace) CPUNoise {
	c := CPUNoise{CPU: t.CPU, Chunks: len(t.Chunks)}
	if len(t.Chunks) == 0 {
		return c
	}
	x := make([]float64, len(t.Chunks))
	for i, ch := range t.Chunks {
		x[i] = float64(ch.Time)
	}
	base := stats.Quantile(x, noiseBaselineQuantile)
	c.Baseline = time.Duration(base)
	c.Median = time.Duration(stats.Median(x))
	if len(x) > 2 {
		c.Lag1 = orZero(stat.Correlation(x[:len(x)-1], x[1:], nil))
	}
	if !(base > 0) {
		// No speed to be slow against: chunks that took no time are no
		// measurement.
		return c
	}
	var ratios, phases []float64
	first := -1 // the first chunk of the slow phase under way, if any
	for i := range x {
		slow := x[i] > noiseSlowRatio*base
		if slow {
			ratios = append(ratios, x[i]/base)
			if first < 0 {
				first = i
			}
		}
		if first >= 0 && (!slow || i == len(x)-1) {
			last := i
			if !slow {
				last = i - 1
			}
			end := t.Chunks[last].Start + t.Chunks[last].Time
			phases = append(phases, float64(max(0, end-t.Chunks[first].Start)))
			first = -1
		}
	}
	c.SlowFraction = float64(len(ratios)) / float64(len(x))
	c.Phases = len(phases)
	if len(ratios) > 0 {
		c.SlowFactor = stats.Median(ratios)
		c.MedianPhase = time.Duration(stats.Median(phases))
		c.LongestPhase = time.Duration(slices.Max(phases))
	}
	return c
}

// binMeans returns the mean time of the chunks that started in each bin of
// noiseBin, by bin number. A map, not a slice over the whole span, so that
// a trace with absurd start times costs no more than its chunks.
func binMeans(chunks []Chunk) map[int64]float64 {
	sums := make(map[int64]float64)
	counts := make(map[int64]float64)
	for _, c := range chunks {
		b := int64(c.Start / noiseBin)
		sums[b] += float64(c.Time)
		counts[b]++
	}
	for b := range sums {
		sums[b] /= counts[b]
	}
	return sums
}

// binCorrelation returns Pearson's r of a and b over the bins both have,
// and the number of those bins; r is 0 with fewer than 3 bins or when
// either series is constant.
func binCorrelation(a, b map[int64]float64) (r float64, bins int) {
	var x, y []float64
	for _, k := range slices.Sorted(maps.Keys(a)) {
		if v, ok := b[k]; ok {
			x = append(x, a[k])
			y = append(y, v)
		}
	}
	if len(x) < 3 {
		return 0, len(x)
	}
	return orZero(stat.Correlation(x, y, nil)), len(x)
}

func orZero(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

// Quiet reports whether every CPU had fewer than 2% of its chunks slow. A
// nil Noise, never measured, is not quiet.
func (n *Noise) Quiet() bool {
	if n == nil || len(n.CPUs) == 0 {
		return false
	}
	for i := range n.CPUs {
		if !n.CPUs[i].Quiet() {
			return false
		}
	}
	return true
}

// Summary describes the noise in one line, e.g.
//
//	noise: cpu0 slow in 12% of chunks by ×1.31, in 9 phases of 0.4 s (longest 2.1 s); cpu1 quiet (slow 0.3%); between CPUs r=+0.05
func (n *Noise) Summary() string {
	if n == nil {
		return "noise: not measured"
	}
	var parts []string
	var quiet []int
	var quietMax float64
	for _, c := range n.CPUs {
		if c.Quiet() {
			quiet = append(quiet, c.CPU)
			quietMax = max(quietMax, c.SlowFraction)
			continue
		}
		parts = append(parts, fmt.Sprintf("cpu%d slow in %s of chunks by ×%.2f, %s", c.CPU, percent(c.SlowFraction), c.SlowFactor, c.phases()))
	}
	switch {
	case len(quiet) == 1:
		parts = append(parts, fmt.Sprintf("cpu%d quiet (slow %s)", quiet[0], percent(quietMax)))
	case len(quiet) > 1:
		parts = append(parts, fmt.Sprintf("cpus %s quiet (slow ≤ %s)", cpuRanges(quiet), percent(quietMax)))
	}
	if len(parts) == 0 {
		parts = append(parts, "no chunks measured")
	}
	if r := n.CrossCorrelation; len(r) > 0 {
		parts = append(parts, "between CPUs "+n.correlation())
	}
	return "noise: " + strings.Join(parts, "; ")
}

// phases describes the CPU's slow phases, as Summary and WriteText do.
func (c *CPUNoise) phases() string {
	if c.Phases == 1 {
		return "in 1 phase of " + shortDuration(c.LongestPhase)
	}
	return fmt.Sprintf("in %d phases of %s (longest %s)", c.Phases, shortDuration(c.MedianPhase), shortDuration(c.LongestPhase))
}

// correlation gives the CPUs' correlation: r for two CPUs, the mean and
// the range of the pairs' for more.
func (n *Noise) correlation() string {
	cc := n.CrossCorrelation
	if len(cc) == 1 {
		return "r=" + signed(cc[0].R)
	}
	rs := make([]float64, len(cc))
	for i, c := range cc {
		rs[i] = c.R
	}
	return fmt.Sprintf("r=%s on average (%s to %s over %d pairs)", signed(stat.Mean(rs, nil)), signed(slices.Min(rs)), signed(slices.Max(rs)), len(rs))
}

// WriteText describes the noise in plain language, for mbench doctor
// -noise.
func (n *Noise) WriteText(w io.Writer) error {
	var b strings.Builder
	if n == nil || len(n.CPUs) == 0 {
		b.WriteString("noise: not measured\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	var cpus []int
	for _, c := range n.CPUs {
		cpus = append(cpus, c.CPU)
	}
	fmt.Fprintf(&b, "noise of CPUs %s, measured for %s on all of them at once", cpuRanges(cpus), shortDuration(n.Duration))
	if n.Work > 0 {
		fmt.Fprintf(&b, " (chunks of %d steps of fixed work, about 1 ms each)", n.Work)
	}
	b.WriteString(":\n\n")
	for _, c := range n.CPUs {
		fmt.Fprintf(&b, "cpu%d: %d chunks, baseline %s (10th percentile), median %s\n", c.CPU, c.Chunks, shortDuration(c.Baseline), shortDuration(c.Median))
		switch {
		case c.Chunks == 0:
			b.WriteString("  no chunk measured\n")
			continue
		case c.Quiet():
			fmt.Fprintf(&b, "  quiet: %s of chunks slow (over %.2f × baseline)\n", percent(c.SlowFraction), noiseSlowRatio)
		default:
			fmt.Fprintf(&b, "  slow in %s of chunks (over %.2f × baseline), by ×%.2f (median of the slow chunks)\n", percent(c.SlowFraction), noiseSlowRatio, c.SlowFactor)
			fmt.Fprintf(&b, "  %s: runs of consecutive slow chunks\n", c.phases())
		}
		fmt.Fprintf(&b, "  lag-1 autocorrelation %s: %s\n", signed(c.Lag1), lag1Meaning(c.Lag1))
	}
	if len(n.CrossCorrelation) > 0 {
		fmt.Fprintf(&b, "\nbetween CPUs: %s (mean chunk times in %s bins)\n", n.correlation(), shortDuration(noiseBin))
	}
	b.WriteString("\n" + n.advice() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// lag1Meaning says what a lag-1 autocorrelation means for the chunk times.
func lag1Meaning(r float64) string {
	switch {
	case r >= 0.5:
		return "a chunk's time largely predicts the next's"
	case r >= 0.2:
		return "a chunk's time partly predicts the next's"
	default:
		return "a chunk's time says little about the next's"
	}
}

// advice says what the noise means for benchmarking on this machine.
func (n *Noise) advice() string {
	if n.Quiet() {
		return "The machine is quiet: no CPU was slow in 2% of its chunks or more."
	}
	var longest time.Duration
	for _, c := range n.CPUs {
		if !c.Quiet() {
			longest = max(longest, c.LongestPhase)
		}
	}
	s := fmt.Sprintf("Slow phases last up to %s: a fork or an A/B round shorter than that can run entirely in one, "+
		"so spread forks over time (mbench run interleaves them) and compare versions in interleaved rounds.", shortDuration(longest))
	if len(n.CrossCorrelation) > 0 {
		rs := make([]float64, len(n.CrossCorrelation))
		for i, c := range n.CrossCorrelation {
			rs[i] = c.R
		}
		if stat.Mean(rs, nil) < 0.5 {
			s += " The CPUs do not slow down together: two processes run at once on different CPUs " +
				"(mbench duet) see different interference, which pairing them does not cancel."
		}
	}
	return s
}

// signed prints a correlation with its sign and two decimals, +0.00 for
// one that rounds to zero from below.
func signed(r float64) string {
	s := strconv.FormatFloat(r, 'f', 2, 64)
	if s == "-0.00" {
		s = "0.00"
	}
	if !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s
}

// percent prints a fraction as a percentage with two significant digits,
// or as a whole percentage from 10% up.
func percent(f float64) string {
	p := 100 * f
	if p >= 10 {
		return strconv.FormatFloat(p, 'f', 0, 64) + "%"
	}
	return strconv.FormatFloat(p, 'f', 1, 64) + "%"
}

// shortDuration prints d to about two significant digits, in seconds from
// a tenth of a second up ("0.4 s", "2.1 s", "95 s") and in milliseconds
// or microseconds below ("40 ms", "0.98 ms", "3.5 µs").
func shortDuration(d time.Duration) string {
	s := d.Seconds()
	switch {
	case s >= 10:
		return strconv.FormatFloat(s, 'f', 0, 64) + " s"
	case s >= 0.1:
		return strconv.FormatFloat(s, 'f', 1, 64) + " s"
	case s >= 0.01:
		return strconv.FormatFloat(s*1e3, 'f', 0, 64) + " ms"
	case s >= 1e-4:
		return strconv.FormatFloat(s*1e3, 'g', 2, 64) + " ms"
	default:
		return strconv.FormatFloat(s*1e6, 'g', 2, 64) + " µs"
	}
}

// cpuRanges prints CPU numbers, ascending, as a list of ranges: "0-3,6".
func cpuRanges(cpus []int) string {
	var parts []string
	for i := 0; i < len(cpus); {
		j := i
		for j+1 < len(cpus) && cpus[j+1] == cpus[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", cpus[i], cpus[j]))
		} else {
			parts = append(parts, strconv.Itoa(cpus[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}
