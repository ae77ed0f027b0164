// Package constfold defines an analyzer that reports calls in benchmark
// loops whose arguments are all constants, so that the compiler may
// compute the result at compile time.
package constfold

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/mbench/mbench/vet/internal/benchfn"
	"github.com/mbench/mbench/vet/internal/purity"
)

const Doc = `report calls in benchmark loops whose arguments are all constants

When every argument of a call in a benchmark loop is a constant and the
callee is small and pure, the compiler inlines the call and folds the
computation to its result, so the benchmark measures a constant: constant
folding and propagation, the second microbenchmark mistake of
Rodriguez-Cancio et al., "Automatic Microbenchmark Generation to Prevent
Dead Code Elimination and Constant Folding" (ASE 2016, section 2.2).

b.Loop does not help. Its documentation (testing.B.Loop, Go 1.26) promises
that "arguments to and results from function calls ... are kept alive,
preventing the compiler from fully optimizing away the loop body"; the
cmd/compile/internal/bloop pass implements this by storing results (and,
for calls without results, arguments) into temporaries passed to
runtime.KeepAlive. That keeps a value from being deleted, not from being
known: the pass runs before inlining, the constant still flows into the
inlined body, and KeepAlive then keeps the folded constant alive. So both
for b.Loop() and b.N loops are checked.

An argument is constant when its SSA value is a constant with a value
(not nil): a literal, a named constant, or a local variable assigned a
constant once and never reassigned. For a method call the receiver counts
as an argument. Calls without arguments are not reported: there is no input
to fold. The callee must be known to fold (see package purity): a function
of the module that is pure, within the compiler's inlining budget of 80
nodes, has no loop (the compiler does not evaluate loops at compile time),
reads no package-level variable, allocates no heap object that escapes
(new, &T{}) and returns no pointer, slice, map, channel, function or
interface (a constructor such as newTree(1) returns a fresh object, not a
constant), and calls only such functions; or a
standard function with constant-folding rules in the compiler, such as
math.Sqrt or bits.OnesCount64. A trivial constructor, whose body is a
single return of a composite literal of its parameters and constants
(newip4i_v4(8, 8, 8, 8) in go4.org/netipx netipx_test.go, return
ip4i{ip4: [4]byte{a, b, c, d}}), is not reported: folding it saves a few
stores and no computation, so the call is setup, not the measured work
(A/B with the bytes from a package var: no slowdown). Inputs read from package-level variables,
parameters, table entries or loop variables are not constant and are not
reported; nor are calls inside function literals.`

var Analyzer = &analysis.Analyzer{
	Name:     "constfold",
	Doc:      Doc,
	Requires: []*analysis.Analyzer{purity.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	pure := pass.ResultOf[purity.Analyzer].(*purity.Result)
	if pure.Pkg == nil {
		return nil, nil // standard library
	}
	var diags []analysis.Diagnostic
	for _, body := range benchfn.Find(pass.TypesInfo, pass.Files) {
		fn := pure.Func(body.Node)
		if fn == nil || len(body.Loops) == 0 {
			continue
		}
		diags = append(diags, check(pass.TypesInfo, pure, fn, body)...)
	}
	sort.Slice(diags, func(i, j int) bool { return diags[i].Pos < diags[j].Pos })
	for _, d := range diags {
		pass.Report(d)
	}
	return nil, nil
}

// check returns a diagnostic for each call with constant arguments of a
// foldable function in the timed loops of body, whose SSA form is fn.
func check(info *types.Info, pure *purity.Result, fn *ssa.Function, body *benchfn.Body) []analysis.Diagnostic {
	// The calls of the loop bodies by the position of their '(', which
	// is the position of the ssa.Call. Calls in function literals belong
	// to other SSA functions.
	calls := make(map[token.Pos]*ast.CallExpr)
	for _, loop := range body.Loops {
		ast.Inspect(loop.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				calls[n.Lparen] = n
			}
			return true
		})
	}

	var diags []analysis.Diagnostic
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || call.Call.IsInvoke() || !constant(call.Call.Args) {
				continue
			}
			expr := calls[call.Pos()]
			if expr == nil {
				continue
			}
			callee, ok := typeutil.Callee(info, expr).(*types.Func)
			if !ok {
				continue
			}
			if recv := callee.Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) {
				continue
			}
			if s := pure.Lookup(callee); s == nil || !s.Foldable || s.Literal {
				continue
			}
			diags = append(diags, analysis.Diagnostic{
				Pos: expr.Pos(),
				End: expr.End(),
				Message: fmt.Sprintf("all arguments of %s are constants: the compiler may fold the call; "+
					"pass inputs through a variable the compiler cannot see through "+
					"(e.g. a package-level var set in the benchmark)", purity.Name(callee)),
			})
		}
	}
	return diags
}

// constant reports whether there is at least one argument and all are
// constants with a value.
func constant(args []ssa.Value) bool {
	for _, a := range args {
		if c, ok := a.(*ssa.Const); !ok || c.Value == nil {
			return false
		}
	}
	return len(args) > 0
}
