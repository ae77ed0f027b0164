package gen

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
)

// This file decides whether a segment gets a benchmark. The checks run
// in this order and the first that fails names the reason:
//
//   - TypeParam: the function around the segment is generic, or is a
//     method of a generic type (the benchmark would need the type
//     arguments).
//   - Concurrent: the segment holds a go, defer or select statement, a
//     channel send or receive, or a range over a channel.
//   - JumpsOut: at an exit of the segment (a return of a statement
//     segment, a break or continue whose loop, switch or select is
//     outside it, a labelled break, continue or goto whose label is
//     outside it: see exits), a variable the program reads after the
//     exit is not the segment's variable of that name: declared later in
//     the segment, or shadowed. Other exits are reported by the payload.
//   - RecoveredPanic: the function around the segment defers a function
//     literal that calls recover, or a function or method of the package
//     that calls it, and the segment may panic: it calls panic or any other
//     function, or holds an index, slice, type assertion, dereference or
//     integer division by a variable.
//   - WritesGlobal: the segment assigns a package-level variable,
//     stores through one, or passes one to a call certain to change it
//     (see the rules in analyze_effects.go).
//   - Unrecordable: an input or output (outputs are recorded too, for
//     the regression test) has, or reaches through fields (unexported
//     ones included: the codec sets them through reflect), elements,
//     keys and pointers, a uintptr or unsafe.Pointer, or, except in a
//     struct's field, a channel or function;
//     a type of os, net, syscall or os/exec (a handle: *os.File,
//     net.Conn, ...); or its type names an unexported type of another
//     package, or one of a package it may not import. Interfaces pass:
//     their values are recorded with their dynamic types, and Record
//     decides whether the generated code can rebuild them.

// reject sets the segment's Reason and Detail.
func (a *analyzer) reject() {
	for _, check := range []func() (Reason, string){
		a.typeParam, a.concurrent, a.jumpsOut, a.recoveredPanic, a.writesGlobal, a.unrecordable,
	} {
		if r, d := check(); r != Accepted {
			a.seg.Reason, a.seg.Detail = r, d
			return
		}
	}
}

// at formats pos for a Detail: the file's base name, line and column.
func (a *analyzer) at(pos token.Pos) string {
	p := a.fset.Position(pos)
	return fmt.Sprintf("%s:%d:%d", filepath.Base(p.Filename), p.Line, p.Column)
}

func (a *analyzer) typeParam() (Reason, string) {
	fd, ok := a.outer.(*ast.FuncDecl)
	if !ok {
		return Accepted, ""
	}
	if fd.Type.TypeParams != nil {
		return TypeParam, fmt.Sprintf("generic function %s at %s", fd.Name.Name, a.at(fd.Pos()))
	}
	if fd.Recv != nil && len(fd.Recv.List) == 1 {
		t := fd.Recv.List[0].Type
		if s, ok := t.(*ast.StarExpr); ok {
			t = s.X
		}
		switch t.(type) {
		case *ast.IndexExpr, *ast.IndexListExpr:
			return TypeParam, fmt.Sprintf("method %s of a generic type at %s", fd.Name.Name, a.at(fd.Pos()))
		}
	}
	return Accepted, ""
}

func (a *analyzer) concurrent() (Reason, string) {
	var detail string
	ast.Inspect(a.code, func(n ast.Node) bool {
		if detail != "" {
			return false
		}
		switch n := n.(type) {
		case *ast.GoStmt:
			detail = "go statement at " + a.at(n.Pos())
		case *ast.DeferStmt:
			detail = "defer statement at " + a.at(n.Pos())
		case *ast.SelectStmt:
			detail = "select statement at " + a.at(n.Pos())
		case *ast.SendStmt:
			detail = "channel send at " + a.at(n.Pos())
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				detail = "channel receive at " + a.at(n.Pos())
			}
		case *ast.RangeStmt:
			if _, ok := under(a.info.TypeOf(n.X)).(*types.Chan); ok {
				detail = "range over a channel at " + a.at(n.Pos())
			}
		}
		return true
	})
	if detail != "" {
		return Concurrent, detail
	}
	return Accepted, ""
}

