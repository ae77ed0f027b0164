package stop

import "slices"

// A memoizer is a Criterion that can remember statistics of its input's
// prefixes. NewController gives each Controller its own memoized copy, so
// the memo needs no lock and is never shared between benchmarks.
//
// Memoizing is invisible in the decisions: an entry is the statistic of one
// prefix of the input (KLD's p_x of the warm-up values v_1 … v_x; RCIW's
// width of forks 1..k, drawn from a random stream keyed by k), which the
// same prefix always reproduces, and the memo forgets everything as soon as
// an input is not an extension of the previous one. It exists to keep the
// checks cheap: a KLD warm-up check needs Window similarities over all warm-up
// values so far, of which all but the newest were computed by the previous
// checks, and an RCIW fork check needs the interval of forks 1..f−1, which
// the previous fork checkpoint computed.
type memoizer interface {
	memoized() Criterion
}

// prefixMemo remembers a statistic of each prefix of a series of items
// (values or forks), indexed by the prefix's length.
type prefixMemo[T any] struct {
	seen  []T
	stat  map[int]float64
	equal func(a, b T) bool
	clone func(T) T
}

func newValueMemo() *prefixMemo[float64] {
	return &prefixMemo[float64]{
		equal: func(a, b float64) bool { return a == b },
		clone: func(v float64) float64 { return v },
	}
}

func newForkMemo() *prefixMemo[[]float64] {
	return &prefixMemo[[]float64]{equal: slices.Equal[[]float64], clone: slices.Clone[[]float64]}
}

// sync makes the memo valid for items: it keeps the entries if items
// extends the series seen so far and drops them otherwise.
func (m *prefixMemo[T]) sync(items []T) {
	if len(items) < len(m.seen) || !slices.EqualFunc(items[:len(m.seen)], m.seen, m.equal) {
		m.seen, m.stat = m.seen[:0], nil
	}
	for _, it := range items[len(m.seen):] {
		m.seen = append(m.seen, m.clone(it))
	}
	if m.stat == nil {
		m.stat = make(map[int]float64)
	}
}

// get returns the entry for the prefix of length k, computing it with f
// if needed. A nil memo always computes.
func (m *prefixMemo[T]) get(k int, f func() float64) float64 {
	if m == nil {
		return f()
	}
	v, ok := m.stat[k]
	if !ok {
		v = f()
		m.stat[k] = v
	}
	return v
}
