// Package cachehot defines an Analyzer that finds benchmark loops which
// search a collection for the same key in every iteration, after the setup
// filled it with many different ones.
package cachehot

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/mbench/mbench/vet/internal/benchfn"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"
)

// Doc is the analyzer's documentation; its first line is the summary.
const Doc = `report benchmark loops that look up the same key in every iteration

A benchmark that fills a collection with many keys and then searches it
for one of them in every iteration measures the search that is cheapest
on real hardware: the same path through the collection, whose memory
stays in the CPU caches and whose branches the predictor has learned.
Sestoft, "Microbenchmarks in Java and C#" (2015), §11.1 "Benchmark design
for binary search", calls searching always for the same item "a dubious
choice" that "may severely underestimate the typical execution time";
§11.2 measures it: a binary search for pre-generated pseudorandom items
took 3.9 times (100 items) to 4.9 times (1.6 million items) as long as
the search for one fixed item (§4.3). The remedy is his: generate the
keys before the timer starts and cycle through them in the loop (with a
counter that wraps to 0 at len(keys): the division of keys[i%len(keys)]
can cost more than a map lookup).

The analyzer reports, in a timed loop (classic b.N or b.Loop), a lookup
whose every operand is the same in each iteration (constants, variables
the loop never assigns, conversions and len of them) in a collection that
a loop before the timed loop (with more than one trip) filled with keys
that vary with that loop's iteration:
  - m[k], read, on a map variable m that the fill loop wrote as
    m[x] = v with x depending on the fill loop's variables;
  - c.M(k, ...), a method with results, on a variable c on which the fill
    loop called another method for its effect only (a call statement, or
    results assigned to blanks, errors and booleans) with an argument at
    the same position that depends on the fill loop's variables and has
    the type of k, a comparable type or []byte (c.Set(i, v) then
    c.Get(500); m.Store(i, i) then m.Load(500));
  - f(xs, k), a function with results given a slice variable xs that the
    fill loop filled (xs[i] = v, or xs = append(xs, v) with v depending
    on the fill loop) and a key k of the slice's element type
    (sort.SearchInts(xs, 500)).

Not reported: keys that depend on the loop (keys[i%n], a variable the
loop assigns, the result of a call other than a conversion, len or cap);
collections filled by a helper function, or with one key only; the same
method used to fill and in the loop (a repeated write, not a search);
slices of bytes, which are scanned rather than searched; package-level
variables that a function of the package assigns; collections the timed
loop assigns; and uses in function literals inside the timed loop.`

// Analyzer reports loops that search a collection for the same key in
// every iteration.
var Analyzer = &analysis.Analyzer{
	Name: "cachehot",
	Doc:  Doc,
	URL:  "https://pkg.go.dev/github.com/mbench/mbench/vet/cachehot",
	Run:  run,
}

func run(pass *analysis.Pass) (any, error) {
	bodies := benchfn.Find(pass.TypesInfo, pass.Files)
	timed := make(map[ast.Stmt]bool)
	for _, body := range bodies {
		for _, l := range body.Loops {
			timed[l.Stmt] = true
		}
	}
	globals := assignedGlobals(pass)
	for _, body := range bodies {
		for _, l := range body.Loops {
			c := &checker{pass: pass, loop: l, timed: timed, globals: globals}
			c.check()
		}
	}
	return nil, nil
}

type checker struct {
	pass    *analysis.Pass
	loop    benchfn.Loop
	timed   map[ast.Stmt]bool
	globals map[*types.Var]bool
	// assigned are the variables the timed loop assigns, increments or
	// takes the address of.
	assigned map[*types.Var]bool
}

func (c *checker) check() {
	c.assigned = assignedIn(c.pass.TypesInfo, c.loop.Stmt)
	reported := make(map[*types.Var]bool)
	lhs := make(map[ast.Expr]bool)
	ast.Inspect(c.loop.Body, func(n ast.Node) bool {
		var v *types.Var
		var fill ast.Stmt
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			for _, e := range n.Lhs {
				lhs[ast.Unparen(e)] = true
			}
		case *ast.IncDecStmt:
			lhs[ast.Unparen(n.X)] = true
		case *ast.IndexExpr:
			if !lhs[n] {
				v, fill = c.mapLookup(n)
			}
		case *ast.CallExpr:
			v, fill = c.callLookup(n)
		}
		if fill != nil && !reported[v] {
			reported[v] = true
			line := c.pass.Fset.Position(fill.Pos()).Line
			c.pass.ReportRangef(n, "%s looks up the same key in every iteration, in %s, which the loop at line %d filled with many: the search takes one path that stays in the CPU caches and the branch predictor, the cheapest case; generate the keys before the timer and cycle through them (a counter that wraps to 0 at len(keys) costs less than i%%len(keys))", types.ExprString(n.(ast.Expr)), v.Name(), line)
		}
		return true
	})
}

