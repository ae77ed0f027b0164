// Package deadresult defines an analyzer that reports calls in classic
// b.N benchmark loops whose results are never used, so that the compiler
// may delete the work the benchmark means to measure.
package deadresult

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
	"github.com/mbench/mbench/vet/internal/source"
)

const Doc = `report calls in b.N benchmark loops whose results are never used

In a classic benchmark loop, for i := 0; i < b.N; i++ { f(x) }, nothing
consumes the result of f. When f is small enough to inline and has no
effect of its own, the compiler inlines it and dead-code elimination
deletes the computation, so the benchmark times an empty loop: the first
microbenchmark mistake of Rodriguez-Cancio et al., "Automatic
Microbenchmark Generation to Prevent Dead Code Elimination and Constant
Folding" (ASE 2016, section 2.1), seen in Go as golang/go#14813 (an
inlined popcount benchmark at 0.41 ns/op) and golang/go#27400.

Since Go 1.24 the compiler keeps the results of calls inside
for b.Loop() { ... } alive (the testing.B.Loop documentation; the
cmd/compile/internal/bloop pass wraps them in runtime.KeepAlive before
inlining; golang/go#61515), so the same call there is not reported.

A call in a b.N loop is reported when all of these hold:

  - its results are dead, judged on the SSA form of the benchmark: no
    instruction uses them except pure arithmetic, conversions, φ-nodes and
    stores into a local variable that is never read, none of which leads
    to a use (so r := f(x) overwritten every iteration, _ = f(x), and
    s += f(x) with s unused after the loop are all dead);
  - the callee is known to be pure and inlinable (see package purity: a
    function of the module within the compiler's inlining budget of 80
    nodes, with no //go:noinline, whose SSA body stores only into memory
    it allocated, makes no dynamic, interface or impure calls, and does
    nothing that lowers to a runtime call such as a map access, string
    concatenation or a comparison of two non-constant strings; or a
    standard intrinsic such as math.Sqrt or bits.OnesCount64);
  - if the callee, or a function it calls, has a loop, its result depends
    on a value accumulated in the loop that feeds no branch or loop
    condition (cnt += bits.OnesCount64(x), v = 10*v + c). Such a loop
    survives as an empty loop, but its body does not. A loop whose work
    is its control flow (a search loop, an early return, a minimum
    computed through if) keeps its loads and branches, so it is not
    reported. A trip counter, a value that only adds a constant each trip
    (count++ in count_raw_tape of minio/simdjson-go, a tape walk whose next
    index is loaded from the tape), is not counted as accumulated work:
    its dead update costs one add, and the walk stays (A/B: 102.4 vs 102.7
    ms/op);
  - the callee, without a loop, does not return a value it tests in a
    branch condition itself on one arm and a fresh object on the others
    (if s.prevSel != nil { return s.prevSel }; return
    newEmptySelection(s.document), End of PuerkitoBio/goquery): the
    compiler loads the tested value once, so the load and the branch stay
    when the result is dead (CMPQ/JNE in the compiled loop; A/B within
    noise). A load that feeds no branch (goquery's Get, return
    s.Nodes[index]) is still deleted and still reported;
  - the callee, without a loop, does not return only constants chosen by
    a switch that the compiler lowers to a binary search, on a string
    with two or more constant cases or on an integer with four or more
    (AttrKeyForTag of DataDog/dd-trace-go: switch tag { case "env":
    return AttrEnv, true; ... }). The compiler does not merge the
    branches of such a search, so every length and content comparison
    stays in the loop and only the constants go (scripts/vet-switch-asm.sh
    counts the comparisons kept; a three-case integer switch, an
    if-chain of integer comparisons and a single string comparison are
    deleted whole and are still reported);
  - the callee computes something. A callee that only selects (loads,
    fields, elements at constant indices and slices of its parameters and
    package-level variables, branches on such a boolean, len and cap, conversions
    between types of the same representation: return
    iter.data[iter.start:iter.pos], the Value of clipperhouse/uax29's
    iterators; return k.value; return "time") loses a few loads when its
    result is dead, which costs about what keeping the result alive costs
    (A/B: a string sink adds 0.34 ns/op, and deleting return k.value
    saves 0.30). Whether alone in its loop (go-ini's Key.Value, go-funk's
    DropInt64) or next to the work the loop times (uax29's
    _ = iter.Value() inside for iter.Next(): keeping the value changes
    those tokenisation benchmarks by 1-4%), the deletion is real but
    cannot change what the benchmark says, so it is not reported. Nor is
    a trivial constructor, a single return of a composite literal of
    its parameters and constants (NewPresorted of istio's smallset,
    return Set[T]{items: items}: A/B 0.13 vs 0.52 ns/op, the sink's
    store of a slice header). A
    callee that only loads, but at a computed index (a table lookup), is
    reported when nothing else in the loop does work, that is every
    other call of the loop is dead, only loads, or is a conversion, len,
    cap, min, max or a function of package testing: alone, the lookup is
    the work (Log2Byte of modernc.org/mathutil, return log2[b]: A/B 0.13
    vs 0.44 ns/op). Next to a call that works, its loads are nothing
    (GetStripedOffsets of k6, a lookup of offsets that the constructor
    called before it computes: A/B within noise). A
    removable call whose result only feeds such a dead call goes with it
    and is reported (NewPair(x).First()).

Calls through interfaces or function values, calls that may have an
effect, calls of functions too large to inline, and calls inside
function literals are not reported: we prefer to miss a case to a false
alarm.

When the loop is for i := 0; i < b.N; i++ (or for range b.N), i is not used,
it is the benchmark's only timed loop, a top-level statement of the
benchmark, and nothing else could notice the change (b is only used through
its methods and fields, b.N is read only after the loop, the benchmark never
calls StopTimer, StartTimer or ResetTimer, and no break, return or goto
leaves the loop early), the suggested fix rewrites the loop to
for b.Loop(). Otherwise, when the call is a statement of its own (or assigned
to blank identifiers only), the suggested fix assigns each result whose type
the file can name to a new package-level variable, which the compiler must
assume is read (sinkSplit41_0, _ = Split(x) when the second result's type
cannot be named). The finding that gets the rewrite also offers the sink as
an alternative fix, which keeps the loop as written.`

var Analyzer = &analysis.Analyzer{
	Name:     "deadresult",
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
		if fn == nil {
			continue
		}
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
	sort.Slice(diags, func(i, j int) bool { return diags[i].Pos < diags[j].Pos })
	for _, d := range diags {
		pass.Report(d)
	}
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
