package optimize

// kth rearranges x so that x[k] is its k-th smallest value (0-based), with no
// larger value before it and no smaller one after it, and returns x[k]. It
// is Hoare's selection with a median-of-three pivot and a three-way
// partition, so that the many ties of median replicates cost nothing extra;
// expected O(len(x)). x must not contain NaN.
func kth(x []float64, k int) float64 {
	lo, hi := 0, len(x)-1
	for lo < hi {
		p := median3(x[lo], x[lo+(hi-lo)/2], x[hi])
		// Dijkstra's partition: x[lo:lt] < p, x[lt:i] == p, x[gt+1:hi+1] > p.
		lt, i, gt := lo, lo, hi
		for i <= gt {
			switch v := x[i]; {
			case v < p:
				x[lt], x[i] = v, x[lt]
				lt++
				i++
			case v > p:
				x[i], x[gt] = x[gt], v
				gt--
			default:
				i++
			}
		}
		switch {
		case k < lt:
			hi = lt - 1
		case k > gt:
			lo = gt + 1
		default:
			return x[k]
		}
	}
	return x[k]
}

// median3 returns the middle one of a, b, c.
func median3(a, b, c float64) float64 {
	if a > b {
		a, b = b, a
	}
	if b > c {
		b = c
	}
	if a > b {
		return a
	}
	return b
}

// quantile7 returns the p-quantile of x by R's type 7 definition with the
// arithmetic of stats.Quantile, so that the result is the same to the bit,
// but by selection instead of sorting. It reorders x. x must be non-empty
// and free of NaN.
func quantile7(x []float64, p float64) float64 {
	h := float64(len(x)-1) * p
	lo := int(h)
	f := h - float64(lo)
	a := kth(x, lo)
	if f == 0 || lo+1 >= len(x) {
		return a
	}
	// After the selection x[lo+1:] holds exactly the values ranked above
	// lo; the next order statistic is their minimum.
	b := x[lo+1]
	for _, v := range x[lo+2:] {
		if v < b {
			b = v
		}
	}
	if a == b {
		return a
	}
	return (1-f)*a + f*b
}
