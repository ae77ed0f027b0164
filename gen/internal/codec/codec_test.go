package codec

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

type celsius float64

type inner struct {
	a    int8
	B    string
	note []byte
}

type key struct {
	a int8
	B string
}

type record struct {
	Name    string
	id      uint64
	temps   []celsius
	tags    map[string]int
	byKey   map[key]bool
	grid    [2][3]int16
	z       complex64
	when    *int64
	Inner   inner
	_       int
	missing map[int]*inner
}

// roundTrip encodes v, decodes it into a new value of its type, and checks
// the result equals v and encodes to the same bytes.
func roundTrip(t *testing.T, v any) (data []byte, back any) {
	t.Helper()
	data, err := Encode(v)
	if err != nil {
		t.Fatalf("Encode(%#v): %v", v, err)
	}
	p := reflect.New(reflect.TypeOf(v))
	if err := Decode(data, p.Interface()); err != nil {
		t.Fatalf("Decode(%s) into %T: %v", data, v, err)
	}
	back = p.Elem().Interface()
	if d := Diff(v, back); d != "" {
		t.Fatalf("round trip of %s: %s", data, d)
	}
	again, err := Encode(back)
	if err != nil {
		t.Fatalf("Encode(decoded): %v", err)
	}
	if !bytes.Equal(data, again) {
		t.Fatalf("encodings differ:\n%s\n%s", data, again)
	}
	return data, back
}

func TestEncodeReadable(t *testing.T) {
	when := int64(math.MinInt64)
	tests := []struct {
		v    any
		want string
	}{
		{int64(math.MaxInt64), `9223372036854775807`},
		{uint64(math.MaxUint64), `18446744073709551615`},
		{math.Copysign(0, -1), `-0`},
		{float32(0.1), `0.1`},
		{0.1, `0.1`},
		{1e21, `1e+21`},
		{math.NaN(), `"NaN"`},
		{math.Inf(-1), `"-Inf"`},
		{math.Float64frombits(0x7ff8000000000000), `"NaN(0x7ff8000000000000)"`},
		{complex(1, math.Inf(1)), `[1,"+Inf"]`},
		{"a\"b\n<é>", `"a\"b\n<é>"`},
		{"a\xffb", `{"quoted":"\"a\\xffb\""}`},
		{[]byte("hi"), `"aGk="`},
		{[]byte(nil), `null`},
		{[]int{}, `[]`},
		{[]int(nil), `null`},
		{map[string]int{"b": 2, "a": 1}, `{"a":1,"b":2}`},
		{map[string]int{"$x": 1}, `[["$x",1]]`},
		{map[int]string{10: "x", -1: "y", 2: "z"}, `[[-1,"y"],[10,"x"],[2,"z"]]`},
		{inner{a: -3, B: "b"}, `{"a":-3,"B":"b","note":null}`},
		{&when, `-9223372036854775808`},
		{struct{ F func() }{}, `{"F":null}`},
		{[2]bool{true, false}, `[true,false]`},
	}
	for _, tt := range tests {
		got, err := Encode(tt.v)
		if err != nil {
			t.Errorf("Encode(%#v): %v", tt.v, err)
			continue
		}
		if string(got) != tt.want {
			t.Errorf("Encode(%#v) = %s, want %s", tt.v, got, tt.want)
		}
		roundTrip(t, tt.v)
	}
}

func TestFloatBitsExact(t *testing.T) {
	for _, bits := range []uint64{0, 1 << 63, 0x7ff8000000000001, 0xfff8000000000000, 0x7ff0000000000001, math.Float64bits(math.SmallestNonzeroFloat64), math.Float64bits(math.MaxFloat64)} {
		f := math.Float64frombits(bits)
		var back float64
		data, _ := Encode(f)
		if err := Decode(data, &back); err != nil {
			t.Fatal(err)
		}
		if got := math.Float64bits(back); got != bits {
			t.Errorf("float64 %#x via %s came back %#x", bits, data, got)
		}
	}
	for _, bits := range []uint32{0, 1 << 31, 0x7fc00001, 0x7f800001, 0xffc00000, 1} {
		f := math.Float32frombits(bits)
		var back float32
		data, _ := Encode(f)
		if err := Decode(data, &back); err != nil {
			t.Fatal(err)
		}
		if got := math.Float32bits(back); got != bits {
			t.Errorf("float32 %#x via %s came back %#x", bits, data, got)
		}
	}
}