// mapLookup returns the map of m[k] and its fill loop when m is filled
// and k the same in every iteration.
func (c *checker) mapLookup(ix *ast.IndexExpr) (*types.Var, ast.Stmt) {
	v := c.outerVar(ix.X)
	if v == nil || !c.invariant(ix.Index) {
		return nil, nil
	}
	if _, ok := v.Type().Underlying().(*types.Map); !ok {
		return nil, nil
	}
	return v, c.fillLoop(v, func(n ast.Node, inFill func(ast.Expr) bool) bool {
		index, _ := elemWrite(n, c.varOf, v)
		return index != nil && inFill(index)
	})
}

// callLookup returns the receiver or slice of c.M(k...) or f(xs, k) and
// its fill loop when it is filled and every operand is the same in each
// iteration.
func (c *checker) callLookup(call *ast.CallExpr) (*types.Var, ast.Stmt) {
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() == "testing" {
		return nil, nil
	}
	sig := fn.Type().(*types.Signature)
	if sig.Results().Len() == 0 || len(call.Args) == 0 {
		return nil, nil
	}
	for _, a := range call.Args {
		if !c.invariant(a) {
			return nil, nil
		}
	}
	if sig.Recv() != nil {
		return c.methodLookup(call, fn)
	}
	return c.sliceLookup(call)
}

// methodLookup handles c.M(k...): the fill loop calls another method of c
// for its effect with a varying argument of k's type at k's position.
func (c *checker) methodLookup(call *ast.CallExpr, fn *types.Func) (*types.Var, ast.Stmt) {
	info := c.pass.TypesInfo
	v := c.methodReceiver(call.Fun)
	if v == nil {
		return nil, nil
	}
	return v, c.fillLoop(v, func(n ast.Node, inFill func(ast.Expr) bool) bool {
		fc := fillCall(info, n)
		if fc == nil || c.methodReceiver(fc.Fun) != v || typeutil.Callee(info, fc) == fn {
			return false
		}
		for i, a := range fc.Args {
			if i < len(call.Args) && inFill(a) && sameKey(info, a, call.Args[i]) {
				return true
			}
		}
		return false
	})
}

// methodReceiver returns the local variable x of the method value x.M,
// declared outside the timed loop, or nil.
func (c *checker) methodReceiver(fun ast.Expr) *types.Var {
	sel, ok := ast.Unparen(fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if s := c.pass.TypesInfo.Selections[sel]; s == nil || s.Kind() != types.MethodVal {
		return nil
	}
	return c.outerVar(sel.X)
}

// sliceLookup handles f(xs, k): a slice xs that the fill loop filled with
// varying elements, and a key of its element type.
func (c *checker) sliceLookup(call *ast.CallExpr) (*types.Var, ast.Stmt) {
	info := c.pass.TypesInfo
	for _, a := range call.Args {
		v := c.outerVar(a)
		if v == nil {
			continue
		}
		sl, ok := v.Type().Underlying().(*types.Slice)
		if !ok || isByte(sl.Elem()) || !slices.ContainsFunc(call.Args, func(k ast.Expr) bool {
			return k != a && types.Identical(info.TypeOf(k), sl.Elem())
		}) {
			continue
		}
		fill := c.fillLoop(v, func(n ast.Node, inFill func(ast.Expr) bool) bool {
			if index, value := elemWrite(n, c.varOf, v); index != nil {
				return inFill(index) || inFill(value)
			}
			return slices.ContainsFunc(appended(info, n, c.varOf, v), inFill)
		})
		if fill != nil {
			return v, fill
		}
	}
	return nil, nil
}

// elemWrite returns the index and value of n when n is v[index] = value;
// otherwise nil, nil.
func elemWrite(n ast.Node, varOf func(ast.Expr) *types.Var, v *types.Var) (index, value ast.Expr) {
	as, ok := n.(*ast.AssignStmt)
	if !ok || len(as.Lhs) != len(as.Rhs) {
		return nil, nil
	}
	for i, e := range as.Lhs {
		if w, ok := ast.Unparen(e).(*ast.IndexExpr); ok && varOf(w.X) == v {
			return w.Index, as.Rhs[i]
		}
	}
	return nil, nil
}

// appended returns the values n appends to v when n is
// v = append(v, values...); otherwise nil.
func appended(info *types.Info, n ast.Node, varOf func(ast.Expr) *types.Var, v *types.Var) []ast.Expr {
	as, ok := n.(*ast.AssignStmt)
	if !ok || len(as.Lhs) != len(as.Rhs) {
		return nil
	}
	for i, e := range as.Lhs {
		if varOf(e) != v {
			continue
		}
		if ap, ok := ast.Unparen(as.Rhs[i]).(*ast.CallExpr); ok && builtin(info, ap) == "append" && len(ap.Args) > 1 {
			return ap.Args[1:]
		}
	}
	return nil
}

// fillCall returns the call of the statement n if n only calls it for its
// effect: a call statement, or an assignment of its results to blanks,
// errors and booleans (if err := s.Put(k, v); ...).
func fillCall(info *types.Info, n ast.Node) *ast.CallExpr {
	switch n := n.(type) {
	case *ast.ExprStmt:
		call, _ := ast.Unparen(n.X).(*ast.CallExpr)
		return call
	case *ast.AssignStmt:
		if len(n.Rhs) != 1 {
			return nil
		}
		call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr)
		if !ok {
			return nil
		}
		for _, e := range n.Lhs {
			if id, ok := e.(*ast.Ident); ok && id.Name == "_" {
				continue
			}
			t := info.TypeOf(e)
			if t == nil {
				return nil
			}
			if b, ok := t.Underlying().(*types.Basic); ok && b.Kind() == types.Bool {
				continue
			}
			if !types.Identical(t, types.Universe.Lookup("error").Type()) {
				return nil
			}
		}
		return call
	}
	return nil
}

