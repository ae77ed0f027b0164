package driftstate

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/mbench/mbench/internal/effects"
	"github.com/mbench/mbench/vet/internal/benchfn"
	"golang.org/x/tools/go/types/typeutil"
)

// isSort reports whether call sorts its first argument in place: a
// standard function that does (effects.Sorts), or a function of the package under test whose
// name contains "sort" (any case), whose first parameter is a slice and
// which returns nothing, so that it can only work in place (BubbleSort(xs)).
func (c *checker) isSort(call *ast.CallExpr) bool {
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok || len(call.Args) == 0 {
		return false
	}
	if effects.Sorts(fn) {
		return true
	}
	sig := fn.Signature()
	return benchfn.UnderTest(c.pass, fn.Pkg()) && sig.Recv() == nil && sig.Results().Len() == 0 &&
		sig.Params().Len() > 0 && isSlice(sig.Params().At(0).Type()) &&
		strings.Contains(strings.ToLower(fn.Name()), "sort")
}

// sortedIdent returns the variable a sort call sorts: xs in sort.Ints(xs),
// sort.Sort(sort.IntSlice(xs)), sort.Sort(sort.Reverse(byName(xs))).
func sortedIdent(info *types.Info, e ast.Expr) *ast.Ident {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return x
		case *ast.CallExpr:
			if len(x.Args) != 1 {
				return nil
			}
			if tv, ok := info.Types[x.Fun]; ok && tv.IsType() {
				e = x.Args[0] // a conversion: sort.IntSlice(xs)
				continue
			}
			if fn, ok := typeutil.Callee(info, x).(*types.Func); ok && fn.FullName() == "sort.Reverse" {
				e = x.Args[0]
				continue
			}
			return nil
		default:
			return nil
		}
	}
}

// onlySortedIn reports whether the loop body mentions v only in sort
// calls, in len and cap, and in element reads: nothing refills it.
func (c *checker) onlySortedIn(v *types.Var) bool {
	info := c.pass.TypesInfo
	allowed := make(map[*ast.Ident]bool)
	ok := true
	var stack []ast.Node
	ast.Inspect(c.loop.Body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		if call, isCall := n.(*ast.CallExpr); isCall {
			if c.isSort(call) {
				if id := sortedIdent(info, call.Args[0]); id != nil {
					allowed[id] = true
				}
			}
			if readOnly(info, call) {
				for _, arg := range call.Args {
					if id, isID := ast.Unparen(arg).(*ast.Ident); isID {
						allowed[id] = true
					}
				}
			}
		}
		id, isID := n.(*ast.Ident)
		if !isID || info.Uses[id] != v || allowed[id] {
			return true
		}
		if !elementRead(stack) {
			ok = false
		}
		return true
	})
	return ok
}

// readOnly reports whether call reads its arguments without changing
// them: a builtin such as len or cap, or a standard function (checks that
// the sort worked, searches) that only reads (package effects).
func readOnly(info *types.Info, call *ast.CallExpr) bool {
	switch fn := typeutil.Callee(info, call).(type) {
	case *types.Builtin:
		return effects.Builtin(fn.Name()).Effect == effects.ReadsOnly
	case *types.Func:
		return effects.Reads(fn)
	}
	return false
}

// elementRead reports whether the identifier on top of stack is indexed
// for reading: x := xs[0], but not xs[i] = x, xs[i]++ or &xs[i].
func elementRead(stack []ast.Node) bool {
	n := len(stack)
	if n < 3 {
		return false
	}
	ix, ok := stack[n-2].(*ast.IndexExpr)
	if !ok || ix.X != stack[n-1] {
		return false
	}
	switch p := stack[n-3].(type) {
	case *ast.AssignStmt:
		for _, l := range p.Lhs {
			if l == ix {
				return false
			}
		}
	case *ast.IncDecStmt:
		return false
	case *ast.UnaryExpr:
		return p.Op != token.AND
	case *ast.SelectorExpr, *ast.CallExpr:
		return false // a method or function may change the element
	}
	return true
}

