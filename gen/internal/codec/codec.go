// Package codec writes Go values as JSON and reads them back exactly, for
// the inputs and outputs mbench gen records while a package's tests run.
//
// The encoding is driven by the value's type when writing and by the static
// type of the destination when reading, so the JSON carries values, not
// types, and stays readable:
//
//	bool                  true, false
//	integers              exact decimal numbers, all 64 bits (never rounded
//	                      through float64 when read back)
//	floats                the shortest decimal that reads back to the same
//	                      bits ("-0" included); "NaN", "+Inf", "-Inf" as
//	                      strings, "NaN(0x7ff8000000000000)" for a NaN
//	                      with other bits than math.NaN()'s
//	complex               [real, imag], each a float as above
//	string                a JSON string when valid UTF-8, otherwise
//	                      {"quoted":"\"a\\xff\""}: the Go-quoted string
//	[]byte                base64, as encoding/json writes it; nil is null
//	arrays, slices        JSON arrays; a nil slice is null, an empty one []
//	maps                  nil is null; string keys make a JSON object
//	                      sorted by key when every key is valid UTF-8 and
//	                      none starts with "$"; any other comparable key
//	                      makes [[key, value], ...] sorted by the key's
//	                      encoding
//	structs               a JSON object of every field, unexported ones
//	                      included, in declaration order (blank fields are
//	                      skipped)
//	pointers              nil is null; a pointer reached once is its
//	                      target's value; a pointer reached more than once
//	                      (shared, or in a cycle) is {"$id":N,"$v":value}
//	                      where it is first met and {"$ref":N} after
//	interfaces            null when nil; otherwise {"$type":T,"$v":value}
//	                      with the name of the dynamic type (typeName:
//	                      "github.com/a/b.T", "*T", "[]int"), which
//	                      Decode rebuilds when the type is predeclared,
//	                      registered (Register) or built from such types
//	funcs, chans          null when nil; a non-nil one is refused
//
// Encode refuses unsafe.Pointer and uintptr, whose values mean nothing in
// another process, and non-nil funcs and chans; the error names the path
// to the value and its type. Unexported fields are read through
// reflect and written through unsafe, so values of the package's own types
// round-trip whole.
//
// Values nested more than 10000 levels deep are refused, as encoding/json
// refuses to read them: a cycle through slices or maps (which have no
// address to identify them by), or a linked list of more than about 5000
// nodes.
//
// Pointers are identified by address and type: two pointers of one type to
// one variable stay one pointer after decoding, and cycles are kept. A
// pointer into the middle of another encoded value (to a field or an
// element), and two slices sharing a backing array, decode as separate
// copies. Encoding the same value twice gives the same bytes: map entries
// are ordered by their keys' encodings, then by their values' (a map may
// hold several NaN keys, or pointer keys to equal values).
//
// The package uses only the standard library, because mbench pastes its
// source into generated tests and recording code of a user's package,
// which must not depend on mbench.
package codec

import (
	"fmt"
	"reflect"
	"unsafe"
)

// maxDepth bounds the nesting of values: deeper values are cycles through
// slices or maps, which have no address to identify them by.
const maxDepth = 10000

// An Error reports a value that cannot be encoded or decoded, with the path
// to it (".xs[3].name") and its type.
type Error struct {
	Path string
	Type reflect.Type
	Msg  string
}

func (e *Error) Error() string {
	path := e.Path
	if path == "" {
		path = "value"
	}
	if e.Type == nil {
		return fmt.Sprintf("%s: %s", path, e.Msg)
	}
	return fmt.Sprintf("%s (%v): %s", path, e.Type, e.Msg)
}

// addressable returns v, or an addressable copy of it, so that its
// unexported fields can be reached through unsafe.
func addressable(v reflect.Value) reflect.Value {
	if v.CanAddr() {
		return v
	}
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	return c
}

// field returns field i of the addressable struct v, readable and settable
// even when unexported.
func field(v reflect.Value, i int) reflect.Value {
	f := v.Field(i)
	if f.CanSet() {
		return f
	}
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

// isBytes reports whether t is a slice of bytes, written as base64.
func isBytes(t reflect.Type) bool {
	return t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8
}

// ptrKey identifies a pointer: its address and its type, since a struct and
// its first field share an address.
type ptrKey struct {
	addr uintptr
	typ  reflect.Type
}