// isByte reports whether t is byte: a slice of bytes is searched by a
// scan, not a lookup.
func isByte(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

// sameKey reports whether the fill argument and the lookup argument have
// the same type, one a key could have (not a function).
func sameKey(info *types.Info, fill, lookup ast.Expr) bool {
	ft, lt := info.TypeOf(fill), info.TypeOf(lookup)
	if ft == nil || lt == nil || !types.Identical(ft, lt) {
		return false
	}
	if sl, ok := ft.Underlying().(*types.Slice); ok {
		return isByte(sl.Elem())
	}
	return types.Comparable(ft) && !types.IsInterface(ft)
}

// fillLoop returns a for or range statement that comes before the timed
// loop in the function declaring v (not a timed loop itself, and not
// containing the timed loop) in which match holds for some node; match
// gets a predicate telling whether an expression depends on the variables
// of that loop. It returns nil if there is none.
func (c *checker) fillLoop(v *types.Var, match func(n ast.Node, inFill func(ast.Expr) bool) bool) ast.Stmt {
	decl := c.declaringBody(v)
	if decl == nil {
		return nil
	}
	info := c.pass.TypesInfo
	var found ast.Stmt
	ast.Inspect(decl, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		if fl, ok := n.(*ast.FuncLit); ok {
			// Only the literal that holds the timed loop (b.Run's).
			return fl.Pos() <= c.loop.Stmt.Pos() && c.loop.Stmt.End() <= fl.End()
		}
		s, ok := n.(ast.Stmt)
		if !ok {
			return true
		}
		switch s.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
		default:
			return true
		}
		if c.timed[s] || s.End() > c.loop.Stmt.Pos() {
			return true
		}
		if trips, ok := constTrips(info, s); ok && trips < 2 {
			return true
		}
		inFill := func(e ast.Expr) bool { return dependsOn(info, e, s) }
		ast.Inspect(s, func(n ast.Node) bool {
			if found != nil {
				return false
			}
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			if n != nil && match(n, inFill) {
				found = s
			}
			return true
		})
		return found == nil
	})
	return found
}

// declaringBody returns the body of the function whose scope declares v,
// if the timed loop lies in it.
func (c *checker) declaringBody(v *types.Var) ast.Node {
	for _, f := range c.pass.Files {
		if f.Pos() > v.Pos() || v.Pos() > f.End() {
			continue
		}
		path, _ := astutil.PathEnclosingInterval(f, v.Pos(), v.Pos())
		for _, n := range path {
			var body *ast.BlockStmt
			switch fn := n.(type) {
			case *ast.FuncDecl:
				body = fn.Body
			case *ast.FuncLit:
				body = fn.Body
			}
			if body != nil {
				if body.Pos() <= c.loop.Stmt.Pos() && c.loop.Stmt.End() <= body.End() {
					return body
				}
				return nil
			}
		}
	}
	return nil
}

