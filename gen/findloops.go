package gen

import (
	"fmt"
	"go/ast"

	"golang.org/x/tools/go/packages"
)

// loops returns a segment for every for and range statement of file
// (with its label, when it has one), nested ones too, named Loop_FUNC_LINE or Loop_TYPE_METHOD_LINE after
// the function declaration around it, or Loop_VAR_LINE after the
// package-level variable whose function literal holds it, with a suffix
// _2, _3, ... when the name is taken; used holds the names taken in the
// package so far.
func (f *finder) loops(pkg *packages.Package, file *ast.File, used map[string]bool) []*Segment {
	var segs []*Segment
	// find adds the loops of root, whose function is fn (nil for a
	// package-level declaration).
	find := func(root ast.Node, fn ast.Node, prefix string) {
		// A labelled loop is segment with its label, so that a
		// continue or break of the label stays inside the segment.
		labelled := map[ast.Node]*ast.LabeledStmt{}
		ast.Inspect(root, func(n ast.Node) bool {
			if l, ok := n.(*ast.LabeledStmt); ok {
				labelled[l.Stmt] = l
			}
			return true
		})
		var fns []ast.Node // the functions around the node visited
		if fn != nil {
			fns = append(fns, fn)
		}
		var visit func(n ast.Node) bool
		visit = func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				fns = append(fns, n)
				ast.Inspect(n.Body, visit)
				fns = fns[:len(fns)-1]
				return false
			case *ast.ForStmt, *ast.RangeStmt:
				if len(fns) == 0 {
					return true
				}
				pos := f.fset.Position(n.Pos())
				base := fmt.Sprintf("%s_%d", prefix, pos.Line)
				name := base
				for k := 2; used[name]; k++ {
					name = fmt.Sprintf("%s_%d", base, k)
				}
				used[name] = true
				var stmt ast.Stmt = n.(ast.Stmt)
				if l := labelled[n]; l != nil {
					stmt = l
				}
				segs = append(segs, &Segment{
					Name: name, Pos: pos, Pkg: pkg, File: file,
					Func: fns[len(fns)-1], Stmt: stmt,
				})
			}
			return true
		}
		ast.Inspect(root, visit)
	}
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Body == nil {
				continue
			}
			prefix := "Loop_" + d.Name.Name
			if d.Recv != nil && len(d.Recv.List) == 1 {
				prefix = "Loop_" + recvTypeName(d.Recv.List[0].Type) + "_" + d.Name.Name
			}
			find(d.Body, d, prefix)
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				if vs, ok := spec.(*ast.ValueSpec); ok {
					name := vs.Names[0].Name
					if name == "_" {
						name = "var"
					}
					find(vs, nil, "Loop_"+name)
				}
			}
		}
	}
	return segs
}

// recvTypeName returns the name of the type of a method's receiver.
func recvTypeName(t ast.Expr) string {
	for {
		switch e := t.(type) {
		case *ast.StarExpr:
			t = e.X
		case *ast.ParenExpr:
			t = e.X
		case *ast.IndexExpr:
			t = e.X
		case *ast.IndexListExpr:
			t = e.X
		case *ast.Ident:
			return e.Name
		default:
			return "recv"
		}
	}
}
