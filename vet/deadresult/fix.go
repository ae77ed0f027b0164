package deadresult

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/mbench/mbench/vet/internal/benchfn"
	"github.com/mbench/mbench/vet/internal/source"
)

// loopFix returns the fix that rewrites loop, a classic loop of body, to
// for b.Loop(), or nil when the rewrite could change what the benchmark
// does. b.Loop differs from a b.N loop in three ways that matter here: the
// benchmark function runs once, not once per b.N; b.N is 0 until the loop
// ends; and the loop must run until Loop returns false, with the timer
// running (testing reports an error otherwise).
func loopFix(info *types.Info, body *benchfn.Body, loop benchfn.Loop) []analysis.SuggestedFix {
	if loop.Kind != benchfn.Classic || len(body.Loops) != 1 || !topLevel(body.Body, loop.Stmt) {
		return nil
	}
	var header ast.Expr // the expression that reads b.N
	switch s := loop.Stmt.(type) {
	case *ast.ForStmt:
		i := counter(info, s, body.B)
		if i == nil || used(info, s.Body, i) {
			return nil
		}
		header = s.Cond
	case *ast.RangeStmt:
		if s.Value != nil || s.Key != nil && !isBlank(s.Key) {
			return nil
		}
		header = s.X
	default:
		return nil
	}
	if !onlyFields(info, body, loop, header) || leaves(loop.Body) {
		return nil
	}
	return []analysis.SuggestedFix{{
		Message: "loop with b.Loop",
		TextEdits: []analysis.TextEdit{{
			Pos:     loop.Stmt.Pos(),
			End:     loop.Body.Lbrace,
			NewText: []byte("for " + body.B.Name() + ".Loop() "),
		}},
	}}
}

func topLevel(block *ast.BlockStmt, stmt ast.Stmt) bool {
	for _, s := range block.List {
		if s == stmt {
			return true
		}
	}
	return false
}

// counter returns i if s is exactly for i := 0; i < b.N; i++.
func counter(info *types.Info, s *ast.ForStmt, b *types.Var) *types.Var {
	init, ok := s.Init.(*ast.AssignStmt)
	if !ok || init.Tok != token.DEFINE || len(init.Lhs) != 1 || len(init.Rhs) != 1 {
		return nil
	}
	id, ok := init.Lhs[0].(*ast.Ident)
	if !ok {
		return nil
	}
	i, ok := info.Defs[id].(*types.Var)
	if !ok {
		return nil
	}
	if lit, ok := init.Rhs[0].(*ast.BasicLit); !ok || lit.Value != "0" {
		return nil
	}
	cond, ok := s.Cond.(*ast.BinaryExpr)
	if !ok || cond.Op != token.LSS || !isVar(info, cond.X, i) || !benchfn.IsN(info, cond.Y, b) {
		return nil
	}
	post, ok := s.Post.(*ast.IncDecStmt)
	if !ok || post.Tok != token.INC || !isVar(info, post.X, i) {
		return nil
	}
	return i
}

func isVar(info *types.Info, e ast.Expr, v *types.Var) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && info.Uses[id] == v
}

func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}

// used reports whether v is used in n.
func used(info *types.Info, n ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == v {
			found = true
		}
		return !found
	})
	return found
}

// onlyFields reports whether every use of b in the benchmark selects a
// field or method of it, none of them a timer method, and b.N is read only
// in the loop header or after the loop. Passing b to a helper could hide
// any of these, so it also blocks the fix.
func onlyFields(info *types.Info, body *benchfn.Body, loop benchfn.Loop, header ast.Expr) bool {
	selected := make(map[*ast.Ident]bool)
	ok := true
	ast.Inspect(body.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			id, isIdent := ast.Unparen(n.X).(*ast.Ident)
			if !isIdent || info.Uses[id] != body.B {
				break
			}
			selected[id] = true
			if benchfn.IsN(info, n, body.B) && !within(n, header) && n.Pos() < loop.Stmt.End() {
				ok = false
			}
		case *ast.CallExpr:
			for _, m := range [...]string{"StopTimer", "StartTimer", "ResetTimer"} {
				if benchfn.IsMethodOf(info, n, body.B, m) {
					ok = false
				}
			}
		case *ast.Ident:
			if info.Uses[n] == body.B && !selected[n] {
				ok = false
			}
		}
		return ok
	})
	return ok
}

