package stop

import (
	"math"
	"math/rand/v2"
)

// settling is a warm-up that decays 2.0, 1.5, 1.25 and then stays at 1.0
// within ±0.1% (a fixed pattern, so every statistic is reproducible by hand).
func settling(n int) []float64 {
	v := []float64{2.0, 1.5, 1.25}
	pat := []float64{0, 1, -1, 0.5, -0.5}
	for i := 0; len(v) < n; i++ {
		v = append(v, 1+0.001*pat[i%5])
	}
	return v[:n]
}

// drifting grows by 10% every iteration and never settles.
func drifting(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = math.Pow(1.1, float64(i))
	}
	return v
}

// noisy20 is stationary but very noisy: 1 ± 20% (Gaussian), seeded.
func noisy20(n int) []float64 {
	r := rand.New(rand.NewPCG(7, 7))
	v := make([]float64, n)
	for i := range v {
		v[i] = 1 + 0.2*r.NormFloat64()
	}
	return v
}

func constantSeries(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = 42
	}
	return v
}

// forkPattern is the within-fork spread of the fork helpers, ±0.1%.
var forkPattern = []float64{0, 1, -1, 0.5, -0.5, 0.25, -0.25, 0.75, -0.75, 0.1}

// agreeing returns the measurements of fork i of a benchmark whose forks
// agree: the same ten values around 1.0, in a different order per fork.
func agreeing(i int) []float64 {
	v := make([]float64, 10)
	for j := range v {
		v[j] = 1 + 0.001*forkPattern[(j+3*i)%10]
	}
	return v
}

// disagreeingMeans are the fork means of a benchmark whose forks keep
// disagreeing, each further from 1.0 than the ones before.
var disagreeingMeans = []float64{1.0, 1.2, 0.8, 1.5, 0.5}

func disagreeing(i int) []float64 {
	v := make([]float64, 10)
	for j := range v {
		v[j] = disagreeingMeans[i%len(disagreeingMeans)] * (1 + 0.001*forkPattern[j])
	}
	return v
}

func forksOf(gen func(int) []float64, f int) [][]float64 {
	forks := make([][]float64, f)
	for i := range forks {
		forks[i] = gen(i)
	}
	return forks
}

// simulate runs ctl as a runner would, with warm(fork, i) and meas(fork, i)
// as the values of warm-up and measurement iteration i (from 0) of fork
// fork (from 0), and returns the report.
func simulate(ctl *Controller, warm, meas func(fork, i int) float64) Report {
	for f := 0; ctl.NeedFork(); f++ {
		ctl.StartFork()
		for i := 0; ctl.WantWarmup(); i++ {
			ctl.Warmup(warm(f, i), Unmeasured)
		}
		for i := 0; ctl.Measure(meas(f, i)); i++ {
		}
		ctl.EndFork()
	}
	return ctl.Report()
}

// series returns a warm-up or measurement function that gives every fork
// the values of s (forks ignored).
func series(s []float64) func(fork, i int) float64 {
	return func(_, i int) float64 { return s[i] }
}

// perFork returns a function giving fork f the values gen(f).
func perFork(gen func(int) []float64) func(fork, i int) float64 {
	return func(f, i int) float64 { return gen(f)[i] }
}

func mustNew(name string, o Options) Criterion {
	c, err := New(name, o)
	if err != nil {
		panic(err)
	}
	return c
}
