package scaling

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/stats"
	"golang.org/x/perf/benchunit"
)

// Options control Find. Start from DefaultOptions.
type Options struct {
	// Stat is the centre of each point: mean or median.
	Stat stats.Stat
	// Alpha is one minus the confidence level of the intervals.
	Alpha float64
	// Replicates is the number of bootstrap replicates.
	Replicates int
	// Seed makes the bootstrap reproducible.
	Seed uint64
	// MinPoints is the fewest distinct parameter values a family needs
	// to be fitted; fewer than 3 leave no check that the points lie on a
	// line at all.
	MinPoints int
}

// DefaultOptions are the settings of `mbench report`: the 99% intervals
// and 10,000 replicates of `mbench compare`.
var DefaultOptions = Options{
	Stat:       stats.StatMean,
	Alpha:      0.01,
	Replicates: 10000,
	Seed:       1,
	MinPoints:  3,
}

// TailPoints is the number of largest parameter values whose own slope
// Family.Tail reports.
const TailPoints = 3

// A Family is a set of benchmarks that share a name and differ in one
// numeric parameter at one position of the sub-benchmark path.
type Family struct {
	// Pkg, Procs and Version are shared by the family's benchmarks: the
	// package, GOMAXPROCS, and version of the code (Coord.Version, "" for
	// a run of one version).
	Pkg     string
	Procs   int
	Version string
	// Base is the top-level benchmark name ("Encode"); Param the
	// parameter's name ("size", "" for a bare number such as "/1024");
	// Variant the other parts of the sub-benchmark path, joined by "/"
	// ("json" for Encode/json/size=64, "" when there are none); Position
	// is the index of the parameter in the path split at "/" (Base is 0).
	Base, Param, Variant string
	Position             int
	// Unit is the metric the points measure, in tidy form.
	Unit string
	// Points are the benchmarks of the family in order of X.
	Points []Point
	// Slope is b of the least-squares fit log(y) = a + b·log(x) over all
	// points, with its bootstrap interval (see the package comment).
	// Lo and Hi are NaN when a point has too few values to resample, and
	// Center is NaN when a point's centre is not positive.
	Slope stats.Interval
	// Tail is the slope of the same fit over the TailPoints largest x,
	// with its interval; it equals Slope for a family of TailPoints.
	Tail stats.Interval
	// Curved reports that Slope and Tail differ beyond their bootstrap
	// uncertainty: the points do not lie on one line, and the slope over
	// all of them depends on the range measured (typically a fixed cost
	// that dominates the small sizes, or a cache boundary).
	Curved bool
}

// Name returns the family's name with "*" for the parameter's value, as
// its benchmarks spell the parameter: "Encode/json/size=*",
// "BinarySearch/Size*" or "IndexByte/*".
func (f *Family) Name() string {
	if len(f.Points) == 0 {
		return f.Base
	}
	parts := strings.Split(f.Points[0].Name, "/")
	if f.Position >= len(parts) {
		return f.Base
	}
	before, _, after := splitParam(parts[f.Position])
	parts[f.Position] = before + "*" + after
	return strings.Join(parts, "/")
}

// splitParam splits a name part that ParseParam accepts into the text that
// names the parameter before the value ("size=", "Size", ""), the value
// ("4KiB", "1024", "1k") and the name after it ("Valid" of "1kValid").
func splitParam(part string) (before, value, after string) {
	if i := strings.IndexByte(part, '='); i >= 0 {
		return part[:i+1], part[i+1:], ""
	}
	if i := strings.IndexAny(part, "0123456789"); i > 0 && isLetters(part[:i]) {
		return part[:i], part[i:], ""
	}
	if _, whole := parseNumber(part); whole {
		return "", part, ""
	}
	n := numberEnd(part)
	return "", part[:n], part[n:]
}

// A Point is one benchmark of a family.
type Point struct {
	// Name is the benchmark's full name without "Benchmark" and the
	// GOMAXPROCS suffix.
	Name string
	// X is the parameter's value.
	X float64
	// Center is the mean or median of the benchmark's measurements;
	// [Lo, Hi] its confidence interval (NaN when the data cannot support
	// one).
	Center, Lo, Hi float64
	// Forks is the number of processes measured; 1 for `go test -count`
	// output, whose interval rests on blocks of consecutive iterations.
	Forks int
}

