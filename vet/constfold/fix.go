package constfold

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/mbench/mbench/vet/internal/benchfn"
	"github.com/mbench/mbench/vet/internal/source"
)

// inputFix returns the fix that passes the constant inputs of call, a
// call in a timed loop of body whose SSA form is ssaCall, through new
// package-level variables: each argument (and receiver) expression e of
// type T becomes a variable v, declared var v T at the end of the file
// and assigned v = e just before the outermost loop of body that holds
// the call. The compiler cannot know the value of a package-level
// variable inside the loop, so it has to compute the call, while the
// benchmark computes what it computed before.
//
// There is no fix when it could change the program: a generic or
// variadic callee, a type the file cannot write, a loop that is not a
// statement of a block, or an argument that names a local variable not
// visible just before that loop (declared inside it, or shadowed there).
// Each variable is named after the callee, the line and the argument's
// position, so that fixes of several findings can be applied together.
func inputFix(pass *analysis.Pass, body *benchfn.Body, call *ast.CallExpr, callee *types.Func, ssaCall *ssa.Call) []analysis.SuggestedFix {
	sig := callee.Signature()
	if sig.TypeParams().Len() > 0 || sig.RecvTypeParams().Len() > 0 || sig.Variadic() || call.Ellipsis.IsValid() {
		return nil
	}
	// The argument expressions in the order of the SSA call's arguments:
	// the receiver first for a static method call.
	args := call.Args
	if sig.Recv() != nil {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		args = append([]ast.Expr{sel.X}, args...)
	}
	if len(args) != len(ssaCall.Call.Args) {
		return nil
	}
	file := source.File(pass, call.Pos())
	anchor, indent := outerLoopStmt(pass, body, call)
	if file == nil || anchor == nil {
		return nil
	}
	info := pass.TypesInfo
	visible := pass.Pkg.Scope().Innermost(anchor.Pos())
	if visible == nil {
		return nil
	}
	imports := source.Imports(pass.Pkg, file)
	line := pass.Fset.Position(call.Pos()).Line
	var assigns, decls strings.Builder
	var edits []analysis.TextEdit
	// Each variable has the type of its parameter where the file can
	// write it, which keeps an alias (os.FileMode, whose constants are
	// of type io/fs.FileMode, a package the file may not import), else
	// the type of the argument. The receiver is the first parameter.
	var params []types.Type
	if recv := sig.Recv(); recv != nil {
		params = append(params, recv.Type())
	}
	for p := range sig.Params().Variables() {
		params = append(params, p.Type())
	}
	for i, e := range args {
		typ, ok := source.TypeString(pass.Pkg, imports, params[i])
		if !ok {
			typ, ok = source.TypeString(pass.Pkg, imports, info.TypeOf(e))
		}
		if !ok || !inScope(info, e, visible, anchor.Pos()) {
			return nil
		}
		name := fmt.Sprintf("in%s%d_%d", source.Exported(callee.Name()), line, i)
		for pass.Pkg.Scope().Lookup(name) != nil {
			name += "x"
		}
		// A constant expression has no function or composite literal,
		// the parts ExprString abbreviates.
		fmt.Fprintf(&assigns, "%s = %s\n%s", name, types.ExprString(e), indent)
		fmt.Fprintf(&decls, "\n\n// %s holds an input of %s, so that the compiler\n// cannot fold the call in the benchmark loop.\nvar %s %s", name, callee.Name(), name, typ)
		edits = append(edits, analysis.TextEdit{Pos: e.Pos(), End: e.End(), NewText: []byte(name)})
	}
	edits = append(edits,
		analysis.TextEdit{Pos: anchor.Pos(), End: anchor.Pos(), NewText: []byte(assigns.String())},
		analysis.TextEdit{Pos: file.End(), End: file.End(), NewText: []byte(decls.String())})
	return []analysis.SuggestedFix{{Message: "pass the constant inputs through package-level variables", TextEdits: edits}}
}

// outerLoopStmt returns the statement before which the inputs of call
// are assigned: the outermost loop of body that holds call, or the
// labelled statement around it, when it is a statement of a block; and
// the indentation of that statement's line. For a RunParallel body it is
// the statement b.RunParallel(...) itself: assigned in the body, the
// variables would be written by every goroutine at once.
func outerLoopStmt(pass *analysis.Pass, body *benchfn.Body, call *ast.CallExpr) (ast.Stmt, string) {
	// body.Loops lists an enclosing loop before the loops nested in it.
	var loop ast.Stmt
	for _, l := range body.Loops {
		if l.Stmt.Pos() <= call.Pos() && call.End() <= l.Stmt.End() {
			loop = l.Stmt
			break
		}
	}
	if loop == nil {
		return nil, ""
	}
	var root ast.Node = body.Body
	is := func(s ast.Stmt) bool { return s == loop }
	if body.RunParallel != nil {
		root = source.File(pass, body.RunParallel.Pos())
		is = func(s ast.Stmt) bool {
			es, ok := s.(*ast.ExprStmt)
			return ok && ast.Unparen(es.X) == body.RunParallel
		}
	}
	var anchor ast.Stmt
	ast.Inspect(root, func(n ast.Node) bool {
		if anchor != nil {
			return false
		}
		block, ok := n.(*ast.BlockStmt)
		if !ok {
			return true
		}
		for _, s := range block.List {
			if is(s) {
				anchor = s
			} else if l, ok := s.(*ast.LabeledStmt); ok && is(l.Stmt) {
				anchor = s
			}
		}
		return true
	})
	if anchor == nil {
		return nil, ""
	}
	col := pass.Fset.Position(anchor.Pos()).Column
	return anchor, strings.Repeat("\t", col-1)
}

// inScope reports whether every identifier of e names, just before pos,
// what it names in e: a package-level or universe object, or a local
// declared before pos in a scope that encloses it.
func inScope(info *types.Info, e ast.Expr, scope *types.Scope, pos token.Pos) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		if !ok {
			return false
		}
		// A qualified identifier (os.ModeDir) names a member of an
		// imported package: it is in scope when the import is.
		if sel, isSel := n.(*ast.SelectorExpr); isSel {
			if x, isIdent := sel.X.(*ast.Ident); isIdent {
				if pkg, isPkg := info.Uses[x].(*types.PkgName); isPkg {
					_, found := scope.LookupParent(x.Name, pos)
					ok = found == pkg
					return false
				}
			}
		}
		id, isIdent := n.(*ast.Ident)
		if !isIdent {
			return true
		}
		obj := info.Uses[id]
		if obj == nil {
			return true // a field or method name of a selector
		}
		if _, found := scope.LookupParent(id.Name, pos); found != obj {
			ok = false
		}
		return true
	})
	return ok
}
