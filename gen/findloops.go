package gen

import (
	"fmt"
	"go/ast"

	"golang.org/x/tools/go/packages"
)

// loops returns a segment for every for and range statement of file,
// nested ones too, named Loop_FUNC_LINE or Loop_TYPE_METHOD_LINE after
// the function declaration around it; used counts the names given in
// the package so far.
func (f *finder) loops(pkg *packages.Package, file *ast.File, used map[string]int) []*Segment {
	var segs []*Segment
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		prefix := "Loop_" + fd.Name.Name
		if fd.Recv != nil && len(fd.Recv.List) == 1 {
			prefix = "Loop_" + recvTypeName(fd.Recv.List[0].Type) + "_" + fd.Name.Name
		}
		// fns is the stack of functions around the node being visited.
		fns := []ast.Node{fd}
		var visit func(n ast.Node) bool
		visit = func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				fns = append(fns, n)
				ast.Inspect(n.Body, visit)
				fns = fns[:len(fns)-1]
				return false
			case *ast.ForStmt, *ast.RangeStmt:
				pos := f.fset.Position(n.Pos())
				name := fmt.Sprintf("%s_%d", prefix, pos.Line)
				used[name]++
				if k := used[name]; k > 1 {
					name = fmt.Sprintf("%s_%d", name, k)
				}
				segs = append(segs, &Segment{
					Name: name, Pos: pos, Pkg: pkg, File: file,
					Func: fns[len(fns)-1], Stmt: n.(ast.Stmt),
				})
			}
			return true
		}
		ast.Inspect(fd.Body, visit)
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