// exits sets the segment's Exits, in source order: outside function
// literals, the returns of a statement segment, and the breaks and
// continues whose loop, switch or select is outside the segment, and the
// labelled breaks, continues and gotos whose label is outside it.
func (a *analyzer) exits() {
	// loops and breaks count the statements around a node, inside the
	// segment, that continue and break can leave.
	var walk func(n ast.Node, loops, breaks int)
	walk = func(n ast.Node, loops, breaks int) {
		ast.Inspect(n, func(c ast.Node) bool {
			if c == n {
				return true
			}
			switch c := c.(type) {
			case *ast.FuncLit:
				return false // its returns and branches stay inside it
			case *ast.ReturnStmt:
				if !a.seg.Whole {
					a.seg.Exits = append(a.seg.Exits, Exit{c, "return at " + a.at(c.Pos())})
				}
			case *ast.ForStmt, *ast.RangeStmt:
				walk(c, loops+1, breaks+1)
				return false
			case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				walk(c, loops, breaks+1)
				return false
			case *ast.BranchStmt:
				if c.Label != nil {
					if l, ok := a.info.Uses[c.Label].(*types.Label); ok && !a.in(l.Pos()) {
						a.seg.Exits = append(a.seg.Exits, Exit{c, fmt.Sprintf("%s %s at %s", c.Tok, c.Label.Name, a.at(c.Pos()))})
					}
					return false
				}
				if c.Tok == token.BREAK && breaks == 0 || c.Tok == token.CONTINUE && loops == 0 {
					a.seg.Exits = append(a.seg.Exits, Exit{c, fmt.Sprintf("%s at %s", c.Tok, a.at(c.Pos()))})
				}
			}
			return true
		})
	}
	walk(&ast.BlockStmt{List: []ast.Stmt{a.codeStmt()}}, 0, 0)
	if len(a.seg.Exits) == 0 || a.seg.Whole {
		return
	}
	for _, x := range a.seg.Exits {
		if !x.Returns() {
			continue
		}
		var sig *types.Signature
		switch f := a.seg.Func.(type) {
		case *ast.FuncDecl:
			if fn, ok := a.info.Defs[f.Name].(*types.Func); ok {
				sig = fn.Signature()
			}
		case *ast.FuncLit:
			sig, _ = a.info.TypeOf(f).(*types.Signature)
		}
		if sig == nil {
			break
		}
		for i := range sig.Results().Len() {
			a.seg.Returns = append(a.seg.Returns, Var{Name: fmt.Sprintf("return %d", i), Type: sig.Results().At(i).Type()})
		}
		break
	}
}

// jumpsOut rejects a segment with an exit where a variable the program
// reads afterwards is out of the payload's reach: after a break,
// continue or goto, the outputs and the mutated inputs; after a return,
// the mutated inputs (the function's locals are gone). Each must be the
// segment's variable of that name at the exit, or its value there cannot
// be recorded.
func (a *analyzer) jumpsOut() (Reason, string) {
	for _, x := range a.seg.Exits {
		vars := a.seg.Inputs
		if !x.Returns() {
			vars = append(slices.Clone(a.seg.Outputs), vars...)
		}
		for _, v := range vars {
			if v.Obj == nil || inputOf(a.seg, v) && !v.Mutated && !isOutputVar(a.seg, v) {
				continue
			}
			scope := a.pkg.Scope().Innermost(x.Stmt.Pos())
			if scope == nil {
				continue
			}
			if _, obj := scope.LookupParent(v.Name, x.Stmt.Pos()); obj != v.Obj {
				return JumpsOut, fmt.Sprintf("%s: %s is not in scope there", x.Desc, v.Name)
			}
		}
	}
	return Accepted, ""
}

// isOutputVar reports whether v is among the outputs of s.
func isOutputVar(s *Segment, v Var) bool {
	for _, w := range s.Outputs {
		if w.Obj == v.Obj {
			return true
		}
	}
	return false
}

// codeStmt returns the segment's code as a statement.
func (a *analyzer) codeStmt() ast.Stmt {
	if s, ok := a.code.(ast.Stmt); ok {
		return s
	}
	return &ast.EmptyStmt{}
}

