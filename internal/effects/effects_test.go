package effects

import (
	"go/types"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// load type-checks the standard packages the table names.
func load(t *testing.T) map[string]*types.Package {
	t.Helper()
	paths := map[string]bool{}
	for key := range funcs {
		paths[key[:strings.LastIndex(key, ".")]] = true
	}
	for key := range readOnlyTypes {
		paths[key[:strings.LastIndex(key, ".")]] = true
	}
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes}
	pkgs, err := packages.Load(cfg, slices.Sorted(func(yield func(string) bool) {
		for p := range paths {
			if !yield(p) {
				return
			}
		}
	})...)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*types.Package{}
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Fatalf("loading %s: %v", p.PkgPath, e)
		}
		out[p.PkgPath] = p.Types
	}
	return out
}

// lookup returns the package-level object key ("path.Name") names.
func lookup(pkgs map[string]*types.Package, key string) types.Object {
	i := strings.LastIndex(key, ".")
	p := pkgs[key[:i]]
	if p == nil {
		return nil
	}
	return p.Scope().Lookup(key[i+1:])
}

// TestTable checks every entry against the standard library it describes:
// the function exists, a function that changes its first argument has
// one, whose type refers to other state, and one that sorts it takes a
// slice or a sort.Interface; every type exists.
func TestTable(t *testing.T) {
	pkgs := load(t)
	for key, f := range funcs {
		fn, ok := lookup(pkgs, key).(*types.Func)
		if !ok {
			t.Errorf("%s: not a function of the standard library", key)
			continue
		}
		if got := Of(fn); got != f {
			t.Errorf("Of(%s) = %+v, want the entry %+v", key, got, f)
		}
		sig := fn.Signature()
		switch {
		case f.Effect == Unknown:
			t.Errorf("%s: an entry of Unknown effect", key)
		case f.Effect == ChangesFirst && sig.Params().Len() == 0:
			t.Errorf("%s changes its first argument but has none", key)
		case f.Sorts && f.Effect != ChangesFirst:
			t.Errorf("%s sorts but does not change its first argument", key)
		case f.Plain != nil && f.Effect != ReadsOnly:
			t.Errorf("%s turns into plain instructions but has an effect", key)
		}
		if f.Effect != ChangesFirst || sig.Params().Len() == 0 {
			continue
		}
		first := sig.Params().At(0).Type()
		switch first.Underlying().(type) {
		case *types.Slice, *types.Interface:
		default:
			if !f.Sorts {
				break
			}
			t.Errorf("%s sorts its first argument, of type %s: want a slice or sort.Interface", key, first)
		}
		if _, ok := first.Underlying().(*types.Basic); ok {
			t.Errorf("%s changes its first argument, of type %s, which refers to nothing", key, first)
		}
	}
	for key := range readOnlyTypes {
		if _, ok := lookup(pkgs, key).(*types.TypeName); !ok {
			t.Errorf("%s: not a type of the standard library", key)
		}
	}
}

// TestOf checks what Of says of functions and methods in and out of the
// table.
func TestOf(t *testing.T) {
	pkgs := load(t)
	method := func(typ, name string) *types.Func {
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(lookup(pkgs, typ).Type()), true, nil, name)
		fn, _ := obj.(*types.Func)
		if fn == nil {
			t.Fatalf("no method %s of %s", name, typ)
		}
		return fn
	}
	fn := func(key string) *types.Func { return lookup(pkgs, key).(*types.Func) }
	for _, c := range []struct {
		fn        *types.Func
		effect    Effect
		sorts     bool
		plain     bool
		intrinsic bool
		foldable  bool
		ops       int
		name      string
	}{
		{fn: fn("sort.Ints"), effect: ChangesFirst, sorts: true, name: "sort.Ints"},
		{fn: fn("slices.Reverse"), effect: ChangesFirst, name: "slices.Reverse"},
		{fn: fn("bytes.Equal"), effect: ReadsOnly, name: "bytes.Equal"},
		{fn: fn("math.Sqrt"), effect: ReadsOnly, plain: true, intrinsic: true, foldable: true, ops: 2, name: "math.Sqrt"},
		{fn: fn("math.Float64bits"), effect: ReadsOnly, plain: true, foldable: true, ops: 0, name: "math.Float64bits"},
		{fn: fn("math/bits.RotateLeft64"), effect: ReadsOnly, plain: true, intrinsic: true, ops: 2, name: "bits.RotateLeft64"},
		{fn: fn("strconv.Itoa"), effect: Unknown, name: "strconv.Itoa (no effect, but not in the table)"},
		{fn: method("time.Time", "Format"), effect: ReadsOnly, name: "Time.Format"},
		{fn: method("regexp.Regexp", "MatchString"), effect: ReadsOnly, name: "(*Regexp).MatchString"},
		{fn: method("sort.IntSlice", "Sort"), effect: Unknown, name: "IntSlice.Sort"},
		{fn: nil, effect: Unknown, name: "nil"},
	} {
		got := Of(c.fn)
		if got.Effect != c.effect || got.Sorts != c.sorts || (got.Plain != nil) != c.plain {
			t.Errorf("Of(%s) = %+v, want effect %v, sorts %v, plain %v", c.name, got, c.effect, c.sorts, c.plain)
			continue
		}
		if p := got.Plain; p != nil && (p.Intrinsic != c.intrinsic || p.Foldable != c.foldable || p.Ops != c.ops) {
			t.Errorf("Of(%s).Plain = %+v, want intrinsic %v, foldable %v, ops %d", c.name, *p, c.intrinsic, c.foldable, c.ops)
		}
		if got := Sorts(c.fn); got != c.sorts {
			t.Errorf("Sorts(%s) = %v", c.name, got)
		}
		if got := Reads(c.fn); got != (c.effect == ReadsOnly) {
			t.Errorf("Reads(%s) = %v", c.name, got)
		}
	}
}

// TestBuiltin checks the builtins: every one the language has is either
// in the table or left out on purpose.
func TestBuiltin(t *testing.T) {
	unknown := []string{"new", "make", "close", "recover"}
	for _, name := range types.Universe.Names() {
		if _, ok := types.Universe.Lookup(name).(*types.Builtin); !ok {
			continue
		}
		f := Builtin(name)
		switch {
		case slices.Contains(unknown, name) && f.Effect != Unknown:
			t.Errorf("Builtin(%s) = %+v, want Unknown", name, f)
		case !slices.Contains(unknown, name) && f.Effect == Unknown:
			t.Errorf("builtin %s is not in the table", name)
		}
	}
	for name, want := range map[string]Effect{"len": ReadsOnly, "panic": ReadsOnly, "append": ChangesFirst, "delete": ChangesFirst, "ssa:wrapnilchk": ReadsOnly} {
		if got := Builtin(name).Effect; got != want {
			t.Errorf("Builtin(%s).Effect = %v, want %v", name, got, want)
		}
	}
	if Builtin("print").Plain != nil || Builtin("len").Plain == nil {
		t.Error("print turns into plain instructions, or len does not")
	}
}
