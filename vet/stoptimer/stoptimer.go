package stoptimer

import (
	"go/ast"
	"go/types"

	"github.com/mbench/mbench/vet/internal/benchfn"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// Doc is the analyzer's documentation: what it reports and how to fix
// it. The package documentation gives the reasons and the rule.
const Doc = `report b.StopTimer and b.StartTimer in every loop iteration

Each call reads the clock and stops the world to read memory statistics,
which costs more than a short operation: the timer calls then dominate
what is measured. In a pb.Next loop they stop the timer of all goroutines.

Fix: prepare the inputs of all iterations before the loop (or of a batch
of them, untimed) and time a loop over them without timer calls.`

// Analyzer reports b.StopTimer/b.StartTimer pairs inside a timed loop.
var Analyzer = &analysis.Analyzer{
	Name:      "stoptimer",
	Doc:       Doc,
	URL:       "https://pkg.go.dev/github.com/mbench/mbench/vet/stoptimer",
	Run:       run,
	FactTypes: []analysis.Fact{new(isShort)},
}

const (
	message         = "b.StopTimer/b.StartTimer inside the loop cost more than short operations: prepare inputs before the loop, or in batches"
	parallelMessage = "b.StopTimer/b.StartTimer in a pb.Next loop stop and start the one timer of all goroutines: prepare inputs before b.RunParallel"
)

func run(pass *analysis.Pass) (any, error) {
	short := findShort(pass)
	for _, body := range benchfn.Find(pass.TypesInfo, pass.Files) {
		for _, l := range body.Loops {
			if l.Kind == benchfn.Parallel {
				if call := timerCall(pass.TypesInfo, body.B, l.Body); call != nil {
					pass.ReportRangef(call, "%s", parallelMessage)
				}
				continue
			}
			if stop := check(pass.TypesInfo, short, body.B, l.Body); stop != nil {
				pass.ReportRangef(stop, "%s", message)
			}
		}
	}
	return nil, nil
}

// timerCall returns the first call of b.StopTimer or b.StartTimer in
// loop, outside function literals, or nil. In a pb.Next loop every such
// call is a mistake: the testing package keeps one timer for all the
// goroutines of RunParallel, and its documentation says not to call them
// there.
func timerCall(info *types.Info, b *types.Var, loop *ast.BlockStmt) *ast.CallExpr {
	var found *ast.CallExpr
	anyCall(loop, func(call *ast.CallExpr) bool {
		if benchfn.IsMethodOf(info, call, b, "StopTimer") || benchfn.IsMethodOf(info, call, b, "StartTimer") {
			found = call
		}
		return found != nil
	})
	return found
}

// check returns the first unconditional b.StopTimer() call of loop if the
// loop body also calls b.StartTimer() unconditionally and its timed part
// does not loop over a batch; otherwise nil.
func check(info *types.Info, short *shortFuncs, b *types.Var, loop *ast.BlockStmt) *ast.CallExpr {
	// timer[i] is "StopTimer" or "StartTimer" if statement i is such a
	// call, "" otherwise.
	timer := make([]string, len(loop.List))
	var stop *ast.CallExpr
	started := false
	for i, s := range loop.List {
		es, ok := s.(*ast.ExprStmt)
		if !ok {
			continue
		}
		call, ok := ast.Unparen(es.X).(*ast.CallExpr)
		if !ok {
			continue
		}
		switch {
		case benchfn.IsMethodOf(info, call, b, "StopTimer"):
			timer[i] = "StopTimer"
			if stop == nil {
				stop = call
			}
		case benchfn.IsMethodOf(info, call, b, "StartTimer"):
			timer[i] = "StartTimer"
			started = true
		}
	}
	if stop == nil || !started {
		return nil
	}
	// In the steady state an iteration starts in the state the previous
	// one ended in: that of the last timer call.
	on := true
	for _, t := range timer {
		switch t {
		case "StopTimer":
			on = false
		case "StartTimer":
			on = true
		}
	}
	for i, s := range loop.List {
		switch timer[i] {
		case "StopTimer":
			on = false
			continue
		case "StartTimer":
			on = true
			continue
		}
		if on && (!short.shortCode(s) || callsErrorFunc(info, s) || passesData(info, s)) {
			return nil // the timed part is a batch, or may be long
		}
		if !on && (containsLoop(s) || callsCopy(info, s) || callsErrorFunc(info, s)) {
			return nil // the operation consumes a rebuilt data set
		}
	}
	return stop
}

// anyCall reports whether pred holds for a call in s, outside function
// literals (whose bodies run only when called).
func anyCall(s ast.Node, pred func(*ast.CallExpr) bool) bool {
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			found = pred(n)
		}
		return !found
	})
	return found
}

// isConversion reports whether call converts a value to a type.
func isConversion(info *types.Info, call *ast.CallExpr) bool {
	tv, ok := info.Types[call.Fun]
	return ok && tv.IsType()
}

// callsErrorFunc reports whether s calls a function with an error result,
// outside function literals.
func callsErrorFunc(info *types.Info, s ast.Stmt) bool {
	errType := types.Universe.Lookup("error").Type()
	return anyCall(s, func(call *ast.CallExpr) bool {
		if isConversion(info, call) {
			return false
		}
		sig, ok := typeOf(info, call.Fun).(*types.Signature)
		if !ok {
			return false
		}
		for r := range sig.Results().Variables() {
			if types.Identical(r.Type(), errType) {
				return true
			}
		}
		return false
	})
}

// passesData reports whether s passes a slice, array or map to a call or
// calls a method on one, outside function literals. Builtins (len, cap,
// append) and conversions do not count.
func passesData(info *types.Info, s ast.Stmt) bool {
	return anyCall(s, func(call *ast.CallExpr) bool {
		if _, ok := typeutil.Callee(info, call).(*types.Builtin); ok || isConversion(info, call) {
			return false
		}
		args := call.Args
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && info.Selections[sel] != nil {
			args = append([]ast.Expr{sel.X}, args...)
		}
		for _, a := range args {
			switch typeOf(info, a).(type) {
			case *types.Slice, *types.Array, *types.Map:
				return true
			}
		}
		return false
	})
}

// callsCopy reports whether s calls the builtin copy, outside function
// literals.
func callsCopy(info *types.Info, s ast.Stmt) bool {
	return anyCall(s, func(call *ast.CallExpr) bool {
		b, ok := typeutil.Callee(info, call).(*types.Builtin)
		return ok && b.Name() == "copy"
	})
}

// typeOf returns the underlying type of e, or nil.
func typeOf(info *types.Info, e ast.Expr) types.Type {
	if t := info.TypeOf(e); t != nil {
		return t.Underlying()
	}
	return nil
}

// containsLoop reports whether s is or contains a for or range statement,
// outside function literals.
func containsLoop(s ast.Stmt) bool {
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			found = true
		}
		return !found
	})
	return found
}
