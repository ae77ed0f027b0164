package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Divisive finds change points — places where a series steps to another
// level — with E-Divisive means (D. S. Matteson and N. A. James, "A
// nonparametric approach for multiple change point analysis of multivariate
// data", JASA 109(505), 2014), in the windowed form with which Apache Otava
// (formerly Hunter: M. Fleming et al., "Hunter: Using change point
// detection to hunt for performance regressions", ICPE 2023) and MongoDB
// (D. Daly et al., "The use of change point detection to identify software
// performance regressions in a continuous integration system", ICPE 2020)
// look for performance regressions in a benchmark's history.
//
// For a split of a segment into X = x[s:τ] (n values) and Y = x[τ:κ] (m
// values), the divergence statistic with exponent α = 1 is
//
//	q̂(X, Y) = 2/(m+n) Σᵢⱼ |Xᵢ − Yⱼ|
//	        − 2m/((m+n)(n−1)) Σ_{i<k} |Xᵢ − Xₖ|
//	        − 2n/((m+n)(m−1)) Σ_{j<k} |Yⱼ − Yₖ|
//
// (Matteson & James eq. 5: m·n/(m+n) times the empirical energy distance;
// a within term is 0 for a side of one value). A segment's candidate is the
// τ, over s < τ < κ ≤ end, of the largest q̂. The search is recursive
// bisection: the candidate with the largest q̂ over the current segments
// is tested, and if significant splits its segment, until a candidate is
// not. ChangePoints then follows Otava (otava/analysis.py, compute_change_points):
//
//  1. Split: the series is searched in windows of Window values moved
//     forward by half a window (or to the last change point found), at a
//     relaxed level (10·Alpha below 0.05), and the points found are pooled.
//  2. Merge: each point is tested again between its neighbours; while the
//     weakest has p > Alpha, or the smallest step |after/before − 1| is at
//     most MinChange, that point is removed and its two neighbours are
//     tested again.
//
// The significance test of a split is Student's two-sample t-test of the
// segment's values before against after (pooled variance, as Otava's
// default), or, with Permutations > 0, Matteson & James's permutation test:
// the values are shuffled within each segment, the largest q̂ found again,
// and p = (1 + #{q̂* ≥ q̂}) / (1 + Permutations). A permutation test cannot
// give p below 1/(1 + Permutations): at Alpha 0.001 it needs 999
// permutations, and costs that many times the search.
//
// Otava lets a segment be one value long (MinSize 0 or 1); a larger
// MinSize keeps a single outlying value from being split off as two steps,
// at the price of seeing a step only MinSize values after it.
//
// The t-test of a split chosen as the largest q̂ of many is
// anti-conservative: flat series of noise show a step at p 0.001 far more
// often than once in a thousand (TestChangePointsFlatLevel counts them).
// MinChange, a step too small to matter, is what keeps such noise out of a
// report; the permutation test accounts for the search.
//
// Adaptations: a window places a step near its end a value or two off, and
// the next window, which starts at that point, cannot correct it; so once
// merged, each change point is placed again at the largest q̂ of the
// segment between its neighbours, and the merge step repeated. Otava
// computes the t-test from standard deviations with the
// n denominator; this one uses n−1, the t-test's own. After a point is
// merged away Otava tests again the point after it and the one after that;
// this tests the two points whose segments changed, the one before and the
// one after.
//
// Cost: a segment of L values is searched in O(L²) from a table of
// two-dimensional prefix sums of |xᵢ − xⱼ|, so one search of a 50-value
// window takes some microseconds (see BenchmarkChangePoints).
type Divisive struct {
	// Alpha is the level at which a change point is significant.
	Alpha float64
	// Window is how many consecutive values are searched together; 0
	// searches the whole series at once.
	Window int
	// Permutations selects the permutation test with that many
	// permutations; 0 selects Student's t-test.
	Permutations int
	// MinSize is the fewest values a segment may have on either side of
	// a change point; 0 means 1, as in Otava.
	MinSize int
	// MinChange is the smallest relative step |after/before − 1| of the
	// segment means that the merge step keeps; 0 keeps every significant
	// step.
	MinChange float64
}

// DefaultDivisive is Otava's configuration: p 0.001, windows of 50, the
// t-test.
var DefaultDivisive = Divisive{Alpha: 0.001, Window: 50}

