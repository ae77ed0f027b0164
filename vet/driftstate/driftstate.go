package driftstate

import (
	"fmt"
	"go/ast"
	"go/types"

	"github.com/mbench/mbench/vet/internal/benchfn"
	"golang.org/x/tools/go/analysis"
)

// Doc is the analyzer's documentation: what it reports and how to fix
// it. The package documentation gives the reasons and the rule.
const Doc = `report benchmark loops that drift the state they measure

A loop that sorts its input in place sorts sorted data after the first
iteration; one that appends to a slice or map it never resets works on a
bigger structure and heap in every iteration. Later iterations then
measure another operation than the first.

Fix: restore the state in every iteration: sort a copy (copy(work, xs)),
reset what grows (xs = xs[:0]).`

// CategorySorted is the category of the findings about data sorted in
// place in every iteration, which make later iterations cheaper, not
// dearer; the other findings, about growth, have none.
const CategorySorted = "sorted"

// Analyzer reports loops that drift the state they measure.
var Analyzer = &analysis.Analyzer{
	Name: "driftstate",
	Doc:  Doc,
	URL:  "https://pkg.go.dev/github.com/mbench/mbench/vet/driftstate",
	Run:  run,
}

func run(pass *analysis.Pass) (any, error) {
	for _, body := range benchfn.Find(pass.TypesInfo, pass.Files) {
		for _, l := range body.Loops {
			c := &checker{pass: pass, body: body, loop: l}
			c.check()
		}
	}
	return nil, nil
}

type checker struct {
	pass *analysis.Pass
	body *benchfn.Body
	loop benchfn.Loop
}

func (c *checker) check() {
	info := c.pass.TypesInfo
	sorted := make(map[*types.Var]bool)
	grown := make(map[*types.Var]bool)
	inLoop(c.loop.Body, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.CallExpr:
			if !c.isSort(n) {
				return
			}
			id := sortedIdent(info, n.Args[0])
			v := c.outerVar(id)
			if v == nil || sorted[v] || !isSlice(v.Type()) {
				return
			}
			sorted[v] = true
			if c.onlySortedIn(v) && !c.sortedBefore(v) {
				c.pass.Report(analysis.Diagnostic{
					Pos: n.Pos(), End: n.End(), Category: CategorySorted,
					Message: fmt.Sprintf("%s is sorted in place in every iteration: after the first, the benchmark sorts sorted data; copy it first (copy(work, %s)) inside the loop", v.Name(), v.Name()),
				})
			}
		case *ast.AssignStmt:
			if v := c.appendGrowth(n); v != nil && !grown[v] {
				grown[v] = true
				c.pass.ReportRangef(n, "%s grows in every iteration and is never reset: later iterations append to a bigger slice on a bigger heap; reset it (%s = %s[:0]) inside the loop", v.Name(), v.Name(), v.Name())
			}
			for _, lhs := range n.Lhs {
				c.mapGrowth(lhs, grown)
			}
		case *ast.IncDecStmt:
			c.mapGrowth(n.X, grown)
		}
	})
}

// inLoop calls f for each node of the loop body, outside function
// literals.
func inLoop(body *ast.BlockStmt, f func(ast.Node)) {
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if n != nil {
			f(n)
		}
		return true
	})
}

// outerVar returns the variable id denotes if it is declared outside the
// loop (and is not a field); otherwise nil.
func (c *checker) outerVar(id *ast.Ident) *types.Var {
	if id == nil {
		return nil
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.IsField() {
		return nil
	}
	if c.loop.Stmt.Pos() <= v.Pos() && v.Pos() < c.loop.Stmt.End() {
		return nil
	}
	return v
}

func isSlice(t types.Type) bool {
	_, ok := t.Underlying().(*types.Slice)
	return ok
}
