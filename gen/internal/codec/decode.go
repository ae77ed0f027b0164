package codec

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unsafe"
)

// Decode reads the encoding of a value of ptr's element type from data
// into *ptr, replacing what *ptr held. ptr must be a non-nil pointer.
func Decode(data []byte, ptr any) error {
	p := reflect.ValueOf(ptr)
	if p.Kind() != reflect.Ptr || p.IsNil() {
		return &Error{Type: p.Type(), Msg: "Decode needs a non-nil pointer"}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return &Error{Msg: "invalid JSON: " + err.Error()}
	}
	if _, err := dec.Token(); err != io.EOF {
		return &Error{Msg: "invalid JSON: data after the value"}
	}
	d := &decoder{ids: map[int64]reflect.Value{}}
	// Decode into a fresh value, so that a failure leaves *ptr unchanged.
	v := reflect.New(p.Type().Elem()).Elem()
	if err := d.decode(v, tree); err != nil {
		return err
	}
	p.Elem().Set(v)
	return nil
}

// A decoder builds a value from the tree encoding/json parsed, following
// the destination's type.
type decoder struct {
	ids  map[int64]reflect.Value // shared pointers by id
	path []step
}

func (d *decoder) fail(t reflect.Type, format string, args ...any) error {
	return &Error{Path: formatPath(d.path), Type: t, Msg: fmt.Sprintf(format, args...)}
}

// describe names the JSON kind of a parsed value, for messages.
func describe(j any) string {
	switch j := j.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "the number " + string(j)
	case string:
		if len(j) > 20 {
			j = j[:20] + "..."
		}
		return "the string " + strconv.Quote(j)
	case []any:
		return "an array"
	default:
		return "an object"
	}
}

// decode sets the settable value v from the parsed JSON j.
func (d *decoder) decode(v reflect.Value, j any) error {
	t := v.Type()
	switch v.Kind() {
	case reflect.Bool:
		b, ok := j.(bool)
		if !ok {
			return d.fail(t, "want a boolean, have %s", describe(j))
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := j.(json.Number)
		if !ok {
			return d.fail(t, "want an integer, have %s", describe(j))
		}
		i, err := strconv.ParseInt(string(n), 10, t.Bits())
		if err != nil {
			return d.fail(t, "%s is not an integer of %d bits", string(n), t.Bits())
		}
		v.SetInt(i)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, ok := j.(json.Number)
		if !ok {
			return d.fail(t, "want an integer, have %s", describe(j))
		}
		u, err := strconv.ParseUint(string(n), 10, t.Bits())
		if err != nil {
			return d.fail(t, "%s is not an unsigned integer of %d bits", string(n), t.Bits())
		}
		v.SetUint(u)
	case reflect.Float32, reflect.Float64:
		bits, err := parseFloat(j, t.Bits())
		if err != nil {
			return d.fail(t, "%s", err.Error())
		}
		setFloatBits(v, bits)
	case reflect.Complex64, reflect.Complex128:
		a, ok := j.([]any)
		if !ok || len(a) != 2 {
			return d.fail(t, "want [real, imag], have %s", describe(j))
		}
		re, err := parseFloat(a[0], t.Bits()/2)
		if err != nil {
			return d.fail(t, "real part: %s", err.Error())
		}
		im, err := parseFloat(a[1], t.Bits()/2)
		if err != nil {
			return d.fail(t, "imaginary part: %s", err.Error())
		}
		p := unsafe.Pointer(v.UnsafeAddr())
		if v.Kind() == reflect.Complex64 {
			*(*[2]uint32)(p) = [2]uint32{uint32(re), uint32(im)}
		} else {
			*(*[2]uint64)(p) = [2]uint64{re, im}
		}
	case reflect.String:
		s, err := parseString(j)
		if err != nil {
			return d.fail(t, "%s", err.Error())
		}
		v.SetString(s)
	case reflect.Slice:
		if j == nil {
			v.Set(reflect.Zero(v.Type()))
			return nil
		}
		if isBytes(t) {
			s, ok := j.(string)
			if !ok {
				return d.fail(t, "want base64 bytes, have %s", describe(j))
			}
			b, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				return d.fail(t, "invalid base64: %s", err.Error())
			}
			s2 := reflect.MakeSlice(t, len(b), len(b))
			reflect.Copy(s2, reflect.ValueOf(b))
			v.Set(s2)
			return nil
		}
		a, ok := j.([]any)
		if !ok {
			return d.fail(t, "want an array, have %s", describe(j))
		}
		s := reflect.MakeSlice(t, len(a), len(a))
		if err := d.decodeElems(s, a); err != nil {
			return err
		}
		v.Set(s)
	case reflect.Array:
		a, ok := j.([]any)
		if !ok || len(a) != v.Len() {
			return d.fail(t, "want an array of %d elements, have %s", v.Len(), describe(j))
		}
		return d.decodeElems(v, a)
	case reflect.Map:
		return d.decodeMap(v, j)
	case reflect.Struct:
		return d.decodeStruct(v, j)
	case reflect.Ptr:
		return d.decodePointer(v, j)
	case reflect.Interface:
		return d.decodeInterface(v, j)
	case reflect.Func, reflect.Chan:
		if j != nil {
			return d.fail(t, "only a nil %s can be decoded", v.Kind().String())
		}
		v.Set(reflect.Zero(v.Type()))
	default:
		return d.fail(t, "cannot decode a %s", v.Kind().String())
	}
	return nil
}