func TestStringsExact(t *testing.T) {
	for _, s := range []string{"", "\x00", "\xff\xfe", "é\xc3", "\u2028", "a\tb\\", string([]byte{0xed, 0xa0, 0x80})} {
		_, back := roundTrip(t, s)
		if back.(string) != s {
			t.Errorf("%q came back %q", s, back)
		}
	}
}

func TestRecordRoundTrip(t *testing.T) {
	when := int64(-7)
	r := record{
		Name:  "x\xff",
		id:    math.MaxUint64,
		temps: []celsius{celsius(math.NaN()), -0.0, 1.5},
		tags:  map[string]int{"a": 1, "": 0},
		byKey: map[key]bool{{a: 1}: true, {a: 2, B: "k"}: false},
		grid:  [2][3]int16{{1, 2, 3}, {-4, -5, math.MinInt16}},
		z:     complex(float32(math.Inf(1)), -1),
		when:  &when,
		Inner: inner{a: 1, note: []byte{}},
	}
	r.temps[1] = celsius(math.Copysign(0, -1))
	_, back := roundTrip(t, r)
	b := back.(record)
	if !math.Signbit(float64(b.temps[1])) {
		t.Errorf("-0 lost its sign")
	}
	if b.Inner.note == nil || b.missing != nil {
		t.Errorf("nil and empty not kept: note %v, missing %v", b.Inner.note, b.missing)
	}
	if *b.when != -7 || b.when == r.when {
		t.Errorf("pointer: got %v at %p, want a new -7", *b.when, b.when)
	}
}

type node struct {
	val  int
	next *node
}

func TestSharedAndCycles(t *testing.T) {
	a := &node{val: 1}
	b := &node{val: 2, next: a}
	a.next = b
	data, back := roundTrip(t, a)
	if want := `{"$id":1,"$v":{"val":1,"next":{"val":2,"next":{"$ref":1}}}}`; string(data) != want {
		t.Errorf("cycle encoded as %s, want %s", data, want)
	}
	c := back.(*node)
	if c.next.next != c || c == a {
		t.Errorf("cycle not rebuilt")
	}

	x := 5
	pair := struct{ P, Q, R *int }{&x, &x, new(int)}
	data, back = roundTrip(t, pair)
	if want := `{"P":{"$id":1,"$v":5},"Q":{"$ref":1},"R":0}`; string(data) != want {
		t.Errorf("shared pointer encoded as %s, want %s", data, want)
	}
	p := back.(struct{ P, Q, R *int })
	if p.P != p.Q || p.P == p.R {
		t.Errorf("sharing not kept: %p %p %p", p.P, p.Q, p.R)
	}

	// A pointer to a shared pointer is wrapped, so the inner id is not
	// taken for the outer pointer's.
	pp := struct {
		PP **int
		P  *int
	}{}
	pp.P = &x
	pp.PP = &pp.P
	data, back = roundTrip(t, pp)
	if want := `{"PP":{"$v":{"$id":1,"$v":5}},"P":{"$ref":1}}`; string(data) != want {
		t.Errorf("pointer to pointer encoded as %s, want %s", data, want)
	}
	if q := back.(struct {
		PP **int
		P  *int
	}); *q.PP != q.P {
		t.Errorf("inner pointer not shared")
	}
}

func TestMaps(t *testing.T) {
	m := map[float64]int{math.NaN(): 1, math.NaN(): 2, 0.5: 3}
	_, back := roundTrip(t, m)
	if n := len(back.(map[float64]int)); n != 3 {
		t.Errorf("NaN keys: %d entries, want 3", n)
	}
	roundTrip(t, map[string][]int{"\xff": {1}, "a": nil, "b": {}})
	roundTrip(t, map[[2]int]map[bool]string{{1, 2}: {true: "t"}, {0, 0}: nil})
	roundTrip(t, map[int]int(nil))
	roundTrip(t, map[int]int{})
	roundTrip(t, map[any]int{nil: 1})
}