// constTrips returns the trip count of `for i := a; i < n; i++` with
// constant bounds, or of a range over a constant integer.
func constTrips(info *types.Info, s ast.Stmt) (int64, bool) {
	switch s := s.(type) {
	case *ast.RangeStmt:
		if tv, ok := info.Types[s.X]; ok && tv.Value != nil {
			if n, ok := constInt(tv); ok {
				return n, true
			}
		}
	case *ast.ForStmt:
		init, ok := s.Init.(*ast.AssignStmt)
		cond, ok2 := s.Cond.(*ast.BinaryExpr)
		if !ok || !ok2 || len(init.Rhs) != 1 || (cond.Op != token.LSS && cond.Op != token.LEQ) {
			return 0, false
		}
		lo, ok := constInt(info.Types[init.Rhs[0]])
		hi, ok2 := constInt(info.Types[cond.Y])
		if !ok || !ok2 {
			return 0, false
		}
		if cond.Op == token.LEQ {
			hi++
		}
		return hi - lo, true
	}
	return 0, false
}

func constInt(tv types.TypeAndValue) (int64, bool) {
	if tv.Value == nil {
		return 0, false
	}
	return constant.Int64Val(constant.ToInt(tv.Value))
}

// dependsOn reports whether e mentions a variable declared inside s.
func dependsOn(info *types.Info, e ast.Expr, s ast.Stmt) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok && !v.IsField() && s.Pos() <= v.Pos() && v.Pos() < s.End() {
				found = true
			}
		}
		return !found
	})
	return found
}

// invariant reports whether e has the same value in every iteration of the
// timed loop: it is built from constants, variables declared outside the
// loop that the loop never assigns (and package-level ones the package
// never assigns), fields, elements, conversions and len or cap.
func (c *checker) invariant(e ast.Expr) bool {
	info := c.pass.TypesInfo
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			ok = false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				ok = false
			}
		case *ast.CallExpr:
			if tv, found := info.Types[n.Fun]; found && tv.IsType() {
				return true
			}
			if b := builtin(info, n); b != "len" && b != "cap" {
				ok = false
			}
		case *ast.Ident:
			v, isVar := info.Uses[n].(*types.Var)
			if !isVar || v.IsField() {
				return true
			}
			if c.loop.Stmt.Pos() <= v.Pos() && v.Pos() < c.loop.Stmt.End() || c.assigned[v] || c.globals[v] {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// outerVar returns the local variable e denotes if it is declared outside
// the timed loop, which never assigns it; otherwise nil.
func (c *checker) outerVar(e ast.Expr) *types.Var {
	v := c.varOf(e)
	if v == nil || v.Parent() == v.Pkg().Scope() || c.assigned[v] {
		return nil
	}
	if c.loop.Stmt.Pos() <= v.Pos() && v.Pos() < c.loop.Stmt.End() {
		return nil
	}
	return v
}

// varOf returns the variable (not a field) the identifier e denotes, or
// nil.
func (c *checker) varOf(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.IsField() || v.Pkg() == nil {
		return nil
	}
	return v
}

// builtin returns the name of the builtin function call calls, or "".
func builtin(info *types.Info, call *ast.CallExpr) string {
	if b, ok := typeutil.Callee(info, call).(*types.Builtin); ok {
		return b.Name()
	}
	return ""
}

// assignedIn returns the variables n assigns, increments, declares by
// range, or takes the address of.
func assignedIn(info *types.Info, n ast.Node) map[*types.Var]bool {
	out := make(map[*types.Var]bool)
	mark := func(e ast.Expr) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok {
				out[v] = true
			}
		}
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, e := range n.Lhs {
				mark(e)
			}
		case *ast.IncDecStmt:
			mark(n.X)
		case *ast.RangeStmt:
			if n.Key != nil {
				mark(n.Key)
			}
			if n.Value != nil {
				mark(n.Value)
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				mark(n.X)
			}
		}
		return true
	})
	return out
}

// assignedGlobals returns the package-level variables that some function
// of the package assigns or takes the address of.
func assignedGlobals(pass *analysis.Pass) map[*types.Var]bool {
	out := make(map[*types.Var]bool)
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			for v := range assignedIn(pass.TypesInfo, fd.Body) {
				if v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
					out[v] = true
				}
			}
		}
	}
	return out
}