// famKey identifies a family while Find collects them.
type famKey struct {
	pkg, version, base, param, variant string
	procs, position                    int
}

// Find returns the families of r's benchmarks in unit that have at least
// opts.MinPoints distinct parameter values, with each point's centre and
// interval and the family's fitted slope. Families come in the order in
// which their first benchmark appears in r, as benchstat orders its rows;
// points in order of X. A benchmark whose name has two numeric parts
// belongs to two families, one along each. A run that measured several
// versions side by side gives each version its own families.
//
// It returns an error for options out of range or a unit that no
// measurement of r has; a run without families gives none and no error.
func Find(r *bench.Run, unit string, opts Options) ([]*Family, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	_, unit = benchunit.Tidy(1, unit)
	if !slices.Contains(r.UnitsUsed(), unit) {
		return nil, fmt.Errorf("no measurement has %s (the run has %s)", unit, strings.Join(r.UnitsUsed(), ", "))
	}
	var fams []*Family
	for _, v := range r.Versions() {
		part := r
		if len(r.Versions()) > 1 {
			part = r.Version(v)
		}
		fams = append(fams, find(part, v, unit, opts)...)
	}
	return fams, nil
}

// validate reports the first option out of range.
func (o *Options) validate() error {
	switch {
	case !(o.Alpha > 0 && o.Alpha < 1):
		return fmt.Errorf("alpha %v: want a number between 0 and 1, e.g. 0.01", o.Alpha)
	case o.Replicates < 100 || o.Replicates > stats.MaxReplicates:
		return fmt.Errorf("reps %d: want between 100 and %d bootstrap replicates", o.Replicates, stats.MaxReplicates)
	case o.MinPoints < 3:
		return fmt.Errorf("min points %d: want at least 3", o.MinPoints)
	case o.Stat != stats.StatMean && o.Stat != stats.StatMedian:
		return fmt.Errorf("unknown statistic %v", o.Stat)
	}
	return nil
}

// find returns the families of one version's measurements.
func find(r *bench.Run, version, unit string, opts Options) []*Family {
	samples := r.Samples(unit)
	byKey := map[famKey]*Family{}
	var order []*Family
	seen := map[bench.Key]bool{}
	for i := range r.Measurements {
		k := r.Measurements[i].Key
		if seen[k] || samples[k] == nil {
			continue
		}
		seen[k] = true
		parts := strings.Split(k.Name, "/")
		for pos := 1; pos < len(parts); pos++ {
			name, x, ok := ParseParam(parts[pos])
			if !ok {
				continue
			}
			fk := famKey{
				pkg: k.Package, version: version, procs: k.Procs, base: parts[0], param: name, position: pos,
				variant: strings.Join(slices.Concat(parts[1:pos], parts[pos+1:]), "/"),
			}
			f := byKey[fk]
			if f == nil {
				f = &Family{Pkg: k.Package, Procs: k.Procs, Version: version, Base: fk.base,
					Param: name, Variant: fk.variant, Position: pos, Unit: unit}
				byKey[fk] = f
				order = append(order, f)
			}
			f.Points = append(f.Points, Point{Name: k.Name, X: x})
		}
	}
	var fams []*Family
	for _, f := range order {
		if distinctX(f.Points) < opts.MinPoints {
			continue
		}
		slices.SortStableFunc(f.Points, func(a, b Point) int { return cmp.Compare(a.X, b.X) })
		fams = append(fams, f)
	}
	// Families are fitted in parallel: each has its own random source
	// (see fit), so the results do not depend on the scheduling.
	var wg sync.WaitGroup
	work := make(chan *Family)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for f := range work {
				fit(f, samples, opts)
			}
		})
	}
	for _, f := range fams {
		work <- f
	}
	close(work)
	wg.Wait()
	return fams
}

// distinctX returns the number of distinct X among pts.
func distinctX(pts []Point) int {
	xs := make([]float64, len(pts))
	for i, p := range pts {
		xs[i] = p.X
	}
	slices.Sort(xs)
	return len(slices.Compact(xs))
}

