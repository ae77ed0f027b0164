// Package driftstate defines an Analyzer that finds benchmark loops which
// change the state they measure, so that later iterations measure
// something else than the first.
package driftstate

import (
	"fmt"
	"go/ast"
	"go/types"

	"github.com/mbench/mbench/vet/internal/benchfn"
	"golang.org/x/tools/go/analysis"
)

// Doc is the analyzer's documentation; its first line is the summary.
const Doc = `report benchmark loops that drift the state they measure

A benchmark loop repeats one operation; if the operation leaves its input
changed, the iterations after the first measure another operation.
Rodriguez-Cancio et al., "Automatic Microbenchmark Generation to Prevent
Dead Code Elimination and Constant Folding" (2016), §2.4 "Reaching wrong
stable state", listing 2: sorting a list in every run measures, after the
first, sorting a sorted list, which §2.3 (table 1) shows to be 2.2 times
faster (LinkedList) or 2.5 times slower (Vector) than sorting unsorted
data; §3.5 "Smart Reset" restores such state before every run. Sestoft, "Microbenchmarks in Java
and C#", §5 gives the same example: "there is little point in measuring
how long it takes to sort an already-sorted array".

The analyzer reports, in a timed loop (classic b.N or b.Loop):
  - an in-place sort (sort.Ints, sort.Strings, sort.Float64s, sort.Sort,
    sort.Stable, sort.Slice, sort.SliceStable, slices.Sort, slices.SortFunc,
    slices.SortStableFunc, and functions of the package under test named
    *sort* that take a slice and return nothing, such as BubbleSort(xs))
    of a slice variable declared outside the loop
    that the loop body mentions nowhere else (no copy into it, no
    assignment, no shuffle, no element write);
  - xs = append(xs, ...) on a slice variable declared outside the loop
    that the loop never assigns otherwise (xs = xs[:0], xs = nil,
    re-make): the slice, and the heap the collector scans, grow with b.N,
    and the copies of its reallocations land in the timed loop;
  - m[k] = v (or m[k]++, m[k] += v) on a map variable declared outside the
    loop, with a key computed from the loop's iteration variable (not
    under % or &), and no delete(m, ...), clear(m) or assignment to m in
    the loop: the map grows with b.N.

Not reported: sorts of data the body sorted, or filled in ascending order
(xs[i] = i, or xs = append(xs, x) in a loop over an ascending counter i
with x monotone in i: i itself, a conversion of it, or a function call
whose other arguments are constants, as New(int64(i), 0)), before the
loop, of sorted constant literals, and of results of a function of the
package that sorts (makeSortedStrings): sorting sorted data is then what
the benchmark means; copy-then-sort inside the loop; slices and maps
pre-sized with b.N (make([]T, 0, b.N), or through n := b.N), where the
growth is deliberate; loops that are setup rather than timed (followed by
b.ResetTimer, or run with the timer stopped); appends to a slice of
pointer-free elements (numbers, booleans, arrays and structs of them)
declared in the function that holds the loop, which starts empty in every
run and grows by amortized copies that the collector never scans, so its
ns/op does not move with b.N (a slice captured from an enclosing function
or declared at package level keeps growing across the framework's runs and
is reported); appends in loops that contain a loop of their own or read
the clock or memory statistics (a heavy operation recording its own
measurements); keys that cycle (i % n); and uses in function literals.`

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