func (d *decoder) push(name string, index int) { d.path = append(d.path, step{name, index}) }
func (d *decoder) pop()                        { d.path = d.path[:len(d.path)-1] }

func (d *decoder) decodeElems(v reflect.Value, a []any) error {
	for i, x := range a {
		d.push("", i)
		if err := d.decode(v.Index(i), x); err != nil {
			return err
		}
		d.pop()
	}
	return nil
}

func (d *decoder) decodeStruct(v reflect.Value, j any) error {
	t := v.Type()
	obj, ok := j.(map[string]any)
	if !ok {
		return d.fail(t, "want an object, have %s", describe(j))
	}
	seen := 0
	for i := 0; i < t.NumField(); i++ {
		name := t.Field(i).Name
		if name == "_" {
			continue
		}
		x, ok := obj[name]
		if !ok {
			return d.fail(t, "missing field %s", name)
		}
		seen++
		d.push("."+name, 0)
		if err := d.decode(field(v, i), x); err != nil {
			return err
		}
		d.pop()
	}
	if seen != len(obj) {
		for name := range obj {
			if f, ok := t.FieldByName(name); !ok || len(f.Index) != 1 || name == "_" {
				return d.fail(t, "unknown field %s", name)
			}
		}
	}
	return nil
}

func (d *decoder) decodeMap(v reflect.Value, j any) error {
	t := v.Type()
	switch j := j.(type) {
	case nil:
		v.Set(reflect.Zero(v.Type()))
	case map[string]any:
		if t.Key().Kind() != reflect.String {
			return d.fail(t, "want [[key, value], ...], have an object")
		}
		// In the encoder's order, so that a pointer's id comes before
		// references to it.
		keys := make([]string, 0, len(j))
		for k := range j {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		m := reflect.MakeMapWithSize(t, len(j))
		for _, k := range keys {
			x := j[k]
			key := reflect.New(t.Key()).Elem()
			key.SetString(k)
			val := reflect.New(t.Elem()).Elem()
			d.push("["+strconv.Quote(k)+"]", 0)
			if err := d.decode(val, x); err != nil {
				return err
			}
			d.pop()
			m.SetMapIndex(key, val)
		}
		v.Set(m)
	case []any:
		m := reflect.MakeMapWithSize(t, len(j))
		for i, x := range j {
			pair, ok := x.([]any)
			d.push("", i)
			if !ok || len(pair) != 2 {
				return d.fail(t, "want a [key, value] pair, have %s", describe(x))
			}
			key := reflect.New(t.Key()).Elem()
			if err := d.decode(key, pair[0]); err != nil {
				return err
			}
			val := reflect.New(t.Elem()).Elem()
			if err := d.decode(val, pair[1]); err != nil {
				return err
			}
			d.pop()
			m.SetMapIndex(key, val)
		}
		v.Set(m)
	default:
		return d.fail(t, "want a map, have %s", describe(j))
	}
	return nil
}

func (d *decoder) decodePointer(v reflect.Value, j any) error {
	t := v.Type()
	if j == nil {
		v.Set(reflect.Zero(v.Type()))
		return nil
	}
	obj, _ := j.(map[string]any)
	if ref, ok := obj["$ref"]; ok {
		id, err := parseID(ref)
		if err != nil {
			return d.fail(t, "%s", err.Error())
		}
		p, ok := d.ids[id]
		if !ok {
			return d.fail(t, "$ref %s names no pointer met before", strconv.FormatInt(id, 10))
		}
		if p.Type() != t {
			return d.fail(t, "$ref %s is a %s", strconv.FormatInt(id, 10), p.Type().String())
		}
		v.Set(p)
		return nil
	}
	p := reflect.New(t.Elem())
	target := j
	if x, ok := obj["$v"]; ok {
		target = x
		if idj, ok := obj["$id"]; ok {
			id, err := parseID(idj)
			if err != nil {
				return d.fail(t, "%s", err.Error())
			}
			if _, dup := d.ids[id]; dup {
				return d.fail(t, "$id %s is used twice", strconv.FormatInt(id, 10))
			}
			d.ids[id] = p
		}
	} else if t.Elem().Kind() == reflect.Ptr {
		return d.fail(t, `want {"$v": ...} around a pointer to a pointer`)
	}
	// Set v before filling the target, so that a cycle back to it finds
	// it complete.
	v.Set(p)
	d.push("(*)", 0)
	if err := d.decode(p.Elem(), target); err != nil {
		return err
	}
	d.pop()
	return nil
}

// decodeInterface sets the interface v from {"$type": name, "$v": value},
// rebuilding a value of the type named, which must be registered,
// predeclared or built from such types (lookupType), or from null.
func (d *decoder) decodeInterface(v reflect.Value, j any) error {
	t := v.Type()
	if j == nil {
		v.Set(reflect.Zero(t))
		return nil
	}
	obj, _ := j.(map[string]any)
	name, ok := obj["$type"].(string)
	x, okv := obj["$v"]
	if !ok || !okv || len(obj) != 2 {
		return d.fail(t, `want {"$type": ..., "$v": ...}, have %s`, describe(j))
	}
	dyn, ok := lookupType(name)
	if !ok {
		return d.fail(t, "the type %s of the value it holds is not known here", name)
	}
	if !dyn.Implements(t) {
		return d.fail(t, "%s does not implement it", name)
	}
	val := reflect.New(dyn).Elem()
	d.push("("+dyn.String()+")", 0)
	if err := d.decode(val, x); err != nil {
		return err
	}
	d.pop()
	v.Set(val)
	return nil
}

func parseID(j any) (int64, error) {
	n, ok := j.(json.Number)
	if !ok {
		return 0, errors.New("want a pointer id, have " + describe(j))
	}
	id, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil || id < 1 {
		return 0, errors.New("invalid pointer id " + string(n))
	}
	return id, nil
}

// parseFloat returns the bits of the float of the given size that j
// encodes.
func parseFloat(j any, size int) (uint64, error) {
	switch j := j.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(j), size)
		if err != nil {
			return 0, errors.New(string(j) + " is not a float of " + strconv.Itoa(size) + " bits")
		}
		if size == 32 {
			return uint64(math.Float32bits(float32(f))), nil
		}
		return math.Float64bits(f), nil
	case string:
		switch j {
		case "NaN":
			if size == 32 {
				return uint64(math.Float32bits(float32(math.NaN()))), nil
			}
			return math.Float64bits(math.NaN()), nil
		case "+Inf":
			if size == 32 {
				return uint64(math.Float32bits(float32(math.Inf(1)))), nil
			}
			return math.Float64bits(math.Inf(1)), nil
		case "-Inf":
			if size == 32 {
				return uint64(math.Float32bits(float32(math.Inf(-1)))), nil
			}
			return math.Float64bits(math.Inf(-1)), nil
		}
		if strings.HasPrefix(j, "NaN(0x") && strings.HasSuffix(j, ")") {
			bits, err := strconv.ParseUint(j[len("NaN(0x"):len(j)-1], 16, size)
			if err == nil && isNaNBits(bits, size) {
				return bits, nil
			}
		}
		return 0, errors.New("invalid float " + strconv.Quote(j))
	}
	return 0, errors.New("want a float, have " + describe(j))
}

func isNaNBits(bits uint64, size int) bool {
	if size == 32 {
		return math.IsNaN(float64(math.Float32frombits(uint32(bits))))
	}
	return math.IsNaN(math.Float64frombits(bits))
}

func setFloatBits(v reflect.Value, bits uint64) {
	p := unsafe.Pointer(v.UnsafeAddr())
	if v.Kind() == reflect.Float32 {
		*(*uint32)(p) = uint32(bits)
	} else {
		*(*uint64)(p) = bits
	}
}

// parseString reads a JSON string, or {"quoted": Go-quoted string} for a
// string that is not valid UTF-8.
func parseString(j any) (string, error) {
	switch j := j.(type) {
	case string:
		return j, nil
	case map[string]any:
		q, ok := j["quoted"].(string)
		if len(j) == 1 && ok && len(q) > 0 && q[0] == '"' {
			s, err := strconv.Unquote(q)
			if err == nil {
				return s, nil
			}
		}
		return "", errors.New(`want {"quoted": a Go-quoted string}`)
	}
	return "", errors.New("want a string, have " + describe(j))
}