// sortedBefore reports whether the body put v in sorted order before the
// loop: it sorted v, filled it with xs[i] = i, or v starts as a sorted
// constant literal. Sorting sorted data is then the benchmark's intent.
func (c *checker) sortedBefore(v *types.Var) bool {
	info := c.pass.TypesInfo
	found := false
	check := func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			if c.isSort(n) {
				if id := sortedIdent(info, n.Args[0]); id != nil && info.Uses[id] == v {
					found = true
				}
			}
		case *ast.AssignStmt:
			if len(n.Lhs) != len(n.Rhs) {
				break
			}
			for i, l := range n.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok && info.ObjectOf(id) == v && sortedLiteral(info, n.Rhs[i]) {
					found = true
				}
				if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok && identity(info, v, ix, n.Rhs[i]) {
					found = true
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if info.Defs[id] == v && i < len(n.Values) && sortedLiteral(info, n.Values[i]) {
					found = true
				}
			}
		}
		return !found
	}
	ast.Inspect(c.body.Body, func(n ast.Node) bool {
		if n == nil || n.Pos() >= c.loop.Stmt.Pos() {
			return false
		}
		return check(n)
	})
	if !found {
		found = c.madeBySorter(v) || c.appendedAscending(v)
	}
	if !found && v.Parent() == v.Pkg().Scope() {
		for _, f := range c.pass.Files {
			for _, d := range f.Decls {
				if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
					ast.Inspect(gd, check)
				}
			}
		}
	}
	return found
}

// madeBySorter reports whether v is assigned the result of a function of
// this package whose body sorts something, as makeSortedStrings in package
// sort's benchmarks does: the data then arrives sorted.
func (c *checker) madeBySorter(v *types.Var) bool {
	info := c.pass.TypesInfo
	found := false
	sorter := func(e ast.Expr) bool {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return false
		}
		fn, ok := typeutil.Callee(info, call).(*types.Func)
		if !ok || fn.Pkg() != c.pass.Pkg {
			return false
		}
		for _, f := range c.pass.Files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil || info.Defs[fd.Name] != fn {
					continue
				}
				sorts := false
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					if call, ok := n.(*ast.CallExpr); ok && c.isSort(call) {
						sorts = true
					}
					return !sorts
				})
				return sorts
			}
		}
		return false
	}
	visit := func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					if id := identOf(l); id != nil && info.ObjectOf(id) == v && sorter(n.Rhs[i]) {
						found = true
					}
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if info.Defs[id] == v && i < len(n.Values) && sorter(n.Values[i]) {
					found = true
				}
			}
		}
		return !found
	}
	ast.Inspect(c.body.Body, visit)
	if !found && v.Parent() == v.Pkg().Scope() {
		for _, f := range c.pass.Files {
			for _, d := range f.Decls {
				if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
					ast.Inspect(gd, visit)
				}
			}
		}
	}
	return found
}

// identity reports whether ix = rhs is v[i] = i (possibly converted): an
// ascending fill.
func identity(info *types.Info, v *types.Var, ix *ast.IndexExpr, rhs ast.Expr) bool {
	xid, ok := ast.Unparen(ix.X).(*ast.Ident)
	if !ok || info.Uses[xid] != v {
		return false
	}
	iid, ok := ast.Unparen(ix.Index).(*ast.Ident)
	if !ok {
		return false
	}
	rhs = ast.Unparen(rhs)
	if call, ok := rhs.(*ast.CallExpr); ok && len(call.Args) == 1 {
		if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
			rhs = ast.Unparen(call.Args[0])
		}
	}
	rid, ok := rhs.(*ast.Ident)
	return ok && info.Uses[rid] != nil && info.Uses[rid] == info.Uses[iid]
}

// sortedLiteral reports whether e is a composite literal of constants in
// non-decreasing order.
func sortedLiteral(info *types.Info, e ast.Expr) bool {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		return false
	}
	var prev constant.Value
	for _, el := range lit.Elts {
		tv, ok := info.Types[el]
		if !ok || tv.Value == nil {
			return false
		}
		if prev != nil && constant.Compare(tv.Value, token.LSS, prev) {
			return false
		}
		prev = tv.Value
	}
	return true
}

