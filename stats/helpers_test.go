package stats

import (
	"math"
	"math/rand/v2"
)

// newRand returns a generator with a fixed seed, so every test is
// reproducible.
func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x6d62656e6368))
}

// timings returns n lognormal values around level with relative spread cv,
// the shape of benchmark timings.
func timings(r *rand.Rand, n int, level, cv float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = level * math.Exp(cv*r.NormFloat64())
	}
	return x
}

// forks returns g groups of m timings whose level varies from group to
// group by relative spread between, with relative spread within inside a
// group.
func forks(r *rand.Rand, g, m int, level, between, within float64) [][]float64 {
	out := make([][]float64, g)
	for i := range out {
		out[i] = timings(r, m, level*math.Exp(between*r.NormFloat64()), within)
	}
	return out
}

// scaleAll returns c·x without modifying x.
func scaleAll(x []float64, c float64) []float64 {
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = c * v
	}
	return y
}

// scaleGroups returns c·groups without modifying groups.
func scaleGroups(groups [][]float64, c float64) [][]float64 {
	out := make([][]float64, len(groups))
	for i, g := range groups {
		out[i] = scaleAll(g, c)
	}
	return out
}
