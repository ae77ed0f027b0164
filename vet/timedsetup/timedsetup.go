// Package timedsetup defines an Analyzer that finds expensive setup which
// the timer of a classic b.N benchmark measures.
package timedsetup

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/mbench/mbench/vet/internal/benchfn"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// Doc is the analyzer's documentation; its first line is the summary.
const Doc = `report expensive setup that the timer of a b.N loop measures

The testing package starts the timer before it calls a benchmark function
(runN in src/testing/benchmark.go calls b.ResetTimer and b.StartTimer, then
the function), so whatever a body does before its "for i := 0; i < b.N;
i++" loop is timed and divided by b.N. Setup belongs outside the timer
(Sestoft, "Microbenchmarks in Java and C#", §5 "Benchmarks that require
setup": the timer is suspended around setup). The bias of ns/op is the
setup time divided by the time of the whole call: under go test's default
-benchtime=1s it takes 10 ms of setup to bias ns/op by 1%, under mbench
run's 50 ms iterations (a fixed b.N per call) 0.5 ms does. The analyzer
reports the first expensive statement before a classic b.N loop when no
b.ResetTimer, b.StopTimer or b.StartTimer call lies between it and the
loop; its fix inserts b.ResetTimer() immediately before the loop.

Expensive means: make of a slice or map, or new, of at least 1 MiB; a
slice or map literal of 256 or more elements; file, network and process
I/O (os, io, io/ioutil, io/fs, bufio, os/exec, net, net/http); reading
and writing through compress/...; encoding and decoding (marshalling,
encoding and decoding functions of encoding/...) inside a setup loop or
of a large input (a slice or map literal of 256 or more elements, or a
variable defined by expensive setup or filled by a loop that builds
data); key generation (crypto/...); a call of a function of the package
under test with an int argument of at least 10000 (Generate(1 << 16)),
not counting sizes computed from b.N (NewQueue(b.N): a constant cost per
operation, not a bias); and a loop that builds
data: its trip count times the weight of a trip reaches 1000000 (100000
for data an encoder then walks), where an
index store, append, copy, allocation or random number weighs 1, a call
into the package under test or a buffer write 10, and I/O or starting a
goroutine 1000; a loop of unknown trip count counts when a trip weighs 10
or more (building the structure under test from a data set). Sizes and
trip counts are bounded through constants, len and cap of literals and
makes, variables assigned once, and the variables of loops over constant
bounds or tables, as in sub-benchmarks over sizes:

	for _, n := range []int{10, 1000, 1 << 20} {
		b.Run(..., func(b *testing.B) { data := make([]byte, n); ... })
	}

where n is at most 1 << 20. A size of a make that cannot be bounded
counts as large only if it is computed from b.N.

Not reported: bodies that loop with "for b.Loop()", whose first call resets
the timer (loopSlowPath in src/testing/benchmark.go calls b.ResetTimer when
b.loop.n == 0, and the documentation of B.Loop says setup before the loop
"does not count toward the benchmark measurement"); setup during which the
timer was stopped by an earlier b.StopTimer; loops that call b.ResetTimer
themselves (the "if i == 0 { b.ResetTimer() }" idiom) or are followed by
one (a loop over b.N that pre-generates inputs, before the timed loop);
setup followed by a call that passes b to a helper which may reset the
timer (before the loop, or after it: a helper running the timed loop);
b.N loops nested in other loops; and cheap or unbounded setup (small makes, short
literals, loops that build little, constructors without a size argument
or of compress/..., one encoding or decoding of a small value, sizes
that cannot be bounded such as make([]byte, f(x)), integer arguments that are not an int such as
time.Unix(1265346057, 0)).`

// Analyzer reports expensive setup timed by a classic b.N loop.
var Analyzer = &analysis.Analyzer{
	Name: "timedsetup",
	Doc:  Doc,
	URL:  "https://pkg.go.dev/github.com/mbench/mbench/vet/timedsetup",
	Run:  run,
}

// Thresholds of "expensive". They are deliberately high: b.N amortises
// cheap setup away (runN calls the body with growing b.N and reports the
// time of the last call divided by b.N), and reporting it would bury the
// findings that matter.
const (
	// largeAlloc is the size in bytes from which a make or new counts as
	// expensive: a mebibyte takes tens of microseconds to zero and fault
	// in, and adds 1 MiB / b.N to B/op.
	largeAlloc = 1 << 20
	// largeBareAlloc is the size from which a make or new alone, not
	// filled before the loop, counts as expensive: zeroing runs at about
	// 10 GB/s, so 100 MiB takes about 10 ms, 1% of a 1 s benchtime (and Go
	// takes large blocks zeroed from the OS, faulting them in where they
	// are first touched, inside the loop). Five benchmarks of
	// golang.org/x/exp/slices that make 1-4 MiB and walk it in every
	// operation measured the same with b.ResetTimer.
	largeBareAlloc = 100 << 20
	// largeLiteral is the number of elements from which a slice or map
	// literal counts as a data set.
	largeLiteral = 256
	// largeCount is the int argument from which a call into the package
	// under test counts as building a data set of that size.
	largeCount = 10000
)

