package codec

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// benchValues are a slice of floats, as a segment's typical input, and a
// tree of pointers, maps and structs.
func benchValues() (xs []float64, tr *tree) {
	r := rand.New(rand.NewPCG(5, 6))
	xs = make([]float64, 1000)
	for i := range xs {
		xs[i] = r.NormFloat64()
	}
	g := &generator{r: r, ptrs: map[reflect.Type][]reflect.Value{}}
	tr = g.value(reflect.TypeFor[*tree](), 0).Interface().(*tree)
	return xs, tr
}

func BenchmarkEncodeFloats(b *testing.B) {
	xs, _ := benchValues()
	for b.Loop() {
		if _, err := Encode(xs); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeFloats(b *testing.B) {
	xs, _ := benchValues()
	data, _ := Encode(xs)
	var ys []float64
	for b.Loop() {
		if err := Decode(data, &ys); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCloneFloats(b *testing.B) {
	xs, _ := benchValues()
	var ys []float64
	for b.Loop() {
		Clone(&ys, &xs)
	}
}

func BenchmarkCloneTree(b *testing.B) {
	_, tr := benchValues()
	var c *tree
	for b.Loop() {
		Clone(&c, &tr)
	}
}

func BenchmarkEqualTree(b *testing.B) {
	_, tr := benchValues()
	var c *tree
	Clone(&c, &tr)
	for b.Loop() {
		if !Equal(tr, c) {
			b.Fatal("clone differs")
		}
	}
}
