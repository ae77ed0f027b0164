// Package benchfn finds benchmark bodies and their timed loops, for the
// analyzers of mbench vet. Everything is resolved through type information:
// a benchmark body is any function whose parameter is a *testing.B (top-level
// BenchmarkX functions and the closures passed to b.Run alike) or a function
// literal passed to b.RunParallel, and the loops are recognised by the
// objects they use (the field testing.B.N, the methods (*testing.B).Loop
// and (*testing.PB).Next), never by names.
package benchfn

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// A Body is a function that receives a *testing.B, or the function
// literal passed to b.RunParallel.
type Body struct {
	// Node is the *ast.FuncDecl or *ast.FuncLit.
	Node ast.Node
	Body *ast.BlockStmt
	// B is the *testing.B parameter; of a RunParallel body, the
	// *testing.B whose RunParallel method runs it.
	B *types.Var
	// PB is the *testing.PB parameter of a RunParallel body, and
	// RunParallel the call that runs it; both are nil for other bodies.
	PB          *types.Var
	RunParallel *ast.CallExpr
	// Loops are the timed loops directly in this body (not in nested
	// function literals, which are bodies of their own), in source
	// order, so a loop comes before the loops nested in it. Setup loops
	// are left out: see setupLoops.
	Loops []Loop
}

// A LoopKind tells the forms of a benchmark loop apart. They differ in
// what the compiler may do: since Go 1.24, b.Loop keeps the results of calls
// in its body alive (no dead-code elimination), while a classic b.N loop
// and a pb.Next loop do not; none stops constant folding of arguments
// known at compile time.
type LoopKind int

const (
	// Classic is `for i := 0; i < b.N; i++` and its variants (any for
	// loop whose condition or init reads b.N, and `for range b.N`).
	Classic LoopKind = iota
	// BLoop is `for b.Loop()`.
	BLoop
	// Parallel is `for pb.Next()` in a RunParallel body: every goroutine
	// runs it, and together they run b.N iterations.
	Parallel
)

func (k LoopKind) String() string {
	switch k {
	case BLoop:
		return "b.Loop"
	case Parallel:
		return "pb.Next"
	}
	return "b.N"
}

// A Loop is a timed loop of a benchmark body.
type Loop struct {
	Kind LoopKind
	// Stmt is the *ast.ForStmt or *ast.RangeStmt.
	Stmt ast.Stmt
	Body *ast.BlockStmt
}

// IsTestingB reports whether t is *testing.B.
func IsTestingB(t types.Type) bool { return isTestingPtr(t, "B") }

// IsTestingPB reports whether t is *testing.PB.
func IsTestingPB(t types.Type) bool { return isTestingPtr(t, "PB") }

// isTestingPtr reports whether t is a pointer to the type name of package
// testing.
func isTestingPtr(t types.Type, name string) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := p.Elem().(*types.Named)
	if !ok {
		return false
	}
	obj := n.Obj()
	return obj.Pkg() != nil && obj.Pkg().Path() == "testing" && obj.Name() == name
}

// Find returns the benchmark bodies in files, in source order.
func Find(info *types.Info, files []*ast.File) []*Body {
	var bodies []*Body
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if body := parallelBody(info, call); body != nil {
					bodies = append(bodies, body)
				}
				return true
			}
			var ftype *ast.FuncType
			var block *ast.BlockStmt
			switch fn := n.(type) {
			case *ast.FuncDecl:
				ftype, block = fn.Type, fn.Body
			case *ast.FuncLit:
				ftype, block = fn.Type, fn.Body
			default:
				return true
			}
			param := onlyParam(info, ftype)
			if block == nil || param == nil || !IsTestingB(param.Type()) {
				return true
			}
			body := &Body{Node: n, Body: block, B: param}
			body.Loops = loops(info, block, param, nil)
			bodies = append(bodies, body)
			return true
		})
	}
	return bodies
}

// onlyParam returns the parameter of a function type with one named
// parameter, or nil.
func onlyParam(info *types.Info, ftype *ast.FuncType) *types.Var {
	if ftype.Params == nil || len(ftype.Params.List) != 1 || len(ftype.Params.List[0].Names) != 1 {
		return nil
	}
	param, _ := info.Defs[ftype.Params.List[0].Names[0]].(*types.Var)
	return param
}

// parallelBody returns the body of call if it is b.RunParallel(func(pb
// *testing.PB) { ... }) on a *testing.B variable b; otherwise nil.
func parallelBody(info *types.Info, call *ast.CallExpr) *Body {
	if len(call.Args) != 1 {
		return nil
	}
	lit, ok := ast.Unparen(call.Args[0]).(*ast.FuncLit)
	if !ok {
		return nil
	}
	pb := onlyParam(info, lit.Type)
	if pb == nil || !IsTestingPB(pb.Type()) {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return nil
	}
	b, ok := info.Uses[id].(*types.Var)
	if !ok || !IsTestingB(b.Type()) || !IsMethodOf(info, call, b, "RunParallel") {
		return nil
	}
	return &Body{Node: lit, Body: lit.Body, B: b, PB: pb, RunParallel: call, Loops: loops(info, lit.Body, b, pb)}
}