const message = "setup before the b.N loop is timed: call b.ResetTimer() after it, or use b.Loop"

func run(pass *analysis.Pass) (any, error) {
	c := &checker{pass: pass, decls: funcDecls(pass), sizes: newEvaluator(pass.TypesInfo, pass.Files)}
	for _, body := range benchfn.Find(pass.TypesInfo, pass.Files) {
		c.body(body)
	}
	return nil, nil
}

type checker struct {
	pass  *analysis.Pass
	decls map[*types.Func]*ast.FuncDecl
	// cur is the body being checked.
	cur *benchfn.Body
	// sizes evaluates integer expressions.
	sizes *evaluator
}

// A timerCall is a call of b.ResetTimer, b.StopTimer or b.StartTimer.
type timerCall struct {
	pos  token.Pos
	name string
}

func (c *checker) body(body *benchfn.Body) {
	info := c.pass.TypesInfo
	if len(body.Loops) == 0 {
		return
	}
	c.cur = body
	for _, l := range body.Loops {
		if l.Kind == benchfn.BLoop {
			return // b.Loop resets the timer on its first call
		}
	}
	calls, hidden := timerCalls(info, body)
	if hidden {
		return // a closure drives the timer; its call order is unknown
	}
	for _, l := range body.Loops {
		c.loop(body, l, calls)
	}
}

func (c *checker) loop(body *benchfn.Body, l benchfn.Loop, calls []timerCall) {
	path := pathTo(body.Body, l.Stmt)
	if path == nil {
		return
	}
	for _, n := range path[1 : len(path)-1] {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.FuncLit:
			return // repeated b.N loops: resets between them matter differently
		}
	}
	for _, tc := range calls {
		if tc.name == "ResetTimer" && l.Stmt.Pos() <= tc.pos {
			// Reset on the first iteration, or after the loop: a loop
			// over b.N followed by a reset pre-generates inputs (benchfn
			// reports any loop whose condition reads b.N).
			return
		}
	}
	if c.handsOffB(body, l.Stmt.End(), body.Body.End()) {
		return // a helper that runs the timed loop may reset the timer
	}
	// The statement the fix goes before: the loop, or its label.
	anchor := ast.Node(l.Stmt)
	if lab, ok := path[len(path)-2].(*ast.LabeledStmt); ok {
		anchor = lab
	}
	for _, s := range preceding(path) {
		switch s.(type) {
		case *ast.DeferStmt, *ast.GoStmt, *ast.EmptyStmt:
			continue
		}
		if !c.nextLoopIs(body, s, l) || !c.expensive(s) || !timed(calls, s, anchor) || c.handsOffB(body, s.Pos(), anchor.Pos()) {
			continue
		}
		c.pass.Report(analysis.Diagnostic{
			Pos:     s.Pos(),
			End:     s.End(),
			Message: message,
			SuggestedFixes: []analysis.SuggestedFix{{
				Message: "Call b.ResetTimer() before the loop",
				TextEdits: []analysis.TextEdit{{
					Pos:     anchor.Pos(),
					End:     anchor.Pos(),
					NewText: []byte(c.resetText(body.B.Name(), anchor.Pos(), l.Stmt.Pos())),
				}},
			}},
		})
		return
	}
}

// nextLoopIs reports whether l is the first timed loop of body after s,
// and s contains none.
func (c *checker) nextLoopIs(body *benchfn.Body, s ast.Stmt, l benchfn.Loop) bool {
	for _, o := range body.Loops {
		p := o.Stmt.Pos()
		if s.Pos() <= p && p < s.End() {
			return false
		}
		if o.Stmt != l.Stmt && s.End() <= p && p < l.Stmt.Pos() {
			return false
		}
	}
	return true
}

// timed reports whether the timer runs during s and is not reset, stopped
// or started between s and the loop at anchor.
func timed(calls []timerCall, s ast.Stmt, anchor ast.Node) bool {
	last := ""
	for _, tc := range calls {
		switch {
		case tc.pos < s.Pos():
			last = tc.name
		case tc.pos < anchor.Pos():
			return false // inside s or between s and the loop
		}
	}
	return last != "StopTimer"
}