func TestRefuse(t *testing.T) {
	var i any = 3
	p := 1
	tests := []struct {
		v    any
		want string
	}{
		{struct{ X []struct{ F func() } }{X: []struct{ F func() }{{}, {F: func() {}}}}, ".X[1].F (func()): cannot record a non-nil func"},
		{struct{ c chan int }{c: make(chan int)}, ".c (chan int): cannot record a non-nil chan"},
		{map[string]any{"k": i, "l": func() {}}, `["l"](func()) (func()): cannot record a non-nil func`},
		{struct{ U uintptr }{}, ".U (uintptr): cannot record a uintptr"},
		{unsafe.Pointer(&p), "value (unsafe.Pointer): cannot record a unsafe.Pointer"},
	}
	for _, tt := range tests {
		_, err := Encode(tt.v)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Encode(%T) = %v, want %q", tt.v, err, tt.want)
		}
	}

	type loop []loop
	l := loop{nil}
	l[0] = l
	if _, err := Encode(l); err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Errorf("Encode(a slice containing itself) = %v, want nested too deeply", err)
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		data string
		ptr  any
		want string
	}{
		{`300`, new(int8), "value (int8): 300 is not an integer of 8 bits"},
		{`1.5`, new(int), "value (int): 1.5 is not an integer of 64 bits"},
		{`-1`, new(uint), "value (uint): -1 is not an unsigned integer of 64 bits"},
		{`"x"`, new(float64), `value (float64): invalid float "x"`},
		{`1e400`, new(float64), "value (float64): 1e400 is not a float of 64 bits"},
		{`[1,2]`, new([3]int), "value ([3]int): want an array of 3 elements, have an array"},
		{`{"a":1}`, new(inner), "value (codec.inner): missing field B"},
		{`{"a":1,"B":"","note":null,"c":2}`, new(inner), "value (codec.inner): unknown field c"},
		{`{"a":"1","B":"","note":null}`, new(inner), ".a (int8): want an integer, have the string \"1\""},
		{`[{"$ref":1}]`, new([]*int), "[0] (*int): $ref 1 names no pointer met before"},
		{`[{"$id":1,"$v":1},{"$id":1,"$v":2}]`, new([]*int), "[1] (*int): $id 1 is used twice"},
		{`{"P":{"$id":1,"$v":1},"Q":{"$ref":1}}`, new(struct {
			P *int
			Q *int8
		}), ".Q (*int8): $ref 1 is a *int"},
		{`3`, new(any), `value (interface {}): want {"$type": ..., "$v": ...}, have the number 3`},
		{`{"$type":"example.com/x.T","$v":1}`, new(any), "value (interface {}): the type example.com/x.T of the value it holds is not known here"},
		{`{"$type":"string","$v":"s"}`, new(error), "value (error): string does not implement it"},
		{`1 2`, new(int), "value: invalid JSON: data after the value"},
		{`[`, new([]int), "value: invalid JSON: unexpected EOF"},
		{`{"quoted":"x"}`, new(string), `value (string): want {"quoted": a Go-quoted string}`},
		{`"%%"`, new([]byte), "value ([]uint8): invalid base64: illegal base64 data at input byte 0"},
		{`{"a":1}`, new(map[int]int), "value (map[int]int): want [[key, value], ...], have an object"},
		{`[[1]]`, new(map[int]int), "[0] (map[int]int): want a [key, value] pair, have an array"},
		{`1`, new(uintptr), "value (uintptr): cannot decode a uintptr"},
	}
	for _, tt := range tests {
		err := Decode([]byte(tt.data), tt.ptr)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Decode(%s, %T) = %v, want %q", tt.data, tt.ptr, err, tt.want)
		}
	}
	x := 7
	if err := Decode([]byte(`"no"`), &x); err == nil || x != 7 {
		t.Errorf("failed Decode changed the destination to %d", x)
	}
	if err := Decode([]byte(`1`), x); err == nil {
		t.Errorf("Decode into a non-pointer succeeded")
	}
}