func (a *analyzer) recoveredPanic() (Reason, string) {
	if a.seg.Whole {
		return Accepted, "" // its defer is Concurrent
	}
	var body *ast.BlockStmt
	switch f := a.seg.Func.(type) {
	case *ast.FuncDecl:
		body = f.Body
	case *ast.FuncLit:
		body = f.Body
	}
	var recovers token.Pos
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // defers of other functions
		case *ast.DeferStmt:
			if a.callsRecover(n.Call) {
				recovers = n.Pos()
			}
		}
		return !recovers.IsValid()
	})
	if !recovers.IsValid() {
		return Accepted, ""
	}
	var may token.Pos
	ast.Inspect(a.code, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if tv, ok := a.info.Types[n.Fun]; ok && tv.IsType() {
				break // a conversion
			}
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok {
				if b, ok := a.info.Uses[id].(*types.Builtin); ok && b.Name() != "panic" {
					break
				}
			}
			may = n.Pos()
		case *ast.IndexExpr, *ast.SliceExpr, *ast.StarExpr:
			if tv, ok := a.info.Types[n.(ast.Expr)]; ok && tv.IsValue() {
				may = n.Pos()
			}
		case *ast.TypeAssertExpr:
			may = n.Pos()
		case *ast.BinaryExpr:
			// An integer division by a value that may be zero.
			if n.Op == token.QUO || n.Op == token.REM {
				t, ok := under(a.info.TypeOf(n)).(*types.Basic)
				if tv := a.info.Types[n.Y]; ok && t.Info()&types.IsInteger != 0 && tv.Value == nil {
					may = n.Pos()
				}
			}
		case *ast.AssignStmt:
			if n.Tok == token.QUO_ASSIGN || n.Tok == token.REM_ASSIGN {
				t, ok := under(a.info.TypeOf(n.Lhs[0])).(*types.Basic)
				if tv := a.info.Types[n.Rhs[0]]; ok && t.Info()&types.IsInteger != 0 && tv.Value == nil {
					may = n.Pos()
				}
			}
		}
		return !may.IsValid()
	})
	if !may.IsValid() {
		return Accepted, ""
	}
	return RecoveredPanic, fmt.Sprintf("may panic at %s, recovered by the defer at %s", a.at(may), a.at(recovers))
}

