package stop

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// noisy returns n values 1e6 ± 1% (Gaussian), seeded.
func noisy(n int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 0))
	v := make([]float64, n)
	for i := range v {
		v[i] = 1e6 * (1 + 0.01*r.NormFloat64())
	}
	return v
}

// noisyForks returns f forks of m noisy values each.
func noisyForks(f, m int) [][]float64 {
	forks := make([][]float64, f)
	for i := range forks {
		forks[i] = noisy(m, uint64(100+i))
	}
	return forks
}

// forget drops the memo entry a check of n items would add, so that each
// benchmark iteration pays what a Controller pays at that checkpoint: the
// newest statistic only.
func forget(c Criterion, n int) {
	switch c := c.(type) {
	case KLD:
		delete(c.memo.stat, n)
	case RCIW:
		delete(c.memo.stat, n)
	}
}

// BenchmarkCheck measures one checkpoint of each criterion at the sizes of
// the package comment. "cold" is a check without memo, as the first warm-up
// check of a fork pays it (after Window+1 = 6 values for CV and RCIW,
// Window+2 = 7 for KLD). "warmup-30" is a check after 30 values (wi_max) and
// "forks-10x10" the fork check over 10 forks × 10 iterations, both as a
// Controller pays them, the earlier prefixes memoized; "forks-5x10" is the
// fork check at DefaultConfig's f_max.
func BenchmarkCheck(b *testing.B) {
	for _, name := range []string{"cv", "rciw", "kld"} {
		c, err := New(name, DefaultOptions)
		if err != nil {
			b.Fatal(err)
		}
		first := DefaultOptions.Window + 1
		if name == "kld" {
			first++
		}
		v := noisy(first, 1)
		b.Run(fmt.Sprintf("%s/warmup-cold-%d", name, first), func(b *testing.B) {
			for b.Loop() {
				c.Warmup(v)
			}
		})
		m := c
		if mc, ok := c.(memoizer); ok {
			m = mc.memoized()
		}
		v = noisy(30, 1)
		m.Warmup(v)
		b.Run(name+"/warmup-30", func(b *testing.B) {
			for b.Loop() {
				forget(m, 30)
				m.Warmup(v)
			}
		})
		for _, f := range []int{5, 10} {
			forks := noisyForks(f, 10)
			m.Forks(forks)
			b.Run(fmt.Sprintf("%s/forks-%dx10", name, f), func(b *testing.B) {
				for b.Loop() {
					forget(m, f)
					m.Forks(forks)
				}
			})
		}
	}
}
