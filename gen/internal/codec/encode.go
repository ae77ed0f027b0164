package codec

import (
	"bytes"
	"encoding/base64"
	"math"
	"reflect"
	"sort"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// Encode returns the JSON encoding of v, described in the package
// comment. The same value always gives the same bytes.
func Encode(v any) ([]byte, error) {
	if v == nil {
		return []byte("null"), nil
	}
	return encodeValue(reflect.ValueOf(v))
}

func encodeValue(v reflect.Value) ([]byte, error) {
	e := &encoder{counts: map[ptrKey]int{}, ids: map[ptrKey]int{}}
	v = addressable(v)
	if err := e.count(v); err != nil {
		return nil, err
	}
	if err := e.encode(v); err != nil {
		return nil, err
	}
	return e.buf, nil
}

// An encoder writes one value. A first pass counts how often each pointer
// is reached, so that only shared pointers get ids.
type encoder struct {
	buf    []byte
	counts map[ptrKey]int
	ids    map[ptrKey]int
	path   []step
}

// A step is one element of the path to a value, formatted only when an
// error names it.
type step struct {
	name  string // field name, or "" for an index
	index int
}

func (e *encoder) fail(t reflect.Type, msg string) error {
	return &Error{Path: formatPath(e.path), Type: t, Msg: msg}
}

func formatPath(path []step) string {
	var b []byte
	for _, s := range path {
		if s.name != "" {
			b = append(b, s.name...)
		} else {
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(s.index), 10)
			b = append(b, ']')
		}
	}
	return string(b)
}

func (e *encoder) push(name string, index int) error {
	e.path = append(e.path, step{name, index})
	if len(e.path) > maxDepth {
		return e.fail(nil, "nested too deeply (a cycle through slices or maps?)")
	}
	return nil
}

func (e *encoder) pop() { e.path = e.path[:len(e.path)-1] }

// count walks v and counts how often each pointer is reached, entering
// each pointer's target once.
func (e *encoder) count(v reflect.Value) error {
	switch v.Kind() {
	case reflect.Ptr:
		if v.IsNil() {
			return nil
		}
		k := ptrKey{v.Pointer(), v.Type()}
		e.counts[k]++
		if e.counts[k] > 1 {
			return nil
		}
		if err := e.push("(*)", 0); err != nil {
			return err
		}
		defer e.pop()
		return e.count(v.Elem())
	case reflect.Array, reflect.Slice:
		if isBytes(v.Type()) || !hasPointers(v.Type().Elem()) {
			return nil
		}
		for i := 0; i < v.Len(); i++ {
			if err := e.push("", i); err != nil {
				return err
			}
			if err := e.count(v.Index(i)); err != nil {
				return err
			}
			e.pop()
		}
	case reflect.Map:
		if !hasPointers(v.Type().Key()) && !hasPointers(v.Type().Elem()) {
			return nil
		}
		for it := v.MapRange(); it.Next(); {
			if err := e.push("[key]", 0); err != nil {
				return err
			}
			if err := e.count(addressable(it.Key())); err != nil {
				return err
			}
			if err := e.count(addressable(it.Value())); err != nil {
				return err
			}
			e.pop()
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if err := e.push("."+v.Type().Field(i).Name, 0); err != nil {
				return err
			}
			if err := e.count(field(v, i)); err != nil {
				return err
			}
			e.pop()
		}
	case reflect.Interface:
		if v.IsNil() {
			return nil
		}
		if err := e.push("("+v.Elem().Type().String()+")", 0); err != nil {
			return err
		}
		defer e.pop()
		return e.count(addressable(v.Elem()))
	}
	return nil
}