// callsRecover reports whether the deferred call is a function literal
// calling recover, or a function or method of the package whose body
// calls it.
func (a *analyzer) callsRecover(call *ast.CallExpr) bool {
	var body ast.Node
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.FuncLit:
		body = f.Body
	case *ast.Ident:
		if fn, ok := a.info.Uses[f].(*types.Func); ok && fn.Pkg() == a.pkg {
			body = a.funcBody(fn)
		}
	case *ast.SelectorExpr:
		if fn, ok := a.info.Uses[f.Sel].(*types.Func); ok && fn.Pkg() == a.pkg {
			body = a.funcBody(fn)
		}
	}
	if body == nil {
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok {
				if b, ok := a.info.Uses[id].(*types.Builtin); ok && b.Name() == "recover" {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// funcBody returns the body of fn, a function of the segment's package.
func (a *analyzer) funcBody(fn *types.Func) *ast.BlockStmt {
	for _, f := range a.seg.Pkg.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && a.info.Defs[fd.Name] == fn {
				return fd.Body
			}
		}
	}
	return nil
}

func (a *analyzer) writesGlobal() (Reason, string) {
	if !a.globalWrite.pos.IsValid() {
		return Accepted, ""
	}
	return WritesGlobal, fmt.Sprintf("changes %s at %s", a.globalWrite.v.Name(), a.at(a.globalWrite.pos))
}

func (a *analyzer) unrecordable() (Reason, string) {
	check := func(kind string, vs []Var) string {
		for _, v := range vs {
			why := a.unnameable(v.Type)
			if why == "" {
				why = a.unrecordableType(v.Type, map[types.Type]bool{}, false)
			}
			if why != "" {
				return fmt.Sprintf("%s %s of type %s: %s", kind, v.Name, types.TypeString(v.Type, types.RelativeTo(a.pkg)), why)
			}
		}
		return ""
	}
	if d := check("input", a.seg.Inputs); d != "" {
		return Unrecordable, d
	}
	if d := check("output", a.seg.Outputs); d != "" {
		return Unrecordable, d
	}
	if d := check("result", a.seg.Returns); d != "" {
		return Unrecordable, d
	}
	return Accepted, ""
}

// isError reports whether t is the predeclared type error (not another
// interface, nor a named type of the program defined as error).
func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// handlePkgs are the packages whose types are handles of the operating
// system.
var handlePkgs = map[string]bool{"os": true, "net": true, "syscall": true, "os/exec": true}

// unnameable says why the generated code, in the segment's package,
// cannot spell t, or returns "": t names an unexported type of another
// package, or a type of a package it may not import.
func (a *analyzer) unnameable(t types.Type) string {
	why := ""
	var walk func(t types.Type)
	walk = func(t types.Type) {
		if why != "" {
			return
		}
		switch t := types.Unalias(t).(type) {
		case *types.Named:
			obj := t.Obj()
			if obj.Pkg() != nil && obj.Pkg() != a.pkg {
				switch {
				case !obj.Exported():
					why = "it names " + types.TypeString(t, types.RelativeTo(a.pkg)) + ", an unexported type of another package"
				case !importable(a.pkg.Path(), obj.Pkg().Path()):
					why = "it names " + types.TypeString(t, types.RelativeTo(a.pkg)) + ", of a package it may not import"
				}
			}
			if args := t.TypeArgs(); args != nil {
				for i := range args.Len() {
					walk(args.At(i))
				}
			}
		case *types.Pointer:
			walk(t.Elem())
		case *types.Slice:
			walk(t.Elem())
		case *types.Array:
			walk(t.Elem())
		case *types.Map:
			walk(t.Key())
			walk(t.Elem())
		case *types.Chan:
			walk(t.Elem())
		case *types.Struct:
			for i := range t.NumFields() {
				walk(t.Field(i).Type())
			}
		case *types.Signature:
			for _, tup := range []*types.Tuple{t.Params(), t.Results()} {
				for i := range tup.Len() {
					walk(tup.At(i).Type())
				}
			}
		}
	}
	walk(t)
	return why
}

// importable reports whether the package with path from may import the
// package with path to: a package under an internal directory only from
// the tree rooted at the internal directory's parent.
func importable(from, to string) bool {
	var root string
	switch {
	case to == "internal" || strings.HasPrefix(to, "internal/"):
	case strings.Contains(to, "/internal/"):
		root = to[:strings.LastIndex(to, "/internal/")]
	case strings.HasSuffix(to, "/internal"):
		root = strings.TrimSuffix(to, "/internal")
	default:
		return true
	}
	if root == "" {
		// The standard library's: only the standard library, whose
		// paths have no dot in their first element.
		return !strings.Contains(strings.SplitN(from, "/", 2)[0], ".")
	}
	return from == root || strings.HasPrefix(from, root+"/")
}

// unrecordableType says why a value of type t cannot be recorded, or
// returns "". Interfaces are recorded with the dynamic type of their
// value, and structs of other packages with their unexported fields: the
// recording decides, value by value, whether they can be rebuilt. So it
// does for the functions and channels of a struct's fields (inField),
// most often nil (a hook no test sets): the recorder refuses the
// executions where one is not. A variable that is a function or a
// channel itself, or holds them in its elements, is refused here.
func (a *analyzer) unrecordableType(t types.Type, seen map[types.Type]bool, inField bool) string {
	if seen[t] {
		return ""
	}
	seen[t] = true
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
		name := types.TypeString(n, types.RelativeTo(a.pkg))
		if handlePkgs[n.Obj().Pkg().Path()] {
			return "it holds " + name + ", an operating system handle"
		}
		if _, ok := n.Underlying().(*types.Struct); ok && n.Obj().Pkg() != a.pkg {
			// Name the type of the other package that holds it.
			if why := a.unrecordableType(n.Underlying(), seen, inField); why != "" {
				return "it holds " + name + ": " + why
			}
			return ""
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch u.Kind() {
		case types.UnsafePointer:
			return "it holds an unsafe.Pointer"
		case types.Uintptr:
			return "it holds a uintptr, an address"
		}
	case *types.Chan:
		if !inField {
			return "it holds a channel"
		}
	case *types.Signature:
		if !inField {
			return "it holds a function"
		}
	case *types.Pointer:
		return a.unrecordableType(u.Elem(), seen, inField)
	case *types.Slice:
		return a.unrecordableType(u.Elem(), seen, inField)
	case *types.Array:
		return a.unrecordableType(u.Elem(), seen, inField)
	case *types.Map:
		if why := a.unrecordableType(u.Key(), seen, inField); why != "" {
			return why
		}
		return a.unrecordableType(u.Elem(), seen, inField)
	case *types.Struct:
		for i := range u.NumFields() {
			if why := a.unrecordableType(u.Field(i).Type(), seen, true); why != "" {
				return why
			}
		}
	}
	return ""
}
