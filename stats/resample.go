package stats

import (
	"math/rand/v2"
	"slices"
)

// pool is one side of a bootstrap: the data laid out once per call so that
// each replicate only draws indices and accumulates, allocating nothing.
//
// Replicates never materialise the resample. A draw of value i adds it to a
// running sum (for the mean) or increments the count of its rank in the
// sorted data (for the median); the median of a replicate is then found by
// one cumulative walk over the counts, O(N) without sorting. The bootstraps
// are written by hand around this so that the iid, two-level and block
// schemes share one allocation-free accumulator.
type pool struct {
	stat  Stat
	vals  []float64 // all values, group after group, in their original order
	start []int     // group g is vals[start[g]:start[g+1]]
	inst  []int     // instance k is groups inst[k]..inst[k+1]−1 (Nested only)

	// Median only.
	sorted []float64 // vals in ascending order
	rank   []int     // rank[i] is the index of vals[i] in sorted
	count  []int     // count[k] is how often sorted[k] was drawn this replicate

	sum float64 // sum of the values drawn this replicate (mean only)
	m   int     // number of values drawn this replicate
}

// newPool lays out groups for resampling with statistic s. It reports false
// if the data cannot be bootstrapped: fewer than two values in all, an empty
// group, or a NaN.
func newPool(groups [][]float64, s Stat) (*pool, bool) {
	n := 0
	for _, g := range groups {
		if len(g) == 0 || hasNaN(g) {
			return nil, false
		}
		n += len(g)
	}
	if n < 2 {
		return nil, false
	}
	p := &pool{
		stat:  s,
		vals:  make([]float64, 0, n),
		start: make([]int, 0, len(groups)+1),
	}
	for _, g := range groups {
		p.start = append(p.start, len(p.vals))
		p.vals = append(p.vals, g...)
	}
	p.start = append(p.start, n)
	if s == StatMedian {
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int {
			va, vb := p.vals[a], p.vals[b]
			switch {
			case va < vb:
				return -1
			case va > vb:
				return 1
			}
			return 0
		})
		p.sorted = make([]float64, n)
		p.rank = make([]int, n)
		p.count = make([]int, n)
		for k, i := range order {
			p.sorted[k] = p.vals[i]
			p.rank[i] = k
		}
	}
	return p, true
}

// groups returns the number of groups.
func (p *pool) groups() int { return len(p.start) - 1 }

// full returns the statistic of all values, the interval's center.
func (p *pool) full() float64 {
	if p.stat == StatMedian {
		return quantileSorted(p.sorted, 0.5)
	}
	return Mean(p.vals)
}

// draw adds vals[i] to the current replicate.
func (p *pool) draw(i int) {
	p.m++
	if p.stat == StatMedian {
		p.count[p.rank[i]]++
		return
	}
	p.sum += p.vals[i]
}

// value returns the statistic of the current replicate and resets it.
func (p *pool) value() float64 {
	m := p.m
	p.m = 0
	if p.stat == StatMean {
		v := p.sum / float64(m)
		p.sum = 0
		return v
	}
	// The median is the mean of the order statistics at 0-based ranks
	// (m−1)/2 and m/2, which coincide for odd m: R's median.
	k1, k2 := (m-1)/2, m/2
	var a, b float64
	cum := 0
	for k, c := range p.count {
		if c == 0 {
			continue
		}
		cum += c
		if k1 < cum && cum-c <= k1 {
			a = p.sorted[k]
		}
		if k2 < cum {
			b = p.sorted[k]
			break
		}
	}
	clear(p.count)
	if a == b {
		return a
	}
	return 0.5*a + 0.5*b
}

// iid draws one ordinary bootstrap replicate: len(vals) values uniformly
// with replacement, ignoring groups.
func (p *pool) iid(r *rand.Rand) float64 {
	n := len(p.vals)
	for range n {
		p.draw(r.IntN(n))
	}
	return p.value()
}

// hier draws one two-level replicate (Kalibera & Jones 2012; Ren et al. 2010):
// as many groups as there are, uniformly with replacement, and within each
// chosen group as many values as it has, uniformly with replacement.
func (p *pool) hier(r *rand.Rand) float64 {
	g := p.groups()
	for range g {
		j := r.IntN(g)
		lo, n := p.start[j], p.start[j+1]-p.start[j]
		for range n {
			p.draw(lo + r.IntN(n))
		}
	}
	return p.value()
}

// block draws one circular moving-block replicate of length len(vals):
// blocks of l consecutive values starting at uniform positions, wrapping
// from the end to the start, concatenated and cut to length.
func (p *pool) block(r *rand.Rand, l int) float64 {
	n := len(p.vals)
	for m := 0; m < n; {
		i := r.IntN(n)
		for j := 0; j < l && m < n; j++ {
			p.draw(i)
			m++
			if i++; i == n {
				i = 0
			}
		}
	}
	return p.value()
}
