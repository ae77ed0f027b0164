package bnsize

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/mbench/mbench/vet/internal/benchfn"
)

// loopCount is the fact that a function uses some of its integer
// parameters as loop counts: passing b.N there asks for b.N iterations.
type loopCount struct {
	// Params are the indices of those parameters.
	Params []int
}

func (*loopCount) AFact() {}

func (f *loopCount) String() string { return fmt.Sprintf("loopCount%v", f.Params) }

// loopCounts answers, for the functions of this package and, through
// facts, of the packages it imports, which parameters are loop counts.
type loopCounts struct {
	pass  *analysis.Pass
	local map[*types.Func][]bool
}

// is reports whether parameter i of fn is a loop count.
func (lc *loopCounts) is(fn *types.Func, i int) bool {
	fn = fn.Origin()
	if fn.Pkg() == nil {
		return false
	}
	if fn.Pkg() == lc.pass.Pkg {
		params := lc.local[fn]
		return i < len(params) && params[i]
	}
	var f loopCount
	return lc.pass.ImportObjectFact(fn, &f) && slices.Contains(f.Params, i)
}

// findLoopCounts computes the loop-count parameters of the package's
// functions, to a fixed point because helpers pass counts on to helpers,
// and exports them as facts.
func findLoopCounts(pass *analysis.Pass) *loopCounts {
	info := pass.TypesInfo
	lc := &loopCounts{pass: pass, local: make(map[*types.Func][]bool)}
	decls := benchfn.Decls(info, pass.Files, true) // no body: assembly, linknamed
	for _, d := range decls {
		lc.local[d.Func] = make([]bool, d.Func.Signature().Params().Len())
	}
	for changed := true; changed; {
		changed = false
		for _, d := range decls {
			params := d.Func.Signature().Params()
			for i := range params.Len() {
				p := params.At(i)
				if lc.local[d.Func][i] || !isInteger(p.Type()) {
					continue
				}
				if lc.countsWith(d.Node.Body, p) {
					lc.local[d.Func][i] = true
					changed = true
				}
			}
		}
	}
	for _, d := range decls {
		var f loopCount
		for i, ok := range lc.local[d.Func] {
			if ok {
				f.Params = append(f.Params, i)
			}
		}
		if len(f.Params) > 0 {
			pass.ExportObjectFact(d.Func, &f)
		}
	}
	return lc
}

// countsWith reports whether body uses p in a for condition or as the
// operand of a range, or passes it to a loop-count parameter. Function
// literals count: a worker closure looping p times is still p iterations.
func (lc *loopCounts) countsWith(body *ast.BlockStmt, p *types.Var) bool {
	info := lc.pass.TypesInfo
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.ForStmt:
			found = n.Cond != nil && mentions(info, n.Cond, p)
		case *ast.RangeStmt:
			found = mentions(info, n.X, p)
		case *ast.CallExpr:
			fn, ok := typeutil.Callee(info, n).(*types.Func)
			if !ok {
				break
			}
			for i, arg := range n.Args {
				if id, ok := ast.Unparen(arg).(*ast.Ident); ok && info.Uses[id] == p && lc.is(fn, paramIndex(fn, i)) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// mentions reports whether e uses v.
func mentions(info *types.Info, e ast.Expr, v *types.Var) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == v {
			found = true
		}
		return !found
	})
	return found
}

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}
