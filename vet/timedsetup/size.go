package timedsetup

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/mbench/mbench/vet/internal/benchfn"
	"golang.org/x/tools/go/types/typeutil"
)

// large reports whether the integer e is at least limit. A size that
// cannot be bounded is large only if it comes from b.N (pre-generated
// inputs); any other unknown size is assumed small, to keep reports
// precise.
func (c *checker) large(e ast.Expr, limit int64) bool {
	if v, ok := c.sizes.eval(e, 0); ok {
		return v >= limit
	}
	return benchfn.ReadsN(c.pass.TypesInfo, e, c.cur.B)
}

// An evaluator bounds integer expressions from above: through constants,
// conversions and arithmetic, variables assigned once, and the variables
// of loops over constant bounds or tables. Sub-benchmarks over sizes are
// written that way:
//
//	for _, n := range []int{10, 1000, 1e6} {
//		b.Run(..., func(b *testing.B) { data := make([]byte, n); ... })
//	}
//
// where n is at most 1e6.
type evaluator struct {
	info *types.Info
	// defs maps the variables assigned exactly once to their value.
	defs map[*types.Var]ast.Expr
	// ranges and fors map loop variables to their loop.
	ranges map[*types.Var]*ast.RangeStmt
	fors   map[*types.Var]*ast.ForStmt
}

func newEvaluator(info *types.Info, files []*ast.File) *evaluator {
	ev := &evaluator{
		info:   info,
		defs:   make(map[*types.Var]ast.Expr),
		ranges: make(map[*types.Var]*ast.RangeStmt),
		fors:   make(map[*types.Var]*ast.ForStmt),
	}
	count := make(map[*types.Var]int)
	note := func(e ast.Expr, value ast.Expr, times int) {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return
		}
		if v, ok := info.ObjectOf(id).(*types.Var); ok {
			count[v] += times
			ev.defs[v] = value
		}
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					var value ast.Expr
					if n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) {
						value = n.Rhs[i]
					}
					note(l, value, 1)
				}
			case *ast.ValueSpec:
				for i, id := range n.Names {
					var value ast.Expr
					if len(n.Names) == len(n.Values) {
						value = n.Values[i]
					}
					note(id, value, 1)
				}
			case *ast.IncDecStmt:
				note(n.X, nil, 2)
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					note(n.X, nil, 2) // its address escapes
				}
			case *ast.RangeStmt:
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if id, ok := e.(*ast.Ident); ok && n.Tok == token.DEFINE {
						if v, ok := info.Defs[id].(*types.Var); ok {
							ev.ranges[v] = n
						}
					}
				}
			case *ast.ForStmt:
				if as, ok := n.Init.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
					for _, l := range as.Lhs {
						if id, ok := l.(*ast.Ident); ok {
							if v, ok := info.Defs[id].(*types.Var); ok {
								ev.fors[v] = n
							}
						}
					}
				}
			}
			return true
		})
	}
	for v, n := range count {
		if n != 1 || ev.defs[v] == nil {
			delete(ev.defs, v)
		}
	}
	return ev
}

// maxDepth bounds the chains of definitions eval follows.
const maxDepth = 8

// eval returns an upper bound of the integer e, if it finds one.
func (ev *evaluator) eval(e ast.Expr, depth int) (int64, bool) {
	if depth > maxDepth {
		return 0, false
	}
	if n, ok := intConst(ev.info, e); ok {
		return n, true
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, ok := ev.info.Uses[e].(*types.Var)
		if !ok {
			return 0, false
		}
		return ev.variable(v, depth)
	case *ast.SelectorExpr:
		return ev.field(e, depth)
	case *ast.CallExpr:
		if tv, ok := ev.info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			return ev.eval(e.Args[0], depth+1)
		}
		if b, ok := typeutil.Callee(ev.info, e).(*types.Builtin); ok && len(e.Args) == 1 {
			switch b.Name() {
			case "len":
				return ev.length(e.Args[0], depth+1)
			case "cap":
				return ev.capacity(e.Args[0], depth+1)
			}
		}
	case *ast.BinaryExpr:
		x, okx := ev.eval(e.X, depth+1)
		y, oky := ev.eval(e.Y, depth+1)
		if !okx || !oky {
			return 0, false
		}
		return arith(x, e.Op, y)
	}
	return 0, false
}

// arith applies op to x and y. With upper bounds for operands, x-y and
// x/y may come out below the true bound; that can only lose a report,
// never add one.
func arith(x int64, op token.Token, y int64) (int64, bool) {
	var v constant.Value
	switch op {
	case token.ADD, token.SUB, token.MUL, token.REM, token.AND, token.OR, token.XOR, token.AND_NOT:
		if op == token.REM && y == 0 {
			return 0, false
		}
		v = constant.BinaryOp(constant.MakeInt64(x), op, constant.MakeInt64(y))
	case token.QUO:
		if y == 0 {
			return 0, false
		}
		v = constant.MakeInt64(x / y)
	case token.SHL, token.SHR:
		if y < 0 || y > 63 {
			return 0, false
		}
		v = constant.Shift(constant.MakeInt64(x), op, uint(y))
	default:
		return 0, false
	}
	n, exact := constant.Int64Val(v)
	if !exact {
		return 1 << 62, true
	}
	return n, true
}

