package source

import (
	"go/types"
	"testing"
)

func TestTypeStringTypeParam(t *testing.T) {
	pkg := types.NewPackage("example.com/p", "p")
	tp := types.NewTypeParam(types.NewTypeName(0, pkg, "T", nil), types.NewInterfaceType(nil, nil))
	for _, typ := range []types.Type{tp, types.NewSlice(tp), types.NewMap(types.Typ[types.String], types.NewPointer(tp))} {
		if s, ok := TypeString(pkg, nil, typ); ok {
			t.Errorf("TypeString(%v) = %q, writable; a type parameter cannot be named outside its function", typ, s)
		}
	}
	if s, ok := TypeString(pkg, nil, types.NewSlice(types.Typ[types.Int])); !ok || s != "[]int" {
		t.Errorf("TypeString([]int) = %q, %v", s, ok)
	}
}
