package bnsize

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/mbench/mbench/vet/internal/benchfn"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// Doc is the analyzer's documentation: what it reports and how to fix
// it. The package documentation gives the reasons and the rule.
const Doc = `report b.N used as a problem size, not an iteration count

ns/op is the time divided by b.N: the cost of one operation only if every
iteration does the same work. Sizing the input by b.N (Fib(b.N), a slice
of b.N elements processed once) makes the work per op grow with b.N,
which the testing package chooses.

Fix: give the problem a fixed size (a constant, or a sub-benchmark per
size with b.Run) and loop b.N times over it.`

// Analyzer reports b.N used as a problem size.
var Analyzer = &analysis.Analyzer{
	Name:      "bnsize",
	Doc:       Doc,
	URL:       "https://pkg.go.dev/github.com/mbench/mbench/vet/bnsize",
	Run:       run,
	FactTypes: []analysis.Fact{new(loopCount)},
}

// The messages fit the benchmark's form: a b.N benchmark loops b.N
// times over a fixed size; in a b.Loop benchmark b.N is no count the
// code should use at all.
const (
	message     = "b.N used as a problem size: the work per op then grows with b.N and ns/op means nothing; fix the size and loop b.N times"
	loopMessage = "b.N used as a problem size in a b.Loop benchmark: b.N is the iteration count the testing package chooses (0 inside the loop), not a size; give the problem a fixed size"
)

func run(pass *analysis.Pass) (any, error) {
	counts := findLoopCounts(pass)
	for _, body := range benchfn.Find(pass.TypesInfo, pass.Files) {
		c := &checker{pass: pass, counts: counts, body: body}
		c.check()
	}
	return nil, nil
}

type checker struct {
	pass   *analysis.Pass
	counts *loopCounts
	body   *benchfn.Body
	// sized holds the local variables defined from b.N (n := b.N * 2)
	// and never assigned again.
	sized map[*types.Var]bool
	// parents maps each node of the body to its parent.
	parents map[ast.Node]ast.Node
}

// message is the finding's message for the form of c's benchmark.
func (c *checker) message() string {
	for _, l := range c.body.Loops {
		if l.Kind == benchfn.BLoop {
			return loopMessage
		}
	}
	return message
}

func (c *checker) check() {
	c.parents = parentMap(c.body.Body)
	c.sized = c.sizedVars()
	info := c.pass.TypesInfo
	reported := make(map[*ast.CallExpr]bool)
	ast.Inspect(c.body.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt:
			return false // other bodies; loops: b.N there counts or indexes
		case *ast.AssignStmt, *ast.ValueSpec:
			c.sizedSlice(n, reported)
		case *ast.CallExpr:
			if reported[n] {
				return true
			}
			fn, ok := typeutil.Callee(info, n).(*types.Func)
			if !ok || !c.underTestCall(n, fn) || c.inComparison(n) || c.resultConsumed(n, false) || c.receiverConsumed(n) {
				return true
			}
			for i, arg := range n.Args {
				if !c.nSized(arg) || !c.sizeParam(fn, i, arg) || c.counts.is(fn, paramIndex(fn, i)) {
					continue
				}
				c.pass.ReportRangef(arg, "%s", c.message())
				break
			}
		}
		return true
	})
}

// underTestCall reports whether call calls fn of the package under test
// directly, without handing it b.
func (c *checker) underTestCall(call *ast.CallExpr, fn *types.Func) bool {
	if !benchfn.UnderTest(c.pass, fn.Pkg()) {
		return false
	}
	if recv := fn.Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) {
		return false // the implementation is unknown
	}
	if fn.Pkg().Path() == "testing" {
		return false // the testing package's own tests: b.ReportMetric, t.Errorf
	}
	for _, arg := range call.Args {
		if id, ok := ast.Unparen(arg).(*ast.Ident); ok && c.pass.TypesInfo.Uses[id] == c.body.B {
			return false
		}
	}
	return true
}

