package bnsize

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/mbench/mbench/internal/effects"
)

// sizedSlice reports s := make([]T, b.N) (or a Repeat) when s is later
// passed whole to the package under test or an in-place sort, after its
// last per-element use and outside loops.
func (c *checker) sizedSlice(n ast.Node, reported map[*ast.CallExpr]bool) {
	info := c.pass.TypesInfo
	var lhs []*ast.Ident
	var rhs []ast.Expr
	switch n := n.(type) {
	case *ast.AssignStmt:
		for _, l := range n.Lhs {
			id, _ := ast.Unparen(l).(*ast.Ident)
			lhs = append(lhs, id)
		}
		rhs = n.Rhs
	case *ast.ValueSpec:
		lhs, rhs = n.Names, n.Values
	}
	if len(lhs) != len(rhs) {
		return
	}
	for i, r := range rhs {
		call, ok := ast.Unparen(r).(*ast.CallExpr)
		if !ok || lhs[i] == nil || c.sizedMake(call) == nil {
			continue
		}
		v, ok := info.ObjectOf(lhs[i]).(*types.Var)
		if !ok {
			continue
		}
		if c.processedWhole(v) {
			reported[call] = true
			c.pass.ReportRangef(call, "%s", c.message())
		}
	}
}

// processedWhole reports whether v is passed whole to the package under
// test or to an in-place sort, outside loops, after its last per-element
// use (an index, a slice with bounds, a range).
func (c *checker) processedWhole(v *types.Var) bool {
	info := c.pass.TypesInfo
	var lastElem token.Pos
	var whole []token.Pos
	ast.Inspect(c.body.Body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || info.Uses[id] != v {
			return true
		}
		switch p := c.parents[id].(type) {
		case *ast.IndexExpr:
			if p.X == id {
				lastElem = max(lastElem, id.Pos())
			}
		case *ast.RangeStmt:
			if p.X == id {
				lastElem = max(lastElem, id.Pos())
			}
		case *ast.SliceExpr:
			switch {
			case p.X != id:
				// id bounds another slice
			case p.Low != nil && !isZero(info, p.Low) || p.High != nil || p.Max != nil:
				lastElem = max(lastElem, id.Pos()) // a window: xs[i : i+1]
			default:
				if call, ok := c.parents[p].(*ast.CallExpr); ok && c.processes(call, p) {
					whole = append(whole, id.Pos()) // xs[:]
				}
			}
		case *ast.CallExpr:
			if c.processes(p, id) {
				whole = append(whole, id.Pos())
			}
		}
		return true
	})
	for _, pos := range whole {
		if pos > lastElem {
			return true
		}
	}
	return false
}

// processes reports whether call, outside loops, hands its argument arg
// to the package under test or sorts it in place, in O(n log n)
// (effects.Sorts).
func (c *checker) processes(call *ast.CallExpr, arg ast.Expr) bool {
	if !containsArg(call, arg) || c.inLoop(call) || c.resultConsumed(call, true) {
		return false // a writer over a buffer sized for the iterations
	}
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok {
		return false
	}
	return effects.Sorts(fn) || c.underTestCall(call, fn)
}

func containsArg(call *ast.CallExpr, arg ast.Expr) bool {
	for _, a := range call.Args {
		if ast.Unparen(a) == arg {
			return true
		}
	}
	return false
}
