package codec

import (
	"reflect"
	"strconv"
	"strings"
)

// registered are the types Decode can rebuild inside an interface, by
// their typeName. The code generated for a segment registers the types
// its recorded values hold (Register); composite types of registered or
// predeclared types need no registration.
var registered = map[string]reflect.Type{}

// Register makes the types ptrs point to known to Decode, for the values
// of interfaces that hold them: Register((*T)(nil)) registers T. It
// returns true, so that generated code can call it in the initialiser of
// a package-level variable, before any test runs.
func Register(ptrs ...any) bool {
	for _, p := range ptrs {
		t := reflect.TypeOf(p).Elem()
		registered[typeName(t)] = t
	}
	return true
}

// typeName is the name of t in the encoding of an interface holding a
// value of type t: a named type by its package's import path and its
// name ("github.com/a/b.T", "int", "error"), composite types built from
// those ("*T", "[]T", "[4]T", "map[K]V"), and other unnamed types as
// reflect spells them ("interface {}", "struct { ... }").
func typeName(t reflect.Type) string {
	if t.Name() != "" {
		if t.PkgPath() != "" {
			return t.PkgPath() + "." + t.Name()
		}
		return t.Name()
	}
	switch t.Kind() {
	case reflect.Ptr:
		return "*" + typeName(t.Elem())
	case reflect.Slice:
		return "[]" + typeName(t.Elem())
	case reflect.Array:
		return "[" + strconv.Itoa(t.Len()) + "]" + typeName(t.Elem())
	case reflect.Map:
		return "map[" + typeName(t.Key()) + "]" + typeName(t.Elem())
	}
	return t.String()
}

// predeclared are the types every package can name.
var predeclared = map[string]reflect.Type{}

func init() {
	for _, v := range []any{
		false, 0, int8(0), int16(0), int32(0), int64(0),
		uint(0), uint8(0), uint16(0), uint32(0), uint64(0),
		float32(0), float64(0), complex64(0), complex128(0), "",
	} {
		t := reflect.TypeOf(v)
		predeclared[t.Name()] = t
	}
	predeclared["interface {}"] = reflect.TypeOf((*interface{})(nil)).Elem()
	predeclared["error"] = reflect.TypeOf((*error)(nil)).Elem()
}

// lookupType returns the type named name (see typeName): a registered or
// predeclared type, or a pointer, slice, array or map of such types.
func lookupType(name string) (reflect.Type, bool) {
	if t, ok := registered[name]; ok {
		return t, true
	}
	if t, ok := predeclared[name]; ok {
		return t, true
	}
	switch {
	case strings.HasPrefix(name, "*"):
		if e, ok := lookupType(name[1:]); ok {
			return reflect.New(e).Type(), true
		}
	case strings.HasPrefix(name, "[]"):
		if e, ok := lookupType(name[2:]); ok {
			return reflect.SliceOf(e), true
		}
	case strings.HasPrefix(name, "map["):
		depth := 0
		for i := 3; i < len(name); i++ {
			switch name[i] {
			case '[':
				depth++
			case ']':
				depth--
			}
			if depth == 0 {
				k, okk := lookupType(name[4:i])
				e, oke := lookupType(name[i+1:])
				if okk && oke && k.Comparable() {
					return reflect.MapOf(k, e), true
				}
				return nil, false
			}
		}
	case strings.HasPrefix(name, "["):
		if i := strings.IndexByte(name, ']'); i > 0 {
			n, err := strconv.Atoi(name[1:i])
			if e, ok := lookupType(name[i+1:]); ok && err == nil && n >= 0 {
				return reflect.ArrayOf(n, e), true
			}
		}
	}
	return nil, false
}
