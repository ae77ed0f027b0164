package codec

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
)

// Equal reports whether a and b are deeply equal, like reflect.DeepEqual
// with the codec's view of values: a NaN equals a NaN (whatever its
// payload), -0 and +0 differ (1/x tells them apart, and the codec keeps
// them), unexported fields are compared and blank fields are not, a nil
// slice or map differs from an empty one, and funcs are equal only when
// both are nil.
func Equal(a, b any) bool {
	return Diff(a, b) == ""
}

// Diff returns the first difference between a and b, as the path to it
// and the two values (".xs[3]: 4 != 5", "[\"k\"]: 1 != missing"), or ""
// when Equal(a, b).
func Diff(a, b any) string {
	if a == nil || b == nil {
		if a == nil && b == nil {
			return ""
		}
		return fmt.Sprintf("%v != %v", a, b)
	}
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if va.Type() != vb.Type() {
		return fmt.Sprintf("type %v != %v", va.Type(), vb.Type())
	}
	c := &comparer{visited: map[visit]bool{}}
	if c.diff(addressable(va), addressable(vb)) {
		return ""
	}
	return c.msg
}

// A visit is a pair of references compared already, which a cycle may
// reach again.
type visit struct {
	a, b uintptr
	typ  reflect.Type
}

type comparer struct {
	visited map[visit]bool
	path    []step
	msg     string
}

// differ records the difference at the current path and returns false.
func (c *comparer) differ(a, b string) bool {
	p := formatPath(c.path)
	if p == "" {
		c.msg = a + " != " + b
	} else {
		c.msg = p + ": " + a + " != " + b
	}
	return false
}

// diff compares the addressable values a and b of one type, returning
// true when they are equal.
func (c *comparer) diff(a, b reflect.Value) bool {
	t := a.Type()
	switch a.Kind() {
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			return c.differ(strconv.FormatBool(a.Bool()), strconv.FormatBool(b.Bool()))
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if a.Int() != b.Int() {
			return c.differ(strconv.FormatInt(a.Int(), 10), strconv.FormatInt(b.Int(), 10))
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if a.Uint() != b.Uint() {
			return c.differ(strconv.FormatUint(a.Uint(), 10), strconv.FormatUint(b.Uint(), 10))
		}
	case reflect.Float32, reflect.Float64:
		if !floatEqual(a.Float(), b.Float()) {
			return c.differ(formatFloat(a.Float(), t.Bits()), formatFloat(b.Float(), t.Bits()))
		}
	case reflect.Complex64, reflect.Complex128:
		x, y := a.Complex(), b.Complex()
		if !floatEqual(real(x), real(y)) || !floatEqual(imag(x), imag(y)) {
			return c.differ(fmt.Sprint(x), fmt.Sprint(y))
		}
	case reflect.String:
		if a.String() != b.String() {
			return c.differ(strconv.Quote(a.String()), strconv.Quote(b.String()))
		}
	case reflect.Array:
		return c.elems(a, b)
	case reflect.Slice:
		if a.IsNil() != b.IsNil() {
			return c.differ(nilOrNot(a), nilOrNot(b))
		}
		if a.Len() != b.Len() {
			return c.differ("len "+strconv.Itoa(a.Len()), "len "+strconv.Itoa(b.Len()))
		}
		if a.Pointer() == b.Pointer() || a.Len() == 0 {
			return true
		}
		if c.seen(a, b) {
			return true
		}
		return c.elems(a, b)
	case reflect.Map:
		return c.maps(a, b)
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			name := t.Field(i).Name
			if name == "_" {
				continue
			}
			c.path = append(c.path, step{name: "." + name})
			if !c.diff(field(a, i), field(b, i)) {
				return false
			}
			c.path = c.path[:len(c.path)-1]
		}
	case reflect.Ptr:
		if a.IsNil() != b.IsNil() {
			return c.differ(nilOrNot(a), nilOrNot(b))
		}
		if a.Pointer() == b.Pointer() || c.seen(a, b) {
			return true
		}
		c.path = append(c.path, step{name: "(*)"})
		if !c.diff(a.Elem(), b.Elem()) {
			return false
		}
		c.path = c.path[:len(c.path)-1]
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return c.differ(nilOrNot(a), nilOrNot(b))
			}
			return true
		}
		ea, eb := a.Elem(), b.Elem()
		if ea.Type() != eb.Type() {
			return c.differ("type "+ea.Type().String(), "type "+eb.Type().String())
		}
		return c.diff(addressable(ea), addressable(eb))
	case reflect.Func:
		if !a.IsNil() || !b.IsNil() {
			return c.differ(nilOrNot(a), nilOrNot(b))
		}
	default: // chan, unsafe.Pointer
		if a.Pointer() != b.Pointer() {
			return c.differ(fmt.Sprintf("%#x", a.Pointer()), fmt.Sprintf("%#x", b.Pointer()))
		}
	}
	return true
}

// seen reports whether the references a and b were compared before, and
// marks them compared.
func (c *comparer) seen(a, b reflect.Value) bool {
	v := visit{a.Pointer(), b.Pointer(), a.Type()}
	if c.visited[v] {
		return true
	}
	c.visited[v] = true
	return false
}