// nSized reports whether e is a number computed from b.N by arithmetic
// that keeps it proportional (+, -, *, /, shifts, conversions), or a
// slice or string made with such a size.
func (c *checker) nSized(e ast.Expr) bool {
	info := c.pass.TypesInfo
	e = ast.Unparen(e)
	if benchfn.IsN(info, e, c.body.B) {
		return true
	}
	switch e := e.(type) {
	case *ast.Ident:
		v, ok := info.Uses[e].(*types.Var)
		return ok && c.sized[v]
	case *ast.BinaryExpr:
		switch e.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO, token.SHL, token.SHR:
			return c.nSized(e.X) || c.nSized(e.Y)
		}
	case *ast.CallExpr:
		if tv, ok := info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			return isNumber(info.TypeOf(e)) && c.nSized(e.Args[0])
		}
		return c.sizedMake(e) != nil
	}
	return false
}

// sizedMake returns the b.N-derived size argument if call is make of a
// slice, strings.Repeat or bytes.Repeat sized by b.N.
func (c *checker) sizedMake(call *ast.CallExpr) ast.Expr {
	info := c.pass.TypesInfo
	switch fn := typeutil.Callee(info, call).(type) {
	case *types.Builtin:
		if fn.Name() != "make" || len(call.Args) < 2 {
			return nil
		}
		if _, ok := info.TypeOf(call.Args[0]).Underlying().(*types.Slice); !ok {
			return nil
		}
		for _, a := range call.Args[1:] {
			if c.nSized(a) {
				return a
			}
		}
	case *types.Func:
		switch fn.FullName() {
		case "strings.Repeat", "bytes.Repeat":
			if len(call.Args) == 2 && c.nSized(call.Args[1]) {
				return call.Args[1]
			}
		}
	}
	return nil
}

// inLoop reports whether n lies in a for or range statement of the body
// (function literals included).
func (c *checker) inLoop(n ast.Node) bool {
	for p := c.parents[n]; p != nil; p = c.parents[p] {
		switch p.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return true
		}
	}
	return false
}

// inComparison reports whether n is an operand of a comparison
// (if Sum(b.N) != want).
func (c *checker) inComparison(n ast.Node) bool {
	for p := c.parents[n]; p != nil; p = c.parents[p] {
		switch p := p.(type) {
		case *ast.BinaryExpr:
			switch p.Op {
			case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
				return true
			}
		case ast.Stmt:
			return false
		}
	}
	return false
}

// resultConsumed reports whether call's result is stored in variables
// that a loop later uses (inputs generated for the iterations, a
// container pre-sized for them) or that a comparison checks (an expected
// value). With through, the result of a call that call is an argument of
// counts too (NewWriter(NewBuffer(buf))).
func (c *checker) resultConsumed(call *ast.CallExpr, through bool) bool {
	var outer ast.Node = call
	for through {
		p, ok := c.parents[outer].(*ast.CallExpr)
		if !ok || !containsArg(p, outer.(ast.Expr)) {
			break
		}
		outer = p
	}
	info := c.pass.TypesInfo
	var vars []types.Object
	switch p := c.parents[outer].(type) {
	case *ast.AssignStmt:
		for _, l := range p.Lhs {
			if id, ok := ast.Unparen(l).(*ast.Ident); ok && id.Name != "_" {
				vars = append(vars, info.ObjectOf(id))
			}
		}
	case *ast.ValueSpec:
		for _, id := range p.Names {
			if id.Name != "_" {
				vars = append(vars, info.ObjectOf(id))
			}
		}
	}
	return c.usedLater(vars, call.End(), true)
}

// receiverConsumed reports whether call is a method call on a local
// variable that a loop later uses: bldr.Reserve(len(values) * b.N)
// before a loop that appends to bldr once per iteration sizes the
// container for the iterations, which keeps each one the same.
func (c *checker) receiverConsumed(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || c.pass.TypesInfo.Selections[sel] == nil {
		return false
	}
	x := ast.Unparen(sel.X)
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
		x = ast.Unparen(u.X)
	}
	id, ok := x.(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.IsField() || v.Parent() == v.Pkg().Scope() {
		return false
	}
	return c.usedLater([]types.Object{v}, call.End(), false)
}