// A ChangePoint is a step in a series.
type ChangePoint struct {
	// Index is the first value after the step.
	Index int
	// Q is the divergence statistic q̂ of the split when it was found.
	Q float64
	// P is the significance of the step between its neighbouring change
	// points (or the ends of the series).
	P float64
	// Before and After are the means of the segments either side, up to
	// the neighbouring change points.
	Before, After float64
}

// Ratio returns After/Before, the step as a factor.
func (c ChangePoint) Ratio() float64 { return c.After / c.Before }

// ChangePoints returns the change points of x in increasing order of
// Index. r draws the permutations and may be nil when Permutations is 0.
// A series with fewer than three values, or holding NaN or ±Inf, has
// none. It panics on a level outside (0, 1), a negative window, number of
// permutations or MinChange, or a nil r that is needed.
func (d Divisive) ChangePoints(x []float64, r *rand.Rand) []ChangePoint {
	d.check(r)
	if len(x) < 3 {
		return nil
	}
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
	}
	a := &analysis{d: d, x: x, r: r, min: max(d.MinSize, 1)}
	cps := a.merge(a.split())
	// A step near the end of a window can be placed a value or two off
	// there; placed again between its final neighbours, on all the data,
	// it moves to where it is. Moving may change what merges.
	for range 3 {
		if !a.place(cps) {
			break
		}
		idx := make([]int, len(cps))
		for i, c := range cps {
			idx[i] = c.Index
		}
		cps = a.merge(idx)
	}
	return cps
}

// place moves each change point to the split of the segment between its
// neighbours with the largest q̂, and reports whether any moved.
func (a *analysis) place(cps []ChangePoint) bool {
	moved := false
	for i := range cps {
		lo, hi := 0, len(a.x)
		if i > 0 {
			lo = cps[i-1].Index
		}
		if i+1 < len(cps) {
			hi = cps[i+1].Index
		}
		best, q := cps[i].Index, a.whole.q(lo, cps[i].Index, hi)
		for t := lo + a.min; t+a.min <= hi; t++ {
			if v := a.whole.q(lo, t, hi); v > q {
				best, q = t, v
			}
		}
		if best != cps[i].Index {
			cps[i].Index, moved = best, true
		}
	}
	return moved
}

func (d Divisive) check(r *rand.Rand) {
	switch {
	case !(d.Alpha > 0 && d.Alpha < 1):
		panic(fmt.Sprintf("stats: change point level %v outside (0,1)", d.Alpha))
	case d.Window < 0 || d.Window == 1 || d.MinSize < 0 || d.Permutations < 0 || d.MinChange < 0 || math.IsNaN(d.MinChange):
		panic(fmt.Sprintf("stats: invalid change point settings %+v", d))
	case d.Permutations > 0 && r == nil:
		panic("stats: nil generator")
	}
}

// weakAlpha is Otava's relaxed level for the split step.
func weakAlpha(alpha float64) float64 {
	switch {
	case alpha < 0.05:
		return alpha * 10
	case alpha < 0.5:
		return alpha * 2
	}
	return alpha
}

// An analysis holds one series' scratch.
type analysis struct {
	d       Divisive
	x       []float64
	r       *rand.Rand
	whole   energy // the table of all of x, for the merge step
	perm    energy // tables of shuffled copies
	shuffle []float64
	min     int // MinSize, at least 1
}

// split is Otava's split step: windows searched at the relaxed level,
// their change points pooled.
func (a *analysis) split() []int {
	n := len(a.x)
	window, step := a.d.Window, a.d.Window/2
	if window == 0 {
		window, step = n, n
	}
	alpha := weakAlpha(a.d.Alpha)
	var found []int
	var e energy
	for start := 0; start < n; {
		end := min(start+window, n)
		e.fill(a.x[start:end])
		last := 0
		for _, i := range a.bisect(&e, a.x[start:end], alpha) {
			if !slices.ContainsFunc(found, func(f int) bool { return abs(f-(i+start)) < a.min }) {
				found = append(found, i+start)
			}
			last = max(last, i+start)
		}
		start = max(last, start+step)
	}
	slices.Sort(found)
	return found
}

