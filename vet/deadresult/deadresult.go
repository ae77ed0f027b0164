package deadresult

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
	"github.com/mbench/mbench/vet/internal/source"
)

// Doc is the analyzer's documentation: what it reports and how to fix
// it. The package documentation gives the reasons and the rule.
const Doc = `report results never used in b.N and pb.Next loops

The compiler may inline a small function without effects and delete a
call whose result nothing uses, so the benchmark times an empty loop.
for b.Loop() keeps results alive; b.N loops and pb.Next loops do not.

Fix: loop with for b.Loop() (the suggested fix rewrites a simple b.N
loop) or assign the result to a package-level variable. In a pb.Next
loop, sum it into a variable declared before the loop and use that after.`

var Analyzer = &analysis.Analyzer{
	Name:     "deadresult",
	Doc:      Doc,
	Requires: []*analysis.Analyzer{purity.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	pure := pass.ResultOf[purity.Analyzer].(*purity.Result)
	var diags []analysis.Diagnostic
	for _, b := range pure.Benchmarks(pass) {
		body, fn := b.Body, b.Fn
		for _, loop := range body.Loops {
			if loop.Kind == benchfn.BLoop {
				continue
			}
			fix := loopFix(pass.TypesInfo, body, loop)
			rewrite := fix != nil
			file := source.File(pass, body.Body.Pos())
			for _, f := range check(pass.TypesInfo, pure, fn, body, loop) {
				d := f.diag
				sink := sinkFix(pass, file, loop, f.call, f.callee)
				switch {
				case loop.Kind == benchfn.Parallel:
					// Every goroutine would store into the one sink: a
					// data race, and a cache line they fight over, which
					// the benchmark would then measure. No fix.
				case !rewrite:
					// The loop cannot become a b.Loop loop: keep each
					// result alive instead.
					d.SuggestedFixes = sink
				case fix != nil:
					// The rewrite first (what -fix applies), the sink
					// as the alternative that keeps the loop as written
					// (what mbench vet -run keeps a result alive with
					// when it checks folding).
					d.SuggestedFixes = append(fix, sink...)
					fix = nil // one rewrite per loop
				}
				diags = append(diags, d)
			}
		}
	}
	purity.Report(pass, diags)
	return nil, nil
}

// A finding is a dead call and its diagnostic.
type finding struct {
	diag   analysis.Diagnostic
	call   *ast.CallExpr
	callee *types.Func
}

// check returns a finding for each dead call of a pure function in the
// body of loop, a b.N or pb.Next loop of body, whose SSA form is fn.
func check(info *types.Info, pure *purity.Result, fn *ssa.Function, body *benchfn.Body, loop benchfn.Loop) []finding {
	// The calls of the loop body, by the position of their '(' (which is
	// the position of the corresponding ssa.Call), leaving out nested
	// function literals (their calls belong to other SSA functions) and
	// any b.Loop loop nested inside, which keeps results alive.
	calls := make(map[token.Pos]*ast.CallExpr)
	ast.Inspect(loop.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt:
			if n.Cond != nil && benchfn.IsLoopCall(info, n.Cond, body.B) {
				return false
			}
		case *ast.CallExpr:
			calls[n.Lparen] = n
		}
		return true
	})

	// The removable calls of the loop, in block order. A call is dead when
	// nothing observable uses its result, or only other dead calls do
	// (NewPair(x).First(): the pair goes with the dead First).
	type candidate struct {
		call   *ssa.Call
		expr   *ast.CallExpr
		callee *types.Func
	}
	var cands []candidate
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || call.Call.IsInvoke() {
				continue
			}
			expr := calls[call.Pos()]
			if expr == nil {
				continue
			}
			callee, ok := typeutil.Callee(info, expr).(*types.Func)
			if !ok || callee.Signature().Results().Len() == 0 {
				continue
			}
			if recv := callee.Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) {
				continue
			}
			if s := pure.Lookup(callee); s == nil || !s.Removable() {
				continue
			}
			cands = append(cands, candidate{call, expr, callee})
		}
	}
	deadCalls := make(map[*ssa.Call]bool)
	deadExprs := make(map[*ast.CallExpr]bool)
	for changed := true; changed; {
		changed = false
		for _, c := range cands {
			if !deadCalls[c.call] && dead(c.call, deadCalls) {
				deadCalls[c.call], deadExprs[c.expr] = true, true
				changed = true
			}
		}
	}
	if len(deadExprs) == 0 {
		return nil
	}

	// A callee that only selects loses a few loads, about what keeping
	// its result alive costs, and a trivial constructor (a literal of its
	// parameters) a few moves: nothing the benchmark could measure either
	// way. A lookup at a computed index is the work when nothing else in
	// the loop works, and nothing next to work.
	busy := othersWork(info, pure, calls, deadExprs)
	var found []finding
	for _, c := range cands {
		if !deadExprs[c.expr] {
			continue
		}
		if s := pure.Lookup(c.callee); s.Selects || s.Literal || s.Loads && busy {
			continue
		}
		advice := "use it (e.g. assign to a package-level sink) or loop with b.Loop"
		if loop.Kind == benchfn.Parallel {
			advice = "use it (e.g. sum it into a variable declared before the loop, and use that after the loop)"
		}
		found = append(found, finding{diag: analysis.Diagnostic{
			Pos: c.expr.Pos(),
			End: c.expr.End(),
			Message: fmt.Sprintf("result of %s is never used: the compiler may remove the call in a %s loop; %s",
				purity.Name(c.callee), loop.Kind, advice),
		}, call: c.expr, callee: c.callee})
	}
	return found
}

