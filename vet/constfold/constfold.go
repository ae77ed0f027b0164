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
(A/B with the bytes from a package var: no slowdown). Nor is a callee that
computes nothing, only selecting from its inputs or converting between
types of the same representation (ToInteger of dop251/goja, return
int64(i) on an int64 type; a function that returns a constant): folding it
saves no work, and the benchmark times what the callee costs, which is
nothing either way (A/B: one load). Nor is, in a b.Loop loop, a callee
whose computation, with that of the pure functions it calls, is a single
integer instruction of one cycle (an addition, logic, a shift or a
comparison; bit casts such as math.Float32frombits count for nothing):
an empty b.Loop loop costs about 0.5 ns/op (four times an empty b.N
loop), and one instruction more runs in its shadow (BFloat16ToFloat32 of
ClickHouse/ch-go, return math.Float32frombits(uint32(v) << 16): A/B
0.517-0.518 against 0.518-0.519 ns/op, the cost of the b.Loop itself).
In a b.N loop, which costs a cycle, the same instruction shows (Abs of
chewxy/math32, one and-not: 0.17 ns/op folded, 0.43 with its input from
a variable), so there it is reported. A multiplication, division,
floating-point operation, conversion to or from floating point or
standard intrinsic such as math.Sqrt is reported even alone. A call
whose result is only an argument of calls that do not fold (impure or
dynamic calls, builtins such as append, pure functions with loops) is not
reported either: it prepares the input of the measured work
(table.recentMiss(0).Store(uint64(stringCacheAdmissionValue(0))) in
oschwald/maxminddb-golang, an add before an atomic store; A/B with the
offset from a package var: 15.8 ns/op either way), also through branches,
further folding calls (flags.EnableTrySeekUsingNext() in
cockroachdb/pebble, a constant flag word for the seek that follows) and
conversions to an interface (at.Equal(2, Add(1, 1)) in vcaesar/tt, an
assertion helper timed with a constant sum: 74 against 76 ns/op with the
inputs from package vars).
Inputs read from package-level variables,
parameters, table entries or loop variables are not constant and are not
reported; nor are calls inside function literals.

The suggested fix passes each constant input through a new package-level
variable, assigned the same expression just before the outermost loop
(inMix41_0 = 3 before the loop, Mix(inMix41_0, inMix41_1) inside it):
the benchmark computes what it did, and the compiler cannot know the
value. There is no fix for a generic or variadic callee, a type the file
cannot name, or an input that names a variable declared inside the loop.`

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
		diags = append(diags, check(pass, pure, fn, body)...)
	}
	sort.Slice(diags, func(i, j int) bool { return diags[i].Pos < diags[j].Pos })
	for _, d := range diags {
		pass.Report(d)
	}
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
// atomic store; A/B with the offset in a package variable: 15.8 ns/op
// either way).
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