func (c *comparer) elems(a, b reflect.Value) bool {
	for i := 0; i < a.Len(); i++ {
		c.path = append(c.path, step{index: i})
		if !c.diff(a.Index(i), b.Index(i)) {
			return false
		}
		c.path = c.path[:len(c.path)-1]
	}
	return true
}

// maps compares two maps entry by entry. Keys that cannot be looked up
// (a NaN is not equal to itself) are matched by Equal among those left.
func (c *comparer) maps(a, b reflect.Value) bool {
	if a.IsNil() != b.IsNil() {
		return c.differ(nilOrNot(a), nilOrNot(b))
	}
	if a.Pointer() == b.Pointer() {
		return true
	}
	if c.seen(a, b) {
		return true
	}
	for _, k := range sortedKeys(a) {
		vb := b.MapIndex(k)
		if !vb.IsValid() {
			continue
		}
		c.path = append(c.path, step{name: "[" + formatKey(k) + "]"})
		if !c.diff(addressable(a.MapIndex(k)), addressable(vb)) {
			return false
		}
		c.path = c.path[:len(c.path)-1]
	}
	// Match the entries left over (keys missing from the other map, or
	// keys no lookup finds) by Equal keys and values.
	lostA, lostB := lostEntries(a, b), lostEntries(b, a)
	matched := make([]bool, len(lostB))
	for _, ea := range lostA {
		candidate := -1
		for j, eb := range lostB {
			if matched[j] || !Equal(ea[0].Interface(), eb[0].Interface()) {
				continue
			}
			if Equal(ea[1].Interface(), eb[1].Interface()) {
				candidate = j
				break
			}
			if candidate < 0 {
				candidate = j
			}
		}
		c.path = append(c.path, step{name: "[" + formatKey(ea[0]) + "]"})
		if candidate < 0 {
			return c.differ(describeValue(ea[1]), "missing")
		}
		if !c.diff(ea[1], lostB[candidate][1]) {
			return false
		}
		c.path = c.path[:len(c.path)-1]
		matched[candidate] = true
	}
	for j, eb := range lostB {
		if !matched[j] {
			c.path = append(c.path, step{name: "[" + formatKey(eb[0]) + "]"})
			return c.differ("missing", describeValue(eb[1]))
		}
	}
	if a.Len() != b.Len() {
		return c.differ("len "+strconv.Itoa(a.Len()), "len "+strconv.Itoa(b.Len()))
	}
	return true
}

// sortedKeys returns m's keys in the order of their encodings, so that
// Diff reports the same first difference every time.
func sortedKeys(m reflect.Value) []reflect.Value {
	keys := m.MapKeys()
	enc := make([]string, len(keys))
	for i, k := range keys {
		b, err := encodeValue(k)
		if err != nil {
			b = []byte(fmt.Sprint(k))
		}
		enc[i] = string(b)
	}
	idx := make([]int, len(keys))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool { return enc[idx[i]] < enc[idx[j]] })
	sorted := make([]reflect.Value, len(keys))
	for i, j := range idx {
		sorted[i] = keys[j]
	}
	return sorted
}

// lostEntries returns the entries of m whose keys other does not find,
// as addressable [key, value] pairs in the order of their encodings.
func lostEntries(m, other reflect.Value) [][2]reflect.Value {
	var lost [][2]reflect.Value
	var enc []string
	for it := m.MapRange(); it.Next(); {
		if other.MapIndex(it.Key()).IsValid() {
			continue
		}
		e := [2]reflect.Value{addressable(it.Key()), addressable(it.Value())}
		lost = append(lost, e)
		k, _ := encodeValue(e[0])
		v, _ := encodeValue(e[1])
		enc = append(enc, string(k)+"\x00"+string(v))
	}
	idx := make([]int, len(lost))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool { return enc[idx[i]] < enc[idx[j]] })
	sorted := make([][2]reflect.Value, len(lost))
	for i, j := range idx {
		sorted[i] = lost[j]
	}
	return sorted
}

func floatEqual(x, y float64) bool {
	if math.IsNaN(x) || math.IsNaN(y) {
		return math.IsNaN(x) && math.IsNaN(y)
	}
	return x == y && math.Signbit(x) == math.Signbit(y)
}

func formatFloat(f float64, size int) string {
	return strconv.FormatFloat(f, 'g', -1, size)
}

func formatKey(k reflect.Value) string {
	if k.Kind() == reflect.String {
		return strconv.Quote(k.String())
	}
	return describeValue(addressable(k))
}

func nilOrNot(v reflect.Value) string {
	if v.IsNil() {
		return "nil"
	}
	return "non-nil " + v.Type().String()
}

// describeValue formats v for a difference, shortened when long.
func describeValue(v reflect.Value) string {
	if !v.IsValid() {
		return "missing"
	}
	var s string
	switch v.Kind() {
	case reflect.String:
		s = strconv.Quote(v.String())
	case reflect.Float32, reflect.Float64:
		s = formatFloat(v.Float(), v.Type().Bits())
	default:
		b, err := encodeValue(v)
		if err != nil {
			s = v.Type().String()
		} else {
			s = string(b)
		}
	}
	const max = 60
	if len(s) > max {
		s = s[:max-3] + "..."
	}
	return s
}
