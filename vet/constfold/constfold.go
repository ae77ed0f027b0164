package constfold

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/mbench/mbench/vet/internal/benchfn"
	"github.com/mbench/mbench/vet/internal/purity"
)

// Doc is the analyzer's documentation: what it reports and how to fix
// it. The package documentation gives the reasons and the rule.
const Doc = `report calls in benchmark loops with all-constant arguments

The compiler may inline a small pure function called with constants and
compute its result at compile time, so the benchmark measures a constant.
b.Loop does not prevent this; b.N, b.Loop and pb.Next loops are checked.

Fix: pass the inputs through package-level variables assigned before the
loop (the suggested fix does), so that the compiler cannot know them.`

var Analyzer = &analysis.Analyzer{
	Name:     "constfold",
	Doc:      Doc,
	Requires: []*analysis.Analyzer{purity.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	pure := pass.ResultOf[purity.Analyzer].(*purity.Result)
	var diags []analysis.Diagnostic
	for _, b := range pure.Benchmarks(pass) {
		if len(b.Loops) > 0 {
			diags = append(diags, check(pass, pure, b.Fn, b.Body)...)
		}
	}
	purity.Report(pass, diags)
	return nil, nil
}

// check returns a diagnostic for each call with constant arguments of a
// foldable function in the timed loops of body, whose SSA form is fn.
func check(pass *analysis.Pass, pure *purity.Result, fn *ssa.Function, body *benchfn.Body) []analysis.Diagnostic {
	info := pass.TypesInfo
	// The calls of the loop bodies by the position of their '(', which
	// is the position of the ssa.Call. Calls in function literals belong
	// to other SSA functions. kinds holds the kind of the innermost timed
	// loop of each call: body.Loops lists an enclosing loop before the
	// loops nested in it, so the last loop to see a call is innermost.
	calls := make(map[token.Pos]*ast.CallExpr)
	kinds := make(map[token.Pos]benchfn.LoopKind)
	for _, loop := range body.Loops {
		ast.Inspect(loop.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				calls[n.Lparen], kinds[n.Lparen] = n, loop.Kind
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
			if s := pure.Lookup(callee); s == nil || !s.Foldable || s.Literal || s.Selects ||
				s.Ops <= 1 && kinds[call.Pos()] == benchfn.BLoop {
				continue
			}
			if feedsWork(pure, call) {
				continue
			}
			diags = append(diags, analysis.Diagnostic{
				Pos: expr.Pos(),
				End: expr.End(),
				Message: fmt.Sprintf("all arguments of %s are constants: the compiler may fold the call; "+
					"pass inputs through a variable the compiler cannot see through "+
					"(e.g. a package-level var set in the benchmark)", purity.Name(callee)),
				SuggestedFixes: inputFix(pass, body, expr, callee, call),
			})
		}
	}
	return diags
}

// feedsWork reports whether the result of call is used, through
// conversions (to an interface too), φ-nodes and calls that fold, only as
// an argument of calls that do not fold (flags =
// flags.EnableTrySeekUsingNext() before it.SeekPrefixGE(k, k, flags) in
// cockroachdb/pebble, through an if; Add(1, 1) boxed for vcaesar/tt's
// at.Equal): calls of impure or dynamic functions, builtins with runtime
// effects, or pure functions that do not fold. Then the constant is an input the benchmark
// prepares for the work it measures, not that work itself
// (table.recentMiss(0).Store(uint64(stringCacheAdmissionValue(0))) in
// oschwald/maxminddb-golang: the callee adds one, the benchmark times the
// atomic store, as fast with the offset in a package variable).
func feedsWork(pure *purity.Result, call *ssa.Call) bool {
	uses := 0
	stopped := purity.VisitUses([]ssa.Value{call}, func(v ssa.Value, r ssa.Instruction) (ssa.Value, bool) {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Convert, *ssa.ChangeType, *ssa.MakeInterface, *ssa.Phi:
			return r.(ssa.Value), false
		case *ssa.Call:
			if folds(pure, r) {
				// Computation that folds with it: follow its result
				// to where it is used.
				return r, false
			}
			uses++
		case *ssa.Store:
			// An element of the ... argument of a call (append(s, v)
			// stores v into a fresh array first).
			c := varargsCall(r.Addr)
			if r.Val != v || c == nil || folds(pure, c) {
				return nil, true
			}
			uses++
		default:
			return nil, true
		}
		return nil, false
	})
	return !stopped && uses > 0
}

// varargsCall returns the call whose ... argument addr is an element of:
// the address of an element of a local array that is only indexed and
// sliced once, and that slice only passed to a call. Otherwise nil.
func varargsCall(addr ssa.Value) *ssa.Call {
	ia, ok := addr.(*ssa.IndexAddr)
	if !ok {
		return nil
	}
	arr, ok := ia.X.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var call *ssa.Call
	for _, r := range *arr.Referrers() {
		switch r := r.(type) {
		case *ssa.IndexAddr:
		case *ssa.Slice:
			refs := *r.Referrers()
			if call != nil || len(refs) != 1 {
				return nil
			}
			if call, ok = refs[0].(*ssa.Call); !ok {
				return nil
			}
		default:
			return nil
		}
	}
	return call
}

// folds reports whether call is a static call of a function that folds.
func folds(pure *purity.Result, call *ssa.Call) bool {
	s := pure.Callee(&call.Call)
	return s != nil && s.Foldable
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