// hasPointers reports whether values of t may hold pointers, slices or
// maps: whether walking them can reach a shared pointer.
func hasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Ptr, reflect.Slice, reflect.Map, reflect.Interface:
		return true
	case reflect.Array:
		return t.Len() > 0 && hasPointers(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if hasPointers(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// encode appends the encoding of the addressable value v.
func (e *encoder) encode(v reflect.Value) error {
	t := v.Type()
	switch v.Kind() {
	case reflect.Bool:
		e.buf = strconv.AppendBool(e.buf, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.buf = strconv.AppendInt(e.buf, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		e.buf = strconv.AppendUint(e.buf, v.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		e.buf = appendFloat(e.buf, floatBits(v), t.Bits())
	case reflect.Complex64, reflect.Complex128:
		re, im := complexBits(v)
		e.buf = append(e.buf, '[')
		e.buf = appendFloat(e.buf, re, t.Bits()/2)
		e.buf = append(e.buf, ',')
		e.buf = appendFloat(e.buf, im, t.Bits()/2)
		e.buf = append(e.buf, ']')
	case reflect.String:
		e.buf = appendString(e.buf, v.String())
	case reflect.Slice:
		if v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		if isBytes(t) {
			e.buf = append(e.buf, '"')
			n := len(e.buf)
			e.buf = append(e.buf, make([]byte, base64.StdEncoding.EncodedLen(v.Len()))...)
			base64.StdEncoding.Encode(e.buf[n:], v.Bytes())
			e.buf = append(e.buf, '"')
			return nil
		}
		return e.encodeElems(v)
	case reflect.Array:
		return e.encodeElems(v)
	case reflect.Map:
		return e.encodeMap(v)
	case reflect.Struct:
		e.buf = append(e.buf, '{')
		first := true
		for i := 0; i < v.NumField(); i++ {
			name := t.Field(i).Name
			if name == "_" {
				continue
			}
			if !first {
				e.buf = append(e.buf, ',')
			}
			first = false
			e.buf = appendString(e.buf, name)
			e.buf = append(e.buf, ':')
			if err := e.push("."+name, 0); err != nil {
				return err
			}
			if err := e.encode(field(v, i)); err != nil {
				return err
			}
			e.pop()
		}
		e.buf = append(e.buf, '}')
	case reflect.Ptr:
		return e.encodePointer(v)
	case reflect.Interface:
		if v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		// The dynamic type, so that Decode knows what to rebuild.
		el := v.Elem()
		e.buf = append(e.buf, `{"$type":`...)
		e.buf = appendString(e.buf, typeName(el.Type()))
		e.buf = append(e.buf, `,"$v":`...)
		if err := e.push("("+el.Type().String()+")", 0); err != nil {
			return err
		}
		if err := e.encode(addressable(el)); err != nil {
			return err
		}
		e.pop()
		e.buf = append(e.buf, '}')
	case reflect.Func, reflect.Chan:
		if !v.IsNil() {
			return e.fail(t, "cannot record a non-nil "+v.Kind().String())
		}
		e.buf = append(e.buf, "null"...)
	default: // uintptr, unsafe.Pointer
		return e.fail(t, "cannot record a "+v.Kind().String())
	}
	return nil
}

func (e *encoder) encodeElems(v reflect.Value) error {
	e.buf = append(e.buf, '[')
	for i := 0; i < v.Len(); i++ {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		if err := e.push("", i); err != nil {
			return err
		}
		if err := e.encode(v.Index(i)); err != nil {
			return err
		}
		e.pop()
	}
	e.buf = append(e.buf, ']')
	return nil
}

// encodePointer writes a pointer reached once as its target, and a shared
// one with an id where it is first met and as a reference after. A pointer
// to a pointer is always wrapped in {"$v":...}, so that the id of the
// inner pointer is not taken for the outer one's.
func (e *encoder) encodePointer(v reflect.Value) error {
	if v.IsNil() {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	k := ptrKey{v.Pointer(), v.Type()}
	if id, ok := e.ids[k]; ok {
		e.buf = append(e.buf, `{"$ref":`...)
		e.buf = strconv.AppendInt(e.buf, int64(id), 10)
		e.buf = append(e.buf, '}')
		return nil
	}
	wrap := false
	if e.counts[k] > 1 {
		id := len(e.ids) + 1
		e.ids[k] = id
		e.buf = append(e.buf, `{"$id":`...)
		e.buf = strconv.AppendInt(e.buf, int64(id), 10)
		e.buf = append(e.buf, `,"$v":`...)
		wrap = true
	} else if v.Type().Elem().Kind() == reflect.Ptr {
		e.buf = append(e.buf, `{"$v":`...)
		wrap = true
	}
	if err := e.push("(*)", 0); err != nil {
		return err
	}
	if err := e.encode(v.Elem()); err != nil {
		return err
	}
	e.pop()
	if wrap {
		e.buf = append(e.buf, '}')
	}
	return nil
}

// encodeMap writes a map with string keys as an object when it can, and
// any other map as [[key, value], ...], in the order of the keys'
// encodings.
func (e *encoder) encodeMap(v reflect.Value) error {
	if v.IsNil() {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	type entry struct {
		key, value reflect.Value
		sortKey    []byte
	}
	entries := make([]entry, 0, v.Len())
	object := v.Type().Key().Kind() == reflect.String
	for it := v.MapRange(); it.Next(); {
		k := addressable(it.Key())
		entries = append(entries, entry{key: k, value: addressable(it.Value())})
		if object {
			s := k.String()
			if !utf8.ValidString(s) || len(s) > 0 && s[0] == '$' {
				object = false
			}
		}
	}
	for i := range entries {
		if object {
			entries[i].sortKey = []byte(entries[i].key.String())
			continue
		}
		// The key alone, with ids of its own: the order must not depend
		// on which pointers the rest of the value shares.
		sk, err := encodeValue(entries[i].key)
		if err != nil {
			if err := e.push("[key]", 0); err != nil {
				return err
			}
			return e.fail(entries[i].key.Type(), "key: "+err.Error())
		}
		entries[i].sortKey = sk
	}
	sort.SliceStable(entries, func(i, j int) bool {
		return bytes.Compare(entries[i].sortKey, entries[j].sortKey) < 0
	})
	// Keys that encode alike (NaNs, pointers to equal values) are ordered
	// by their values.
	for i := 0; i < len(entries); {
		j := i + 1
		for j < len(entries) && bytes.Equal(entries[i].sortKey, entries[j].sortKey) {
			j++
		}
		if j-i > 1 {
			run := entries[i:j]
			vals := make([][]byte, len(run))
			for k := range run {
				vals[k], _ = encodeValue(run[k].value)
			}
			idx := make([]int, len(run))
			for k := range idx {
				idx[k] = k
			}
			sort.SliceStable(idx, func(a, b int) bool { return bytes.Compare(vals[idx[a]], vals[idx[b]]) < 0 })
			sorted := make([]entry, len(run))
			for k, x := range idx {
				sorted[k] = run[x]
			}
			copy(run, sorted)
		}
		i = j
	}
	if object {
		e.buf = append(e.buf, '{')
	} else {
		e.buf = append(e.buf, '[')
	}
	for i, en := range entries {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		if object {
			e.buf = appendString(e.buf, en.key.String())
			e.buf = append(e.buf, ':')
		} else {
			e.buf = append(e.buf, '[')
			if err := e.push("[key]", 0); err != nil {
				return err
			}
			if err := e.encode(en.key); err != nil {
				return err
			}
			e.pop()
			e.buf = append(e.buf, ',')
		}
		name := string(en.sortKey)
		if object {
			name = strconv.Quote(name)
		}
		if err := e.push("["+name+"]", 0); err != nil {
			return err
		}
		if err := e.encode(en.value); err != nil {
			return err
		}
		e.pop()
		if !object {
			e.buf = append(e.buf, ']')
		}
	}
	if object {
		e.buf = append(e.buf, '}')
	} else {
		e.buf = append(e.buf, ']')
	}
	return nil
}

// floatBits returns the bits of the addressable float v, read through
// memory so that a NaN's payload survives (a float32 NaN converted to
// float64 and back may not).
func floatBits(v reflect.Value) uint64 {
	p := unsafe.Pointer(v.UnsafeAddr())
	if v.Kind() == reflect.Float32 {
		return uint64(*(*uint32)(p))
	}
	return *(*uint64)(p)
}

func complexBits(v reflect.Value) (re, im uint64) {
	p := unsafe.Pointer(v.UnsafeAddr())
	if v.Kind() == reflect.Complex64 {
		parts := (*[2]uint32)(p)
		return uint64(parts[0]), uint64(parts[1])
	}
	parts := (*[2]uint64)(p)
	return parts[0], parts[1]
}

// appendFloat appends the float of the given size with the given bits.
func appendFloat(b []byte, bits uint64, size int) []byte {
	var f float64
	canonical := false
	if size == 32 {
		f32 := math.Float32frombits(uint32(bits))
		f = float64(f32)
		canonical = uint32(bits) == math.Float32bits(float32(math.NaN()))
	} else {
		f = math.Float64frombits(bits)
		canonical = bits == math.Float64bits(math.NaN())
	}
	switch {
	case math.IsNaN(f) && canonical:
		return append(b, `"NaN"`...)
	case math.IsNaN(f):
		b = append(b, `"NaN(0x`...)
		b = strconv.AppendUint(b, bits, 16)
		return append(b, `)"`...)
	case math.IsInf(f, 1):
		return append(b, `"+Inf"`...)
	case math.IsInf(f, -1):
		return append(b, `"-Inf"`...)
	}
	return strconv.AppendFloat(b, f, 'g', -1, size)
}

// appendString appends s as a JSON string when it is valid UTF-8, and as
// {"quoted": Go-quoted s} otherwise, so that every byte survives.
func appendString(b []byte, s string) []byte {
	if !utf8.ValidString(s) {
		b = append(b, `{"quoted":`...)
		b = appendJSONString(b, strconv.Quote(s))
		return append(b, '}')
	}
	return appendJSONString(b, s)
}

// appendJSONString quotes the valid UTF-8 string s for JSON, escaping only
// what JSON requires.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\t':
			b = append(b, '\\', 't')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// A Ref is the argument of Begin and End for a variable of interface type:
// a pointer to it, so that the variable is encoded under its static type
// (null when nil, refused otherwise) rather than as the dynamic value it
// holds, which could not be decoded back into the variable.
type Ref struct{ P any }

// encodeArg encodes an argument of Begin or End.
func encodeArg(v any) ([]byte, error) {
	if r, ok := v.(Ref); ok {
		return encodeValue(reflect.ValueOf(r.P).Elem())
	}
	return Encode(v)
}
