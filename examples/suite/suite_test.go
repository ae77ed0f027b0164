package suite

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

func BenchmarkConcat(b *testing.B) {
	b.Run("plus", func(b *testing.B) {
		for b.Loop() {
			ConcatPlus(100)
		}
	})
	b.Run("builder", func(b *testing.B) {
		for b.Loop() {
			ConcatBuilder(100)
		}
	})
}

func BenchmarkEncode(b *testing.B) {
	r := &Record{ID: 7, Name: "example", Tags: []string{"a", "b", "c"}, Attrs: map[string]string{"k": "v", "x": "y"}}
	for b.Loop() {
		if _, err := Encode(r); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSort(b *testing.B) {
	// The input is made once, outside the timed loop, and sorted as a
	// copy, so that every iteration sorts the same unsorted data.
	xs := rand.New(rand.NewPCG(1, 2)).Perm(1000)
	for b.Loop() {
		SortCopy(xs)
	}
}

func BenchmarkContains(b *testing.B) {
	xs := rand.New(rand.NewPCG(3, 4)).Perm(256)
	m := make(map[int]struct{}, len(xs))
	for _, x := range xs {
		m[x] = struct{}{}
	}
	for _, impl := range []string{"linear", "map"} {
		b.Run(impl, func(b *testing.B) {
			i := 0
			for b.Loop() {
				x := xs[i%len(xs)]
				i++
				if impl == "linear" {
					ContainsLinear(xs, x)
				} else {
					ContainsMap(m, x)
				}
			}
		})
	}
}

func BenchmarkItoa(b *testing.B) {
	for b.Loop() {
		strconv.Itoa(123456789)
	}
}