// bisect is E-Divisive on z (whose table is e): the strongest candidate
// over the segments is split off while it is significant at alpha. It
// returns the change points' indexes into z.
func (a *analysis) bisect(e *energy, z []float64, alpha float64) []int {
	cps := []int{}
	for {
		bounds := segments(cps, len(z))
		best, tau, q := -1, 0, math.Inf(-1)
		for k := 0; k+1 < len(bounds); k++ {
			if t, v, ok := e.candidate(bounds[k], bounds[k+1], a.min); ok && v > q {
				best, tau, q = k, t, v
			}
		}
		if best < 0 {
			return cps
		}
		var p float64
		if a.d.Permutations > 0 {
			p = a.permutationP(z, bounds, q)
		} else {
			p = tTestP(z[bounds[best]:tau], z[tau:bounds[best+1]])
		}
		if p > alpha {
			return cps
		}
		cps = append(cps, tau)
		slices.Sort(cps)
	}
}

// segments returns the bounds 0, cps..., n of the segments cps cut [0, n)
// into.
func segments(cps []int, n int) []int {
	return append(append([]int{0}, cps...), n)
}

// merge is Otava's merge step over the change points idx of the whole
// series.
func (a *analysis) merge(idx []int) []ChangePoint {
	if len(idx) == 0 {
		return nil
	}
	a.whole.fill(a.x)
	cps := make([]ChangePoint, len(idx))
	for i := range idx {
		cps[i].Index = idx[i]
	}
	for i := range cps {
		a.assess(cps, i)
	}
	for len(cps) > 0 {
		weakest := 0
		for i := range cps {
			if cps[i].P > cps[weakest].P {
				weakest = i
			}
		}
		if cps[weakest].P <= a.d.Alpha {
			for i := range cps {
				if magnitude(cps[i]) < magnitude(cps[weakest]) {
					weakest = i
				}
			}
			if magnitude(cps[weakest]) > a.d.MinChange {
				return cps
			}
		}
		cps = slices.Delete(cps, weakest, weakest+1)
		if weakest > 0 {
			a.assess(cps, weakest-1)
		}
		if weakest < len(cps) {
			a.assess(cps, weakest)
		}
	}
	return nil
}

// magnitude is the relative size of a step; a step from a zero mean is
// infinite, none at all zero.
func magnitude(c ChangePoint) float64 {
	if c.Before == c.After {
		return 0
	}
	return math.Abs(c.After/c.Before - 1)
}

// assess computes the statistics of cps[i] between its neighbours.
func (a *analysis) assess(cps []ChangePoint, i int) {
	lo, hi := 0, len(a.x)
	if i > 0 {
		lo = cps[i-1].Index
	}
	if i+1 < len(cps) {
		hi = cps[i+1].Index
	}
	c := &cps[i]
	left, right := a.x[lo:c.Index], a.x[c.Index:hi]
	c.Before, c.After = Mean(left), Mean(right)
	c.Q = a.whole.q(lo, c.Index, hi)
	if a.d.Permutations > 0 {
		c.P = a.permutationP(a.x[lo:hi], []int{0, hi - lo}, c.Q)
	} else {
		c.P = tTestP(left, right)
	}
}

// permutationP is Matteson & James's permutation test of a split of z
// whose q̂ is q: the values are shuffled within each segment of bounds and
// the largest candidate q̂ found again.
func (a *analysis) permutationP(z []float64, bounds []int, q float64) float64 {
	a.shuffle = append(a.shuffle[:0], z...)
	s := a.shuffle
	over := 0
	for range a.d.Permutations {
		for k := 0; k+1 < len(bounds); k++ {
			seg := s[bounds[k]:bounds[k+1]]
			for i := len(seg) - 1; i > 0; i-- {
				j := a.r.IntN(i + 1)
				seg[i], seg[j] = seg[j], seg[i]
			}
		}
		a.perm.fill(s)
		best := math.Inf(-1)
		for k := 0; k+1 < len(bounds); k++ {
			if _, v, ok := a.perm.candidate(bounds[k], bounds[k+1], a.min); ok {
				best = max(best, v)
			}
		}
		if best >= q {
			over++
		}
	}
	return float64(1+over) / float64(1+a.d.Permutations)
}

