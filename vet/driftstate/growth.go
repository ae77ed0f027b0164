package driftstate

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/mbench/mbench/vet/internal/benchfn"
	"golang.org/x/tools/go/types/typeutil"
)

// appendGrowth returns v if as is v = append(v, ...) for a slice v
// declared outside the loop, which the loop never assigns otherwise and
// which was not made with a capacity from b.N.
func (c *checker) appendGrowth(as *ast.AssignStmt) *types.Var {
	info := c.pass.TypesInfo
	if as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return nil
	}
	v := c.outerVar(identOf(as.Lhs[0]))
	if v == nil || !isAppendTo(info, as.Rhs[0], v) {
		return nil
	}
	if c.assignedOtherwise(v) || c.sizedByN(v) || c.measuresItself() || c.amortized(v) {
		return nil
	}
	return v
}

// amortized reports whether v is a slice of pointer-free elements
// declared in the benchmark function that holds the loop: it starts
// empty in every run, so each append costs the same amortized copy
// whatever b.N is, and the collector has nothing in it to scan. A slice
// captured from an enclosing function (one per sub-benchmark case) or a
// package-level one keeps growing across the framework's runs.
func (c *checker) amortized(v *types.Var) bool {
	s, ok := v.Type().Underlying().(*types.Slice)
	if !ok || !pointerFree(s.Elem()) {
		return false
	}
	return v.Pos() >= c.body.Body.Pos() && v.Pos() < c.body.Body.End()
}

// pointerFree reports whether values of t hold no pointers: numbers,
// booleans, and arrays and structs of them.
func pointerFree(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&(types.IsNumeric|types.IsBoolean) != 0
	case *types.Array:
		return pointerFree(u.Elem())
	case *types.Struct:
		for f := range u.Fields() {
			if !pointerFree(f.Type()) {
				return false
			}
		}
		return true
	}
	return false
}

// measuresItself reports whether the loop body is a heavy operation that
// records its own measurements: it contains a loop of its own (a batch,
// next to which one append per iteration is noise) or reads the clock or
// the memory statistics (pauses = append(pauses, ...), as in package
// sync's pool benchmarks).
func (c *checker) measuresItself() bool {
	info := c.pass.TypesInfo
	found := false
	ast.Inspect(c.loop.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			found = true
		case *ast.CallExpr:
			if fn, ok := typeutil.Callee(info, n).(*types.Func); ok {
				switch fn.FullName() {
				case "time.Now", "time.Since", "runtime.GC", "runtime.ReadMemStats":
					found = true
				}
			}
		}
		return !found
	})
	return found
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// isAppendTo reports whether e is append(v, ...).
func isAppendTo(info *types.Info, e ast.Expr, v *types.Var) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return false
	}
	if b, ok := typeutil.Callee(info, call).(*types.Builtin); !ok || b.Name() != "append" {
		return false
	}
	id := identOf(call.Args[0])
	return id != nil && info.Uses[id] == v
}

// assignedOtherwise reports whether the loop body assigns v other than by
// v = append(v, ...), or takes its address: a reset may hide there.
func (c *checker) assignedOtherwise(v *types.Var) bool {
	info := c.pass.TypesInfo
	found := false
	ast.Inspect(c.loop.Body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				id := identOf(l)
				if id == nil || info.ObjectOf(id) != v {
					continue
				}
				if n.Tok == token.DEFINE || len(n.Lhs) != len(n.Rhs) || !isAppendTo(info, n.Rhs[i], v) {
					found = true
				}
			}
		case *ast.UnaryExpr:
			if id := identOf(n.X); n.Op == token.AND && id != nil && info.Uses[id] == v {
				found = true
			}
		case *ast.CallExpr:
			if b, ok := typeutil.Callee(info, n).(*types.Builtin); ok && (b.Name() == "clear" || b.Name() == "delete") && len(n.Args) > 0 {
				if id := identOf(n.Args[0]); id != nil && info.Uses[id] == v {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// sizedByN reports whether v is defined by a make whose size reads b.N,
// directly or through a local assigned once from b.N (n := b.N;
// make([]T, 0, n)): the benchmark grows it on purpose, to a bound it
// chose.
func (c *checker) sizedByN(v *types.Var) bool {
	info := c.pass.TypesInfo
	found := false
	ast.Inspect(c.body.Body, func(n ast.Node) bool {
		var lhs []*ast.Ident
		var rhs []ast.Expr
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				lhs = append(lhs, identOf(l))
			}
			rhs = n.Rhs
		case *ast.ValueSpec:
			lhs, rhs = n.Names, n.Values
		default:
			return !found
		}
		if len(lhs) != len(rhs) {
			return true
		}
		for i, id := range lhs {
			if id == nil || info.ObjectOf(id) != v {
				continue
			}
			call, ok := ast.Unparen(rhs[i]).(*ast.CallExpr)
			if !ok {
				continue
			}
			if b, ok := typeutil.Callee(info, call).(*types.Builtin); ok && b.Name() == "make" {
				for _, a := range call.Args[1:] {
					if c.fromN(a) {
						found = true
					}
				}
			}
		}
		return !found
	})
	return found
}

// fromN reports whether e reads b.N, or a variable of the body that is
// assigned exactly once, by a definition whose value reads b.N.
func (c *checker) fromN(e ast.Expr) bool {
	info := c.pass.TypesInfo
	if benchfn.ReadsN(info, e, c.body.B) {
		return true
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok && c.onceFromN(v) {
				found = true
			}
		}
		return !found
	})
	return found
}