// fit fills in the points' centres and intervals and the family's slopes.
// Its random source depends only on the seed and the family, so that a
// family's result does not depend on the others in the run.
func fit(f *Family, samples map[bench.Key]*bench.Sample, opts Options) {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%s\x00%d\x00%s\x00%d", f.Pkg, f.Version, f.Procs, f.Name(), f.Position)
	rng := rand.New(rand.NewPCG(opts.Seed, h.Sum64()))
	level := 1 - opts.Alpha

	k := len(f.Points)
	logx := make([]float64, k)
	center := make([]float64, k)
	reps := make([][]float64, k) // reps[j][b]: replicate b of point j
	minUnits := math.Inf(1)
	for j := range f.Points {
		p := &f.Points[j]
		s := samples[bench.Key{Package: f.Pkg, Name: p.Name, Procs: f.Procs}]
		p.Forks = len(s.Forks)
		all := s.All()
		p.Center, p.Lo, p.Hi = opts.Stat.Of(all), math.NaN(), math.NaN()
		logx[j], center[j] = math.Log(p.X), math.Log(p.Center)
		units := resampleUnits(s)
		minUnits = min(minUnits, float64(len(units)))
		reps[j] = replicates(units, opts.Stat, opts.Replicates, rng)
		if reps[j] == nil {
			continue
		}
		iv := percentile(p.Center, reps[j], level)
		iv = stats.Expand(iv, float64(len(units)))
		p.Lo, p.Hi = iv.Lo, iv.Hi
	}

	tail := k - TailPoints
	f.Slope = stats.Interval{Center: Slope(logx, center), Lo: math.NaN(), Hi: math.NaN(), Level: level}
	f.Tail = stats.Interval{Center: Slope(logx[tail:], center[tail:]), Lo: math.NaN(), Hi: math.NaN(), Level: level}
	if slices.ContainsFunc(reps, func(r []float64) bool { return r == nil }) || math.IsNaN(f.Slope.Center) {
		return
	}
	all := make([]float64, opts.Replicates)
	top := make([]float64, opts.Replicates)
	diff := make([]float64, opts.Replicates)
	y := make([]float64, k)
	for b := range all {
		for j := range y {
			y[j] = math.Log(reps[j][b])
		}
		all[b] = Slope(logx, y)
		top[b] = Slope(logx[tail:], y[tail:])
		diff[b] = top[b] - all[b]
	}
	// The slope is a linear combination of the points' log centres, each
	// resting on its own forks; widening by the fewest forks of any point
	// is the conservative reading of stats.Expand's argument.
	// With a single unit there is no t to widen by (stats.Expand leaves
	// such intervals alone too).
	w := 1.0
	if minUnits > 1 {
		w = stats.Expansion(minUnits, opts.Alpha)
	}
	f.Slope = widen(percentile(f.Slope.Center, all, level), w)
	f.Tail = widen(percentile(f.Tail.Center, top, level), w)
	if k > TailPoints {
		d := widen(percentile(f.Tail.Center-f.Slope.Center, diff, level), w)
		f.Curved = d.Lo > 0 || d.Hi < 0
	}
}

// widen stretches iv about its centre by the factor w, on the linear scale
// (a slope may be zero or negative, so stats.Expand's log scale does not
// apply).
func widen(iv stats.Interval, w float64) stats.Interval {
	if math.IsNaN(w) || math.IsInf(w, 0) || w < 1 {
		return iv
	}
	iv.Lo = iv.Center - w*(iv.Center-iv.Lo)
	iv.Hi = iv.Center + w*(iv.Hi-iv.Center)
	return iv
}

// Slope returns the least-squares slope of y on x,
//
//	b = Σ (x_i − x̄)(y_i − ȳ) / Σ (x_i − x̄)²
//
// (R: coef(lm(y ~ x))[2]; numpy.polyfit(x, y, 1)[0]). It is NaN when x has
// fewer than two distinct values or any value is NaN or infinite.
func Slope(x, y []float64) float64 {
	if len(x) != len(y) {
		panic("scaling: Slope of slices of different lengths")
	}
	mx, my := stats.Mean(x), stats.Mean(y)
	var sxy, sxx float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
	}
	b := sxy / sxx
	if sxx == 0 || math.IsInf(b, 0) {
		return math.NaN()
	}
	return b
}