// tTestP returns the two-sided p-value of Student's two-sample t-test with
// pooled variance (R: t.test(x, y, var.equal = TRUE)). It is 1 when there
// are too few values for a variance; when both sides have none it is 0 for
// different means and 1 for equal ones.
func tTestP(x, y []float64) float64 {
	n, m := float64(len(x)), float64(len(y))
	df := n + m - 2
	if n == 0 || m == 0 || df <= 0 {
		return 1
	}
	mx, my := Mean(x), Mean(y)
	ss := sumSquares(x, mx) + sumSquares(y, my)
	se := math.Sqrt(ss / df * (1/n + 1/m))
	if se == 0 || se < 1e-12*math.Max(math.Abs(mx), math.Abs(my)) {
		if mx == my {
			return 1
		}
		return 0
	}
	t := (my - mx) / se
	return 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.CDF(-math.Abs(t))
}

func sumSquares(x []float64, mean float64) float64 {
	s := 0.0
	for _, v := range x {
		s += (v - mean) * (v - mean)
	}
	return s
}

// energy is the table of prefix sums from which q̂ of any split of a
// sequence z is read in constant time:
//
//	P[a][b] = Σ_{i<a, j<b} |zᵢ − zⱼ|
//
// stored row-major in an (n+1)×(n+1) slice.
type energy struct {
	n int
	p []float64
}

// fill builds the table of z, reusing e's storage.
func (e *energy) fill(z []float64) {
	n := len(z)
	w := n + 1
	e.n = n
	e.p = slices.Grow(e.p[:0], w*w)[:w*w]
	clear(e.p[:w])
	for i := range n {
		row, prev := e.p[(i+1)*w:(i+2)*w], e.p[i*w:(i+1)*w]
		row[0] = 0
		run := 0.0
		for j := range n {
			run += math.Abs(z[i] - z[j])
			row[j+1] = prev[j+1] + run
		}
	}
}

// at returns P[a][b].
func (e *energy) at(a, b int) float64 { return e.p[a*(e.n+1)+b] }

// cross returns Σ |zᵢ − zⱼ| over i in [s, t), j in [t, k).
func (e *energy) cross(s, t, k int) float64 {
	return e.at(t, k) - e.at(s, k) - e.at(t, t) + e.at(s, t)
}

// within returns Σ |zᵢ − zⱼ| over pairs i < j in [a, b).
func (e *energy) within(a, b int) float64 {
	return (e.at(b, b) - 2*e.at(a, b) + e.at(a, a)) / 2
}

// q returns q̂(z[s:t], z[t:k]).
func (e *energy) q(s, t, k int) float64 {
	n, m := float64(t-s), float64(k-t)
	v := 2 / (m + n) * e.cross(s, t, k)
	if n > 1 {
		v -= 2 * m / ((m + n) * (n - 1)) * e.within(s, t)
	}
	if m > 1 {
		v -= 2 * n / ((m + n) * (m - 1)) * e.within(t, k)
	}
	return v
}

// candidate returns the τ of the largest q̂(z[s:τ], z[τ:κ]) over
// s+size ≤ τ ≤ κ−size, κ ≤ end, and that q̂; ok is false for a segment
// of fewer than 2·size values.
func (e *energy) candidate(s, end, size int) (tau int, q float64, ok bool) {
	q = math.Inf(-1)
	for t := s + size; t+size <= end; t++ {
		for k := t + size; k <= end; k++ {
			if v := e.q(s, t, k); v > q {
				tau, q = t, v
			}
		}
	}
	return tau, q, end-s >= 2*size
}

// EnergyQ returns q̂(x, y) of Divisive, computed directly from its
// definition in O((m+n)²). It is NaN when x or y is empty.
func EnergyQ(x, y []float64) float64 {
	n, m := float64(len(x)), float64(len(y))
	if n == 0 || m == 0 {
		return math.NaN()
	}
	var xy, xx, yy float64
	for _, a := range x {
		for _, b := range y {
			xy += math.Abs(a - b)
		}
	}
	for i := range x {
		for k := i + 1; k < len(x); k++ {
			xx += math.Abs(x[i] - x[k])
		}
	}
	for j := range y {
		for k := j + 1; k < len(y); k++ {
			yy += math.Abs(y[j] - y[k])
		}
	}
	v := 2 / (m + n) * xy
	if n > 1 {
		v -= 2 * m / ((m + n) * (n - 1)) * xx
	}
	if m > 1 {
		v -= 2 * n / ((m + n) * (m - 1)) * yy
	}
	return v
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}