// loops returns the timed loops of block that use b (or pb, for a
// RunParallel body), without descending into function literals.
func loops(info *types.Info, block *ast.BlockStmt, b, pb *types.Var) []Loop {
	var out []Loop
	setup := setupLoops(info, block, b)
	ast.Inspect(block, func(n ast.Node) bool {
		if s, ok := n.(ast.Stmt); ok && setup[s] {
			return false
		}
		switch s := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt:
			if s.Cond == nil {
				return true
			}
			if pb != nil && IsNextCall(info, s.Cond, pb) {
				out = append(out, Loop{Kind: Parallel, Stmt: s, Body: s.Body})
			} else if IsLoopCall(info, s.Cond, b) {
				out = append(out, Loop{Kind: BLoop, Stmt: s, Body: s.Body})
			} else if ReadsN(info, s.Cond, b) || (s.Init != nil && ReadsN(info, s.Init, b)) {
				// i < b.N, and also i := b.N; i > 0; i--.
				out = append(out, Loop{Kind: Classic, Stmt: s, Body: s.Body})
			}
		case *ast.RangeStmt:
			if IsN(info, s.X, b) {
				out = append(out, Loop{Kind: Classic, Stmt: s, Body: s.Body})
			}
		}
		return true
	})
	return out
}

// setupLoops returns the top-level statements of block that are b.N loops
// run untimed, which generate inputs rather than measure: a loop followed,
// later at the top level of block, by b.ResetTimer() (which discards the
// time the loop took), and a loop run while the timer is stopped (after a
// top-level b.StopTimer() with no top-level b.StartTimer() in between)
// whose body never calls b.StartTimer(). Workiva go-datastructures builds
// one tree per iteration this way before b.ResetTimer().
func setupLoops(info *types.Info, block *ast.BlockStmt, b *types.Var) map[ast.Stmt]bool {
	timerCall := func(s ast.Stmt) string {
		es, ok := s.(*ast.ExprStmt)
		if !ok {
			return ""
		}
		call, ok := ast.Unparen(es.X).(*ast.CallExpr)
		if !ok {
			return ""
		}
		for _, name := range []string{"ResetTimer", "StopTimer", "StartTimer"} {
			if IsMethodOf(info, call, b, name) {
				return name
			}
		}
		return ""
	}
	lastReset := -1
	for i, s := range block.List {
		if timerCall(s) == "ResetTimer" {
			lastReset = i
		}
	}
	setup := make(map[ast.Stmt]bool)
	stopped := false
	for i, s := range block.List {
		switch timerCall(s) {
		case "StopTimer":
			stopped = true
			continue
		case "StartTimer":
			stopped = false
			continue
		}
		loop := s
		if lab, ok := s.(*ast.LabeledStmt); ok {
			loop = lab.Stmt
		}
		if !isNLoop(info, loop, b) {
			continue
		}
		if i < lastReset || (stopped && !callsMethod(info, loop, b, "StartTimer")) {
			setup[loop] = true
		}
	}
	return setup
}

// isNLoop reports whether s is a classic b.N loop.
func isNLoop(info *types.Info, s ast.Stmt, b *types.Var) bool {
	switch s := s.(type) {
	case *ast.ForStmt:
		return s.Cond != nil && (ReadsN(info, s.Cond, b) || (s.Init != nil && ReadsN(info, s.Init, b)))
	case *ast.RangeStmt:
		return IsN(info, s.X, b)
	}
	return false
}

// callsMethod reports whether n calls the method name of b anywhere.
func callsMethod(info *types.Info, n ast.Node, b *types.Var, name string) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && IsMethodOf(info, call, b, name) {
			found = true
		}
		return !found
	})
	return found
}

// IsLoopCall reports whether e is a call of b.Loop().
func IsLoopCall(info *types.Info, e ast.Expr, b *types.Var) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	return IsMethodOf(info, call, b, "Loop")
}

// IsNextCall reports whether e is a call of pb.Next().
func IsNextCall(info *types.Info, e ast.Expr, pb *types.Var) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	return ok && isMethod(info, call, pb, IsTestingPB, "Next")
}

// IsMethodOf reports whether call calls the method name of *testing.B on
// the variable b.
func IsMethodOf(info *types.Info, call *ast.CallExpr, b *types.Var, name string) bool {
	return isMethod(info, call, b, IsTestingB, name)
}

// isMethod reports whether call calls the method name, of a receiver type
// for which recvType holds, on the variable v.
func isMethod(info *types.Info, call *ast.CallExpr, v *types.Var, recvType func(types.Type) bool, name string) bool {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Name() != name {
		return false
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || !recvType(sig.Recv().Type()) {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	return ok && info.Uses[id] == v
}

// IsN reports whether e is the selector b.N.
func IsN(info *types.Info, e ast.Expr, b *types.Var) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	field, ok := info.Uses[sel.Sel].(*types.Var)
	if !ok || !field.IsField() || field.Name() != "N" || field.Pkg() == nil || field.Pkg().Path() != "testing" {
		return false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	return ok && info.Uses[id] == b
}

// ReadsN reports whether e reads b.N anywhere.
func ReadsN(info *types.Info, e ast.Node, b *types.Var) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if x, ok := n.(ast.Expr); ok && IsN(info, x, b) {
			found = true
		}
		return !found
	})
	return found
}

// UnderTest reports whether pkg is the package under test: the package
// being analysed or, for an external test package "p_test", package p.
func UnderTest(pass *analysis.Pass, pkg *types.Package) bool {
	if pkg == nil {
		return false
	}
	if pkg == pass.Pkg {
		return true
	}
	path, ok := strings.CutSuffix(pass.Pkg.Path(), "_test")
	return ok && pkg.Path() == path
}

// A Decl is a function or method declared in the package's source.
type Decl struct {
	Func *types.Func
	Node *ast.FuncDecl
}

// Decls returns the functions and methods declared in files, with their
// objects. With withBody, those without a body (assembly, linknamed) are
// left out.
func Decls(info *types.Info, files []*ast.File, withBody bool) []Decl {
	var out []Decl
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || withBody && fd.Body == nil {
				continue
			}
			if fn, ok := info.Defs[fd.Name].(*types.Func); ok {
				out = append(out, Decl{fn, fd})
			}
		}
	}
	return out
}