func within(n, outer ast.Node) bool {
	return outer.Pos() <= n.Pos() && n.End() <= outer.End()
}

// leaves reports whether a statement of body, outside function literals,
// could leave the loop before b.Loop returns false: a return, a goto, a
// labelled branch, or a break not inside a nested loop, switch or select.
func leaves(body *ast.BlockStmt) bool {
	found := false
	var walk func(n ast.Node, breakable bool)
	walk = func(n ast.Node, breakable bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			if found {
				return false
			}
			switch m := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				found = true
			case *ast.BranchStmt:
				if m.Tok == token.GOTO || m.Label != nil || m.Tok == token.BREAK && !breakable {
					found = true
				}
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if m != n {
					walk(m, true)
					return false
				}
			}
			return true
		})
	}
	walk(body, false)
	return found
}

// sinkFix returns the fix that keeps the results of call alive by
// assigning them to new package-level variables: when call is a statement
// of its own or assigned to blank identifiers only, and the type of at
// least one result can be written in file (its package is this one, or
// imported by file). A result whose type cannot be written stays assigned
// to _. Each variable is named after the callee, the line and, for a
// call with several results, the result's position, so that fixes of
// several findings can be applied together.
func sinkFix(pass *analysis.Pass, file *ast.File, loop benchfn.Loop, call *ast.CallExpr, callee *types.Func) []analysis.SuggestedFix {
	// The signature as called: a method of a generic type, or a generic
	// function, returns the type arguments of the call (Value of
	// uax29's Iterator[T] returns []byte for an Iterator[[]byte]), not
	// its type parameters.
	sig, ok := pass.TypesInfo.TypeOf(call.Fun).(*types.Signature)
	if !ok {
		sig = callee.Signature()
	}
	results := sig.Results()
	if file == nil || results.Len() == 0 {
		return nil
	}
	var lhs []ast.Expr // the blank identifiers the call is assigned to, if any
	found := false
	ast.Inspect(loop.Body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch s := n.(type) {
		case *ast.ExprStmt:
			found = s.X == call
		case *ast.AssignStmt:
			if len(s.Rhs) == 1 && s.Rhs[0] == call && s.Tok == token.ASSIGN && len(s.Lhs) == results.Len() &&
				!slices.ContainsFunc(s.Lhs, func(e ast.Expr) bool { return !isBlank(e) }) {
				lhs, found = s.Lhs, true
			}
		}
		return !found
	})
	if !found {
		return nil
	}
	imports := source.Imports(pass.Pkg, file)
	line := pass.Fset.Position(call.Pos()).Line
	names := make([]string, results.Len()) // "_" where the type cannot be written
	var decls strings.Builder
	for i := range results.Len() {
		typ, writable := source.TypeString(pass.Pkg, imports, results.At(i).Type())
		if !writable {
			names[i] = "_"
			continue
		}
		name := fmt.Sprintf("sink%s%d", source.Exported(callee.Name()), line)
		if results.Len() > 1 {
			name += fmt.Sprintf("_%d", i)
		}
		for pass.Pkg.Scope().Lookup(name) != nil {
			name += "x"
		}
		names[i] = name
		what := "the result"
		if results.Len() > 1 {
			what = fmt.Sprintf("result %d", i+1)
		}
		fmt.Fprintf(&decls, "\n\n// %s keeps %s of %s alive, so that the compiler cannot remove\n// the call from the benchmark loop.\nvar %s %s", name, what, callee.Name(), name, typ)
	}
	if decls.Len() == 0 {
		return nil
	}
	edit := analysis.TextEdit{Pos: call.Pos(), End: call.Pos(), NewText: []byte(strings.Join(names, ", ") + " = ")}
	if lhs != nil { // replacing the blank identifiers
		edit = analysis.TextEdit{Pos: lhs[0].Pos(), End: lhs[len(lhs)-1].End(), NewText: []byte(strings.Join(names, ", "))}
	}
	message := "assign the result to a package-level sink"
	if results.Len() > 1 {
		message = "assign the results to package-level sinks"
	}
	return []analysis.SuggestedFix{{
		Message:   message,
		TextEdits: []analysis.TextEdit{edit, {Pos: file.End(), End: file.End(), NewText: []byte(decls.String())}},
	}}
}