// othersWork reports whether a call of the loop body, among calls,
// does work that stays: it is not dead (in dead), and not a conversion,
// len, cap, min or max, a function or method of package testing, or a
// call of a function that only loads (next to b.Fatal and a lookup, a
// deleted lookup leaves an empty loop; next to a constructor, NewExecutionTuple
// of k6, it is nothing).
func othersWork(info *types.Info, pure *purity.Result, calls map[token.Pos]*ast.CallExpr, dead map[*ast.CallExpr]bool) bool {
	for _, call := range calls {
		if dead[call] {
			continue
		}
		if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
			continue // a conversion
		}
		switch callee := typeutil.Callee(info, call).(type) {
		case *types.Builtin:
			switch callee.Name() {
			case "len", "cap", "min", "max":
				continue
			}
		case *types.Func:
			if callee.Pkg() != nil && callee.Pkg().Path() == "testing" {
				continue
			}
			if s := pure.Lookup(callee); s != nil && s.Loads {
				continue
			}
		}
		return true
	}
	return false
}

// dead reports whether nothing observable depends on the value v: every
// instruction that uses it, transitively, is pure computation, a store
// into a local variable that is never read, or one of the calls in also
// (calls already known to be dead).
func dead(v ssa.Value, also map[*ssa.Call]bool) bool {
	return !purity.VisitUses([]ssa.Value{v}, func(v ssa.Value, r ssa.Instruction) (ssa.Value, bool) {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Call:
			return nil, !also[r]
		case *ssa.Store:
			return nil, r.Val != v || !writeOnly(r.Addr)
		case *ssa.BinOp:
			if purity.StringCall(r) {
				return nil, true // concatenation or comparison calls the runtime
			}
			return r, false
		case *ssa.UnOp:
			return r, r.Op == token.ARROW
		case *ssa.Convert:
			return r, isString(r.Type()) || isString(r.X.Type())
		case *ssa.Phi, *ssa.Extract, *ssa.ChangeType, *ssa.Field, *ssa.Index,
			*ssa.FieldAddr, *ssa.IndexAddr, *ssa.Slice:
			return r.(ssa.Value), false
		default:
			return nil, true
		}
		return nil, false
	})
}

// writeOnly reports whether addr is a local variable that is only ever
// stored to.
func writeOnly(addr ssa.Value) bool {
	alloc, ok := addr.(*ssa.Alloc)
	if !ok {
		return false
	}
	for _, r := range *alloc.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			if r.Addr != alloc {
				return false // the variable's address is stored
			}
		default:
			return false
		}
	}
	return true
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}
