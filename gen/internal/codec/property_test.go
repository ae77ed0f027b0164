package codec

import (
	"bytes"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

type level int8

type leaf struct {
	On    bool
	n     level
	w     uint16
	f     float32
	Label string
}

type tree struct {
	Val      float64
	c        complex128
	kids     []*tree
	leaves   map[leaf]string
	byName   map[string]*leaf
	pair     [2]*leaf
	raw      []byte
	hook     func()
	anything any
}

// The types the property tests generate values of.
var propertyTypes = []reflect.Type{
	reflect.TypeFor[int64](),
	reflect.TypeFor[[]float64](),
	reflect.TypeFor[map[int32][]string](),
	reflect.TypeFor[[3]complex64](),
	reflect.TypeFor[leaf](),
	reflect.TypeFor[*tree](),
	reflect.TypeFor[[]map[string]*leaf](),
	reflect.TypeFor[map[[2]uint8]*int](),
}

// A generator makes random values of a type; pointers of one type are
// sometimes reused, so that values share them and form cycles.
type generator struct {
	r    *rand.Rand
	ptrs map[reflect.Type][]reflect.Value
}

var specialFloats = []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64, math.SmallestNonzeroFloat64, 1.0 / 3, -2.5e-300}

func (g *generator) value(t reflect.Type, depth int) reflect.Value {
	v := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.Bool:
		v.SetBool(g.r.IntN(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x := int64(g.r.Uint64())
		if g.r.IntN(3) == 0 {
			x = int64(g.r.IntN(10)) - 5
		}
		v.SetInt(x >> (64 - t.Bits()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(g.r.Uint64() >> (64 - t.Bits()))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(g.float())
	case reflect.Complex64, reflect.Complex128:
		v.SetComplex(complex(g.float(), g.float()))
	case reflect.String:
		b := make([]byte, g.r.IntN(6))
		for i := range b {
			b[i] = "ab\xff\x00é\""[g.r.IntN(7)]
		}
		v.SetString(string(b))
	case reflect.Slice:
		if g.r.IntN(5) == 0 {
			return v // nil
		}
		n := g.r.IntN(4)
		if depth > 3 {
			n = 0
		}
		s := reflect.MakeSlice(t, n, n)
		for i := 0; i < n; i++ {
			s.Index(i).Set(g.value(t.Elem(), depth+1))
		}
		v.Set(s)
	case reflect.Array:
		for i := 0; i < t.Len(); i++ {
			v.Index(i).Set(g.value(t.Elem(), depth+1))
		}
	case reflect.Map:
		if g.r.IntN(5) == 0 {
			return v
		}
		m := reflect.MakeMap(t)
		n := g.r.IntN(4)
		if depth > 3 {
			n = 0
		}
		for i := 0; i < n; i++ {
			m.SetMapIndex(g.value(t.Key(), depth+1), g.value(t.Elem(), depth+1))
		}
		v.Set(m)
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			field(v, i).Set(g.value(t.Field(i).Type, depth+1))
		}
	case reflect.Pointer:
		old := g.ptrs[t]
		switch {
		case len(old) > 0 && g.r.IntN(3) == 0:
			return old[g.r.IntN(len(old))]
		case g.r.IntN(4) == 0 || depth > 4:
			return v // nil
		}
		p := reflect.New(t.Elem())
		g.ptrs[t] = append(g.ptrs[t], p)
		p.Elem().Set(g.value(t.Elem(), depth+1))
		v.Set(p)
	}
	// Interfaces and funcs stay nil: only nil ones can be recorded.
	return v
}

func (g *generator) float() float64 {
	if g.r.IntN(2) == 0 {
		return specialFloats[g.r.IntN(len(specialFloats))]
	}
	return g.r.NormFloat64() * math.Pow(10, float64(g.r.IntN(40)-20))
}

func TestPropertyRoundTrip(t *testing.T) {
	g := &generator{r: rand.New(rand.NewPCG(1, 2))}
	for i := 0; i < 400; i++ {
		for _, typ := range propertyTypes {
			g.ptrs = map[reflect.Type][]reflect.Value{}
			v := g.value(typ, 0).Interface()
			data, back := roundTrip(t, v)

			// Encoding is deterministic.
			if again, _ := Encode(v); !bytes.Equal(again, data) {
				t.Fatalf("%v: two encodings differ:\n%s\n%s", typ, data, again)
			}

			// A clone is equal and encodes the same, shared pointers
			// included.
			c := reflect.New(typ)
			p := reflect.New(typ)
			p.Elem().Set(reflect.ValueOf(v))
			Clone(c.Interface(), p.Interface())
			if d := Diff(v, c.Elem().Interface()); d != "" {
				t.Fatalf("%v: clone of %s differs: %s", typ, data, d)
			}
			if cd, _ := Encode(c.Elem().Interface()); !bytes.Equal(cd, data) {
				t.Fatalf("%v: clone encodes as\n%s\nnot\n%s", typ, cd, data)
			}

			// Equal agrees with reflect.DeepEqual on values without
			// floats, where the two define equality alike.
			if typ == reflect.TypeFor[map[[2]uint8]*int]() || typ == reflect.TypeFor[int64]() {
				if Equal(v, back) != reflect.DeepEqual(v, back) {
					t.Fatalf("%v: Equal and DeepEqual disagree on %s", typ, data)
				}
			}
		}
	}
}

// TestPropertyDiffFindsChange checks that changing one random integer in a
// value makes Diff report a difference.
func TestPropertyDiffFindsChange(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 200; i++ {
		xs := make([][]int, 1+r.IntN(4))
		for j := range xs {
			xs[j] = make([]int, 1+r.IntN(5))
			for k := range xs[j] {
				xs[j][k] = r.IntN(100)
			}
		}
		var ys [][]int
		Clone(&ys, &xs)
		if d := Diff(xs, ys); d != "" {
			t.Fatalf("clone differs: %s", d)
		}
		j := r.IntN(len(ys))
		k := r.IntN(len(ys[j]))
		ys[j][k]++
		want := "[" + itoa(j) + "][" + itoa(k) + "]: " + itoa(xs[j][k]) + " != " + itoa(ys[j][k])
		if d := Diff(xs, ys); d != want {
			t.Fatalf("Diff = %q, want %q", d, want)
		}
	}
}

func itoa(i int) string { return string(appendInt(nil, i)) }

func appendInt(b []byte, i int) []byte {
	if i >= 10 {
		b = appendInt(b, i/10)
	}
	return append(b, byte('0'+i%10))
}