// appendedAscending reports whether the body, before the loop, fills v
// with v = append(v, x) in a loop over an ascending counter i (for i := a;
// i < n; i++, or for i := range n or a slice) that is not nested in
// another loop, where x is monotone in i. The heuristic takes as monotone
// the counter itself, a conversion of a monotone value (int64(i)), and a
// call of a function (not a method) with one result whose arguments are
// constants except one monotone one: a constructor such as shopspring
// decimal's New(int64(i), 0). Such a constructor could in principle order
// its values otherwise; a sort of data built this way is taken to be the
// benchmark's intent, sorting sorted data.
func (c *checker) appendedAscending(v *types.Var) bool {
	info := c.pass.TypesInfo
	found := false
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if found || n == nil || n.Pos() >= c.loop.Stmt.Pos() {
			return false
		}
		var counter types.Object
		var body *ast.BlockStmt
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt:
			counter, body = ascendingCounter(info, n), n.Body
		case *ast.RangeStmt:
			if id := identOf(n.Key); id != nil && n.Tok == token.DEFINE {
				switch info.TypeOf(n.X).Underlying().(type) {
				case *types.Basic, *types.Slice, *types.Array:
					counter = info.Defs[id]
				}
			}
			body = n.Body
		default:
			return true
		}
		if counter != nil {
			ast.Inspect(body, func(m ast.Node) bool {
				switch m := m.(type) {
				case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt:
					return false
				case *ast.AssignStmt:
					if m.Tok != token.ASSIGN || len(m.Lhs) != 1 || len(m.Rhs) != 1 {
						break
					}
					if id := identOf(m.Lhs[0]); id == nil || info.Uses[id] != v || !isAppendTo(info, m.Rhs[0], v) {
						break
					}
					call := ast.Unparen(m.Rhs[0]).(*ast.CallExpr)
					if len(call.Args) == 2 && !call.Ellipsis.IsValid() && monotone(info, call.Args[1], counter) {
						found = true
					}
				}
				return !found
			})
		}
		return false // loops nested in this one are not ascending overall
	}
	ast.Inspect(c.body.Body, visit)
	return found
}

// ascendingCounter returns i if loop is for i := a; i < n (or <=); i++.
func ascendingCounter(info *types.Info, loop *ast.ForStmt) types.Object {
	init, ok := loop.Init.(*ast.AssignStmt)
	if !ok || init.Tok != token.DEFINE || len(init.Lhs) != 1 {
		return nil
	}
	id := identOf(init.Lhs[0])
	if id == nil || info.Defs[id] == nil {
		return nil
	}
	i := info.Defs[id]
	cond, ok := ast.Unparen(loop.Cond).(*ast.BinaryExpr)
	if !ok || (cond.Op != token.LSS && cond.Op != token.LEQ) {
		return nil
	}
	if x := identOf(cond.X); x == nil || info.Uses[x] != i {
		return nil
	}
	post, ok := loop.Post.(*ast.IncDecStmt)
	if !ok || post.Tok != token.INC {
		return nil
	}
	if x := identOf(post.X); x == nil || info.Uses[x] != i {
		return nil
	}
	return i
}

// monotone reports whether e is non-decreasing in the counter i, by the
// heuristic of appendedAscending.
func monotone(info *types.Info, e ast.Expr, i types.Object) bool {
	for depth := 0; depth < 8; depth++ {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return info.Uses[x] == i
		case *ast.CallExpr:
			if tv, ok := info.Types[x.Fun]; ok && tv.IsType() {
				if len(x.Args) != 1 {
					return false
				}
				e = x.Args[0] // a conversion
				continue
			}
			fn, ok := typeutil.Callee(info, x).(*types.Func)
			if !ok || fn.Signature().Recv() != nil || fn.Signature().Results().Len() != 1 || x.Ellipsis.IsValid() {
				return false
			}
			var arg ast.Expr
			for _, a := range x.Args {
				if tv, ok := info.Types[a]; ok && tv.Value != nil {
					continue
				}
				if arg != nil {
					return false
				}
				arg = a
			}
			if arg == nil {
				return false
			}
			e = arg
		default:
			return false
		}
	}
	return false
}
