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

func TestHasTypeParam(t *testing.T) {
	pkg := types.NewPackage("example.com/p", "p")
	tp := types.NewTypeParam(types.NewTypeName(0, pkg, "T", nil), types.NewInterfaceType(nil, nil))
	// type list struct{ next *list } (recursive), and a type declared
	// inside a generic function: type pair struct{ x T }.
	list := types.NewNamed(types.NewTypeName(0, pkg, "list", nil), nil, nil)
	list.SetUnderlying(types.NewStruct([]*types.Var{types.NewField(0, pkg, "next", types.NewPointer(list), false)}, nil))
	pair := types.NewNamed(types.NewTypeName(0, pkg, "pair", nil), types.NewStruct([]*types.Var{types.NewField(0, pkg, "x", tp, false)}, nil), nil)
	fn := types.NewSignatureType(nil, nil, nil, nil, types.NewTuple(types.NewVar(0, pkg, "", types.NewChan(types.SendRecv, tp))), false)
	for _, c := range []struct {
		typ  types.Type
		want bool
	}{
		{tp, true},
		{types.NewArray(tp, 4), true},
		{pair, true},
		{fn, true},
		{list, false},
		{types.NewMap(types.Typ[types.String], list), false},
	} {
		if got := HasTypeParam(c.typ); got != c.want {
			t.Errorf("HasTypeParam(%v) = %v, want %v", c.typ, got, c.want)
		}
	}
}