// onceFromN reports whether the local v is defined from an expression
// that reads b.N and never assigned, incremented or addressed again.
func (c *checker) onceFromN(v *types.Var) bool {
	info := c.pass.TypesInfo
	if v.IsField() || v.Pos() < c.body.Body.Pos() || v.Pos() >= c.body.Body.End() {
		return false
	}
	defined, other := false, false
	ast.Inspect(c.body.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				id := identOf(l)
				if id == nil || info.ObjectOf(id) != v {
					continue
				}
				if n.Tok == token.DEFINE && info.Defs[id] == v && len(n.Lhs) == len(n.Rhs) && benchfn.ReadsN(info, n.Rhs[i], c.body.B) {
					defined = true
				} else {
					other = true
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if info.Defs[id] != v {
					continue
				}
				if len(n.Names) == len(n.Values) && benchfn.ReadsN(info, n.Values[i], c.body.B) {
					defined = true
				} else {
					other = true
				}
			}
		case *ast.IncDecStmt:
			if id := identOf(n.X); id != nil && info.Uses[id] == v {
				other = true
			}
		case *ast.UnaryExpr:
			if id := identOf(n.X); n.Op == token.AND && id != nil && info.Uses[id] == v {
				other = true
			}
		}
		return !other
	})
	return defined && !other
}

// mapGrowth reports m[k] = ... when m is a map declared outside the loop,
// k depends on the loop's iteration variable without cycling, and the loop
// never deletes from, clears or reassigns m.
func (c *checker) mapGrowth(lhs ast.Expr, grown map[*types.Var]bool) {
	info := c.pass.TypesInfo
	ix, ok := ast.Unparen(lhs).(*ast.IndexExpr)
	if !ok {
		return
	}
	v := c.outerVar(identOf(ix.X))
	if v == nil || grown[v] {
		return
	}
	if _, ok := v.Type().Underlying().(*types.Map); !ok {
		return
	}
	iter := c.iterVars()
	if len(iter) == 0 || !dependsOn(info, ix.Index, iter) || c.assignedOtherwise(v) || c.sizedByN(v) {
		return
	}
	grown[v] = true
	c.pass.ReportRangef(lhs, "%s gains a key in every iteration and is never cleared: later iterations insert into a bigger map; delete the key or clear(%s) inside the loop", v.Name(), v.Name())
}

// iterVars returns the variables a classic loop declares to count its
// iterations: i in "for i := 0; i < b.N; i++" and "for i := range b.N".
func (c *checker) iterVars() map[types.Object]bool {
	info := c.pass.TypesInfo
	vars := make(map[types.Object]bool)
	switch s := c.loop.Stmt.(type) {
	case *ast.ForStmt:
		if as, ok := s.Init.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
			for _, l := range as.Lhs {
				if id := identOf(l); id != nil && info.Defs[id] != nil {
					vars[info.Defs[id]] = true
				}
			}
		}
	case *ast.RangeStmt:
		if id := identOf(s.Key); id != nil && s.Tok == token.DEFINE && info.Defs[id] != nil {
			vars[info.Defs[id]] = true
		}
	}
	return vars
}

// dependsOn reports whether e uses one of vars, and not under % or & (a
// key that cycles through a bounded set).
func dependsOn(info *types.Info, e ast.Expr, vars map[types.Object]bool) bool {
	uses, bounded := false, false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op == token.REM || n.Op == token.AND {
				bounded = true
			}
		case *ast.Ident:
			if vars[info.Uses[n]] {
				uses = true
			}
		}
		return true
	})
	return uses && !bounded
}