func TestDiff(t *testing.T) {
	type S struct {
		xs []int
		m  map[string]float64
		p  *node
	}
	nan := math.NaN()
	tests := []struct {
		a, b any
		want string
	}{
		{S{xs: []int{1, 2, 3, 4}}, S{xs: []int{1, 2, 3, 5}}, ".xs[3]: 4 != 5"},
		{S{xs: []int{1}}, S{xs: []int{1, 2}}, ".xs: len 1 != len 2"},
		{S{xs: []int{}}, S{}, ".xs: non-nil []int != nil"},
		{S{m: map[string]float64{"k": nan}}, S{m: map[string]float64{"k": nan}}, ""},
		{S{m: map[string]float64{"k": 0}}, S{m: map[string]float64{"k": math.Copysign(0, -1)}}, `.m["k"]: 0 != -0`},
		{S{m: map[string]float64{"k": 1}}, S{m: map[string]float64{"j": 1}}, `.m["k"]: 1 != missing`},
		{S{p: &node{val: 1}}, S{p: &node{val: 2}}, ".p(*).val: 1 != 2"},
		{map[float64]int{nan: 1}, map[float64]int{nan: 1}, ""},
		{map[float64]int{nan: 1}, map[float64]int{nan: 2}, "[NaN]: 1 != 2"},
		{3, 4, "3 != 4"},
		{"a", "b", `"a" != "b"`},
		{3, int8(3), "type int != int8"},
		{[]any{1}, []any{"1"}, "[0]: type int != type string"},
		{nil, nil, ""},
	}
	for _, tt := range tests {
		if got := Diff(tt.a, tt.b); got != tt.want {
			t.Errorf("Diff(%v, %v) = %q, want %q", tt.a, tt.b, got, tt.want)
		}
		if got := Equal(tt.a, tt.b); got != (tt.want == "") {
			t.Errorf("Equal(%v, %v) = %v", tt.a, tt.b, got)
		}
	}

	// Cycles terminate.
	a := &node{val: 1}
	a.next = a
	b := &node{val: 1}
	b.next = &node{val: 1, next: b}
	if !Equal(a, b) {
		t.Errorf("equal cycles of different lengths compare unequal")
	}
}

func TestClone(t *testing.T) {
	x := 5
	type T struct {
		xs    []int
		m     map[string][]int
		p, q  *int
		n     *node
		f     func() int
		iface any
	}
	cyc := &node{val: 1}
	cyc.next = cyc
	src := T{xs: make([]int, 2, 8), m: map[string][]int{"a": {1}}, p: &x, q: &x, n: cyc, f: func() int { return 1 }, iface: []int{1}}
	var dst T
	Clone(&dst, &src)
	if d := Diff(dst.xs, src.xs); d != "" || cap(dst.xs) != 8 {
		t.Errorf("xs: %s, cap %d", d, cap(dst.xs))
	}
	dst.xs[0] = 9
	dst.m["a"][0] = 9
	*dst.p = 9
	dst.iface.([]int)[0] = 9
	if src.xs[0] != 0 || src.m["a"][0] != 1 || x != 5 || src.iface.([]int)[0] != 1 {
		t.Errorf("the clone shares memory with its source")
	}
	if dst.p != dst.q || dst.n.next != dst.n || dst.n == cyc || dst.f() != 1 {
		t.Errorf("sharing, cycles or funcs not kept")
	}

	defer func() {
		if recover() == nil {
			t.Errorf("Clone of mismatched types did not panic")
		}
	}()
	Clone(&x, &dst)
}

func TestDeepList(t *testing.T) {
	var head *node
	for i := 0; i < 4000; i++ {
		head = &node{val: i, next: head}
	}
	roundTrip(t, head)
	for i := 0; i < 2000; i++ {
		head = &node{val: i, next: head}
	}
	if _, err := Encode(head); err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Errorf("Encode(a list of 6000 nodes) = %v, want nested too deeply", err)
	}
}