// usedLater reports whether one of vars is used after pos inside a loop
// (or, with comparisons, as an operand of a comparison).
func (c *checker) usedLater(vars []types.Object, pos token.Pos, comparisons bool) bool {
	info := c.pass.TypesInfo
	found := false
	ast.Inspect(c.body.Body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if found || !ok || id.Pos() < pos {
			return !found
		}
		for _, v := range vars {
			if v != nil && info.Uses[id] == v && (c.inLoop(id) || comparisons && c.inComparison(id)) {
				found = true
			}
		}
		return !found
	})
	return found
}

// sizedVars returns the local variables defined from b.N and never
// assigned again: n := b.N * 2.
func (c *checker) sizedVars() map[*types.Var]bool {
	info := c.pass.TypesInfo
	sized := make(map[*types.Var]bool)
	c.sized = sized
	assigned := make(map[*types.Var]int)
	// Count every assignment, then grow the set to a fixed point: n := b.N;
	// m := n * 2 makes both sized.
	type def struct {
		v   *types.Var
		rhs ast.Expr
	}
	var defs []def
	ast.Inspect(c.body.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				id, ok := ast.Unparen(l).(*ast.Ident)
				if !ok {
					continue
				}
				v, ok := info.ObjectOf(id).(*types.Var)
				if !ok {
					continue
				}
				assigned[v]++
				if n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) {
					defs = append(defs, def{v, n.Rhs[i]})
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				v, ok := info.Defs[id].(*types.Var)
				if !ok {
					continue
				}
				assigned[v]++
				if len(n.Names) == len(n.Values) {
					defs = append(defs, def{v, n.Values[i]})
				}
			}
		case *ast.IncDecStmt:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
				if v, ok := info.Uses[id].(*types.Var); ok {
					assigned[v] += 2
				}
			}
		case *ast.UnaryExpr:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND {
				if v, ok := info.Uses[id].(*types.Var); ok {
					assigned[v] += 2 // its address escapes: anything may change it
				}
			}
		}
		return true
	})
	for changed := true; changed; {
		changed = false
		for _, d := range defs {
			if !sized[d.v] && assigned[d.v] == 1 && isNumber(d.v.Type()) && c.nSized(d.rhs) {
				sized[d.v] = true
				changed = true
			}
		}
	}
	return sized
}

func isNumber(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsNumeric != 0
}

func isZero(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.Value != nil && tv.Value.String() == "0"
}

// sizeParam reports whether argument i of fn, arg, binds to a parameter
// that can take a size: a number, or a slice or string made with b.N
// elements. b.N passed to an interface (fmt-style ...any) is a value being
// printed, not a size.
func (c *checker) sizeParam(fn *types.Func, i int, arg ast.Expr) bool {
	sig := fn.Signature()
	params := sig.Params()
	j := paramIndex(fn, i)
	if j >= params.Len() {
		return false
	}
	t := params.At(j).Type()
	if sig.Variadic() && j == params.Len()-1 {
		if s, ok := t.(*types.Slice); ok {
			t = s.Elem()
		}
	}
	if isNumber(t) {
		return true
	}
	if call, ok := ast.Unparen(arg).(*ast.CallExpr); ok && c.sizedMake(call) != nil {
		switch u := t.Underlying().(type) {
		case *types.Slice:
			return true
		case *types.Basic:
			return u.Info()&types.IsString != 0
		}
	}
	return false
}

// paramIndex returns the index of the parameter that argument i binds to.
func paramIndex(fn *types.Func, i int) int {
	sig := fn.Signature()
	if n := sig.Params().Len(); sig.Variadic() && i >= n-1 {
		return n - 1
	}
	return i
}

// parentMap maps each node under root to its parent.
func parentMap(root ast.Node) map[ast.Node]ast.Node {
	parents := make(map[ast.Node]ast.Node)
	var stack []ast.Node
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if len(stack) > 0 {
			parents[n] = stack[len(stack)-1]
		}
		stack = append(stack, n)
		return true
	})
	return parents
}
