package codec

import (
	"reflect"
	"testing"
)

// FuzzDecode decodes arbitrary bytes into values of several types: Decode
// must never panic, and what it accepts must encode and decode again to an
// equal value.
func FuzzDecode(f *testing.F) {
	x := 3
	seeds := []any{
		record{Name: "a", temps: []celsius{1, 2}, tags: map[string]int{"k": 1}, when: new(int64)},
		&tree{Val: 1, kids: []*tree{{}}, leaves: map[leaf]string{{n: 1}: "x"}, byName: map[string]*leaf{"$": {}}},
		[]map[string]*leaf{{"a": {Label: "\xff"}}},
		map[[2]uint8]*int{{1, 2}: &x, {3, 4}: &x},
	}
	for _, s := range seeds {
		data, err := Encode(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"$id":1,"$v":{"Val":"NaN","c":[1,"-Inf"],"kids":[{"$ref":1}],"leaves":null,"byName":null,"pair":[null,null],"raw":"","hook":null,"anything":null}}`))
	types := []reflect.Type{
		reflect.TypeFor[record](),
		reflect.TypeFor[*tree](),
		reflect.TypeFor[[]map[string]*leaf](),
		reflect.TypeFor[map[[2]uint8]*int](),
		reflect.TypeFor[[]**int](),
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, typ := range types {
			p := reflect.New(typ)
			if Decode(data, p.Interface()) != nil {
				continue
			}
			v := p.Elem().Interface()
			enc, err := Encode(v)
			if err != nil {
				t.Fatalf("%v: decoded %s but cannot encode it: %v", typ, data, err)
			}
			q := reflect.New(typ)
			if err := Decode(enc, q.Interface()); err != nil {
				t.Fatalf("%v: cannot decode %s: %v", typ, enc, err)
			}
			if d := Diff(v, q.Elem().Interface()); d != "" {
				t.Fatalf("%v: %s decodes to a different value than %s: %s", typ, enc, data, d)
			}
		}
	})
}