// variable bounds v: its single value, or its loop's bound.
func (ev *evaluator) variable(v *types.Var, depth int) (int64, bool) {
	if value := ev.defs[v]; value != nil {
		return ev.eval(value, depth+1)
	}
	if fs := ev.fors[v]; fs != nil {
		// for v := a; v < C; ... and v <= C.
		cond, ok := ast.Unparen(fs.Cond).(*ast.BinaryExpr)
		if !ok {
			return 0, false
		}
		if id, ok := ast.Unparen(cond.X).(*ast.Ident); !ok || ev.info.Uses[id] != v {
			return 0, false
		}
		c, ok := ev.eval(cond.Y, depth+1)
		switch {
		case !ok:
			return 0, false
		case cond.Op == token.LSS:
			return c - 1, true
		case cond.Op == token.LEQ:
			return c, true
		}
		return 0, false
	}
	if rs := ev.ranges[v]; rs != nil {
		if id, ok := rs.Key.(*ast.Ident); ok && ev.info.Defs[id] == v {
			// The index of a range over an integer or a table.
			if n, ok := ev.eval(rs.X, depth+1); ok {
				return n - 1, true
			}
			if lit := ev.literal(rs.X, depth); lit != nil {
				return int64(len(lit.Elts)) - 1, true
			}
			return 0, false
		}
		lit := ev.literal(rs.X, depth)
		if lit == nil {
			return 0, false
		}
		return ev.maxOf(lit, func(e ast.Expr) (int64, bool) { return ev.eval(e, depth+1) })
	}
	return 0, false
}

// field bounds tc.f where tc ranges over a table of struct literals.
func (ev *evaluator) field(sel *ast.SelectorExpr, depth int) (int64, bool) {
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return 0, false
	}
	v, ok := ev.info.Uses[id].(*types.Var)
	if !ok || ev.ranges[v] == nil {
		return 0, false
	}
	s := ev.info.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal || len(s.Index()) != 1 {
		return 0, false
	}
	rs := ev.ranges[v]
	if vid, ok := rs.Value.(*ast.Ident); !ok || ev.info.Defs[vid] != v {
		return 0, false
	}
	lit := ev.literal(rs.X, depth)
	if lit == nil {
		return 0, false
	}
	index, name := s.Index()[0], sel.Sel.Name
	return ev.maxOf(lit, func(e ast.Expr) (int64, bool) {
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = u.X
		}
		elem, ok := e.(*ast.CompositeLit)
		if !ok {
			return 0, false
		}
		for i, el := range elem.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				if k, ok := kv.Key.(*ast.Ident); ok && k.Name == name {
					return ev.eval(kv.Value, depth+1)
				}
				continue
			}
			if i == index {
				return ev.eval(el, depth+1)
			}
		}
		return 0, true // the field is absent: zero
	})
}

// literal returns the composite literal e is or, through a variable
// assigned once, holds.
func (ev *evaluator) literal(e ast.Expr, depth int) *ast.CompositeLit {
	for range maxDepth - depth {
		switch x := ast.Unparen(e).(type) {
		case *ast.CompositeLit:
			return x
		case *ast.Ident:
			v, ok := ev.info.Uses[x].(*types.Var)
			if !ok || ev.defs[v] == nil {
				return nil
			}
			e = ev.defs[v]
		default:
			return nil
		}
	}
	return nil
}

// maxOf returns the largest of f over the elements of lit, if f bounds
// them all.
func (ev *evaluator) maxOf(lit *ast.CompositeLit, f func(ast.Expr) (int64, bool)) (int64, bool) {
	best, any := int64(0), false
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			el = kv.Value
		}
		n, ok := f(el)
		if !ok {
			return 0, false
		}
		if !any || n > best {
			best, any = n, true
		}
	}
	return best, any
}

// length bounds the length of e: a constant string, a literal, a make, a
// Repeat, through variables assigned once. An append-built slice has no
// bound.
func (ev *evaluator) length(e ast.Expr, depth int) (int64, bool) {
	if depth > maxDepth {
		return 0, false
	}
	if tv, ok := ev.info.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
		return int64(len(constant.StringVal(tv.Value))), true
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		if _, ok := ev.info.TypeOf(e).Underlying().(*types.Slice); ok {
			return int64(len(e.Elts)), true
		}
	case *ast.Ident:
		if v, ok := ev.info.Uses[e].(*types.Var); ok && ev.defs[v] != nil {
			return ev.length(ev.defs[v], depth+1)
		}
	case *ast.CallExpr:
		switch fn := typeutil.Callee(ev.info, e).(type) {
		case *types.Builtin:
			if fn.Name() == "make" && len(e.Args) >= 2 {
				return ev.eval(e.Args[1], depth+1)
			}
		case *types.Func:
			switch fn.FullName() {
			case "strings.Repeat", "bytes.Repeat":
				if len(e.Args) == 2 {
					l, okl := ev.length(e.Args[0], depth+1)
					n, okn := ev.eval(e.Args[1], depth+1)
					if okl && okn {
						return arith(l, token.MUL, n)
					}
				}
			}
		}
	}
	return 0, false
}

// capacity bounds the capacity of e, a slice made with make.
func (ev *evaluator) capacity(e ast.Expr, depth int) (int64, bool) {
	if depth > maxDepth {
		return 0, false
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v, ok := ev.info.Uses[e].(*types.Var); ok && ev.defs[v] != nil {
			return ev.capacity(ev.defs[v], depth+1)
		}
	case *ast.CallExpr:
		if b, ok := typeutil.Callee(ev.info, e).(*types.Builtin); ok && b.Name() == "make" && len(e.Args) >= 2 {
			return ev.eval(e.Args[len(e.Args)-1], depth+1)
		}
	}
	return 0, false
}