// handsOffB reports whether code in [from, to) passes b to a function that
// may reset the timer: a function value, a function of this package whose
// body calls timer methods or passes its *testing.B on, or a function of
// the package under test we cannot see. Functions of other packages taking
// a *testing.B (assertion libraries) are assumed to leave the timer alone,
// and a testing.TB parameter has no timer methods.
func (c *checker) handsOffB(body *benchfn.Body, from, to token.Pos) bool {
	info := c.pass.TypesInfo
	found := false
	ast.Inspect(body.Body, func(n ast.Node) bool {
		if found || n == nil || n.End() <= from || n.Pos() >= to {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		for i, arg := range call.Args {
			id, ok := ast.Unparen(arg).(*ast.Ident)
			if !ok || info.Uses[id] != body.B {
				continue
			}
			fn, ok := typeutil.Callee(info, call).(*types.Func)
			if !ok {
				found = true // a function value or closure
				break
			}
			if p := paramType(fn, i); p != nil && !benchfn.IsTestingB(p) {
				continue // testing.TB or any: no timer methods
			}
			if decl := c.decls[fn.Origin()]; decl != nil {
				if touchesTimer(info, decl) {
					found = true
				}
				continue
			}
			if benchfn.UnderTest(c.pass, fn.Pkg()) {
				found = true
			}
		}
		return true
	})
	return found
}

// paramType returns the type of the parameter that argument i binds to.
func paramType(fn *types.Func, i int) types.Type {
	sig := fn.Signature()
	params := sig.Params()
	if params.Len() == 0 {
		return nil
	}
	if i >= params.Len()-1 && sig.Variadic() {
		if s, ok := params.At(params.Len() - 1).Type().(*types.Slice); ok {
			return s.Elem()
		}
	}
	if i < params.Len() {
		return params.At(i).Type()
	}
	return nil
}

// touchesTimer reports whether decl calls a timer method of a *testing.B
// or passes a *testing.B to another function.
func touchesTimer(info *types.Info, decl *ast.FuncDecl) bool {
	if decl.Body == nil {
		return true
	}
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if found || !ok {
			return !found
		}
		if fn, ok := typeutil.Callee(info, call).(*types.Func); ok {
			if recv := fn.Signature().Recv(); recv != nil && benchfn.IsTestingB(recv.Type()) {
				switch fn.Name() {
				case "ResetTimer", "StopTimer", "StartTimer":
					found = true
				}
			}
		}
		for _, arg := range call.Args {
			if benchfn.IsTestingB(info.TypeOf(arg)) {
				found = true
			}
		}
		return !found
	})
	return found
}

// timerCalls returns the calls of b's timer methods in body, in source
// order, and whether any of them sits in a function literal.
func timerCalls(info *types.Info, body *benchfn.Body) (calls []timerCall, hidden bool) {
	depth := 0
	var stack []ast.Node
	ast.Inspect(body.Body, func(n ast.Node) bool {
		if n == nil {
			if _, ok := stack[len(stack)-1].(*ast.FuncLit); ok {
				depth--
			}
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.FuncLit:
			depth++
		case *ast.CallExpr:
			for _, name := range []string{"ResetTimer", "StopTimer", "StartTimer"} {
				if benchfn.IsMethodOf(info, n, body.B, name) {
					if depth > 0 {
						hidden = true
					}
					calls = append(calls, timerCall{n.Pos(), name})
				}
			}
		}
		return true
	})
	return calls, hidden
}

// pathTo returns the nodes from root down to target, both included, or
// nil if target is not under root.
func pathTo(root, target ast.Node) []ast.Node {
	var stack, found []ast.Node
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if found != nil || n.Pos() > target.Pos() || n.End() < target.End() {
			return false
		}
		stack = append(stack, n)
		if n == target {
			found = append([]ast.Node(nil), stack...)
		}
		return true
	})
	return found
}

// preceding returns the statements that run before the last node of path
// in the statement lists along it, in source order.
func preceding(path []ast.Node) []ast.Stmt {
	var out []ast.Stmt
	for i, n := range path[:len(path)-1] {
		var list []ast.Stmt
		switch n := n.(type) {
		case *ast.BlockStmt:
			list = n.List
		case *ast.CaseClause:
			list = n.Body
		case *ast.CommClause:
			list = n.Body
		default:
			continue
		}
		for _, s := range list {
			if s == path[i+1] {
				break
			}
			out = append(out, s)
		}
	}
	return out
}

// resetText is the text that inserts "b.ResetTimer()" at anchor (the
// loop, or its label) with the indentation of the loop.
func (c *checker) resetText(b string, anchor, loop token.Pos) string {
	at, in := c.indent(anchor), c.indent(loop)
	return strings.TrimPrefix(in, at) + b + ".ResetTimer()\n" + at
}

// indent returns the white space that starts the line of pos.
func (c *checker) indent(pos token.Pos) string {
	tf := c.pass.Fset.File(pos)
	if tf == nil {
		return ""
	}
	content, err := c.pass.ReadFile(tf.Name())
	if err != nil {
		return ""
	}
	start := tf.Offset(tf.LineStart(tf.Line(pos)))
	end := tf.Offset(pos)
	if start > end || end > len(content) {
		return ""
	}
	ws := content[start:end]
	if strings.TrimLeft(string(ws), " \t") != "" {
		return "" // the loop does not start its line
	}
	return string(ws)
}

// funcDecls maps the functions declared in the package to their syntax.
func funcDecls(pass *analysis.Pass) map[*types.Func]*ast.FuncDecl {
	m := make(map[*types.Func]*ast.FuncDecl)
	for _, d := range benchfn.Decls(pass.TypesInfo, pass.Files, false) {
		m[d.Func] = d.Node
	}
	return m
}

// intConst returns the value of e if it is an integer constant.
func intConst(info *types.Info, e ast.Expr) (int64, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil {
		return 0, false
	}
	v := constant.ToInt(tv.Value)
	if v.Kind() != constant.Int {
		return 0, false
	}
	n, exact := constant.Int64Val(v)
	if !exact {
		return 1 << 62, true
	}
	return n, true
}
