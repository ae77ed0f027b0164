package codec

import (
	"fmt"
	"reflect"
)

// Clone copies *src deeply into *dst: dst and src are non-nil pointers of
// one type. Pointers and maps shared within *src stay shared in the copy,
// and cycles are kept; funcs and chans are copied as they are. Clone panics
// when dst and src do not fit, which is a mistake in the calling code, not
// in data.
func Clone(dst, src any) {
	d, s := reflect.ValueOf(dst), reflect.ValueOf(src)
	if d.Kind() != reflect.Ptr || d.IsNil() || s.Kind() != reflect.Ptr || s.IsNil() || d.Type() != s.Type() {
		panic(fmt.Sprintf("codec: Clone(%T, %T): want two non-nil pointers of one type", dst, src))
	}
	c := &cloner{memo: map[ptrKey]reflect.Value{}, slices: map[sliceKey]reflect.Value{}, plain: map[reflect.Type]bool{}}
	c.copy(d.Elem(), s.Elem())
}

type cloner struct {
	memo   map[ptrKey]reflect.Value   // copies of pointers and maps
	slices map[sliceKey]reflect.Value // copies of slices, for cycles
	plain  map[reflect.Type]bool      // types copied by assignment
}

type sliceKey struct {
	ref      ptrKey
	len, cap int
}

// isPlain reports whether t holds no references, so that assignment is a
// deep copy.
func (c *cloner) isPlain(t reflect.Type) bool {
	p, ok := c.plain[t]
	if !ok {
		p = !hasPointers(t) && t.Kind() != reflect.Func && t.Kind() != reflect.Chan
		c.plain[t] = p
	}
	return p
}

// copy sets the settable, addressable dst to a deep copy of the
// addressable src.
func (c *cloner) copy(dst, src reflect.Value) {
	t := src.Type()
	if c.isPlain(t) {
		dst.Set(src)
		return
	}
	switch src.Kind() {
	case reflect.Array:
		for i := 0; i < src.Len(); i++ {
			c.copy(dst.Index(i), src.Index(i))
		}
	case reflect.Slice:
		if src.IsNil() {
			dst.Set(reflect.Zero(dst.Type()))
			return
		}
		k := sliceKey{ptrKey{src.Pointer(), t}, src.Len(), src.Cap()}
		if s, ok := c.slices[k]; ok {
			dst.Set(s)
			return
		}
		s := reflect.MakeSlice(t, src.Len(), src.Cap())
		c.slices[k] = s
		if c.isPlain(t.Elem()) {
			reflect.Copy(s, src)
		} else {
			for i := 0; i < src.Len(); i++ {
				c.copy(s.Index(i), src.Index(i))
			}
		}
		dst.Set(s)
	case reflect.Map:
		if src.IsNil() {
			dst.Set(reflect.Zero(dst.Type()))
			return
		}
		k := ptrKey{src.Pointer(), t}
		if m, ok := c.memo[k]; ok {
			dst.Set(m)
			return
		}
		m := reflect.MakeMapWithSize(t, src.Len())
		c.memo[k] = m
		for it := src.MapRange(); it.Next(); {
			key := reflect.New(t.Key()).Elem()
			c.copy(key, addressable(it.Key()))
			val := reflect.New(t.Elem()).Elem()
			c.copy(val, addressable(it.Value()))
			m.SetMapIndex(key, val)
		}
		dst.Set(m)
	case reflect.Struct:
		for i := 0; i < src.NumField(); i++ {
			c.copy(field(dst, i), field(src, i))
		}
	case reflect.Ptr:
		if src.IsNil() {
			dst.Set(reflect.Zero(dst.Type()))
			return
		}
		k := ptrKey{src.Pointer(), t}
		if p, ok := c.memo[k]; ok {
			dst.Set(p)
			return
		}
		p := reflect.New(t.Elem())
		c.memo[k] = p
		c.copy(p.Elem(), src.Elem())
		dst.Set(p)
	case reflect.Interface:
		if src.IsNil() {
			dst.Set(reflect.Zero(dst.Type()))
			return
		}
		e := src.Elem()
		v := reflect.New(e.Type()).Elem()
		c.copy(v, addressable(e))
		dst.Set(v)
	default: // func, chan
		dst.Set(src)
	}
}
