package stoptimer

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/mbench/mbench/vet/internal/benchfn"
)

// isShort is the fact that a function runs in bounded, short time: its
// body has no loop, starts no goroutine, does not recurse, and calls only
// functions that are short themselves and builtins that do not copy data.
// A timed part that calls anything else may take long enough for the
// timer calls not to matter.
type isShort struct{}

func (*isShort) AFact() {}

func (*isShort) String() string { return "short" }

// shortFuncs answers, for the functions of this package and, through
// facts, of the packages it imports, which are short.
type shortFuncs struct {
	pass  *analysis.Pass
	local map[*types.Func]bool
}

// is reports whether fn is short.
func (sf *shortFuncs) is(fn *types.Func) bool {
	fn = fn.Origin()
	if fn.Pkg() == nil {
		return false
	}
	if fn.Pkg() == sf.pass.Pkg {
		return sf.local[fn]
	}
	return sf.pass.ImportObjectFact(fn, new(isShort))
}

// findShort computes the short functions of the package, as a least fixed
// point (recursive functions never qualify), and exports them as facts.
func findShort(pass *analysis.Pass) *shortFuncs {
	sf := &shortFuncs{pass: pass, local: make(map[*types.Func]bool)}
	decls := benchfn.Decls(pass.TypesInfo, pass.Files, true) // no body: assembly, linknamed: unknown
	for changed := true; changed; {
		changed = false
		for _, d := range decls {
			if !sf.local[d.Func] && sf.shortCode(d.Node.Body) {
				sf.local[d.Func] = true
				changed = true
			}
		}
	}
	for _, d := range decls {
		if sf.local[d.Func] {
			pass.ExportObjectFact(d.Func, new(isShort))
		}
	}
	return sf
}

// shortCode reports whether n runs in short, bounded time: no loops, no
// goroutines, no channel operations, no function literals, and only short
// calls.
func (sf *shortFuncs) shortCode(n ast.Node) bool {
	info := sf.pass.TypesInfo
	ok := true
	ast.Inspect(n, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.GoStmt, *ast.FuncLit, *ast.SendStmt, *ast.SelectStmt:
			ok = false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				ok = false
			}
		case *ast.CallExpr:
			ok = sf.shortCall(info, n)
		}
		return ok
	})
	return ok
}

// shortCall reports whether call is a conversion, a builtin that does
// not copy or clear data (copy, clear, append of a spread slice, make with
// a non-constant size take time in proportion to the data), a method of
// the testing package (t.Fatal on a failure path), or a call of a short
// function.
func (sf *shortFuncs) shortCall(info *types.Info, call *ast.CallExpr) bool {
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		return true
	}
	switch fn := typeutil.Callee(info, call).(type) {
	case *types.Builtin:
		switch fn.Name() {
		case "copy", "clear":
			return false
		case "append":
			return !call.Ellipsis.IsValid()
		case "make":
			for _, a := range call.Args[1:] {
				if tv, ok := info.Types[a]; !ok || tv.Value == nil {
					return false
				}
			}
		}
		return true
	case *types.Func:
		if fn.Pkg() != nil && fn.Pkg().Path() == "testing" && fn.Signature().Recv() != nil {
			return true
		}
		return sf.is(fn)
	}
	return false // a function value or an interface method: unknown
}
