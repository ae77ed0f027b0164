// Package purity defines an analyzer that summarises which functions the
// compiler may remove or fold at a call site, for the deadresult and
// constfold analyzers of mbench vet.
//
// The gc compiler does no interprocedural purity analysis: a call survives
// dead-code elimination unless the callee is inlined and everything in its
// inlined body is itself removable. So a summary has two parts, both
// estimated conservatively (a function we are unsure about is not pure):
//
//   - the callee is small enough to inline: its body, counted in syntax
//     nodes, plus the bodies of the pure callees it would inline in turn,
//     is within the compiler's inlining budget (inlineMaxBudget = 80 in
//     cmd/compile/internal/inline/inl.go), and it carries no //go:
//     directive such as //go:noinline;
//   - the body has no effect a caller could observe and nothing that lowers
//     to a runtime call, which dead-code elimination never deletes
//     (allocating maps, slices or interfaces, string concatenation,
//     comparison of non-constant strings and conversion, map access,
//     appends, channel operations). It is read in
//     SSA form: stores only into memory the function allocated itself,
//     static calls only to pure functions, no dynamic or interface calls,
//     no closures, no go, defer or select.
//
// Summaries cross package boundaries as facts, so a benchmark in package
// p_test sees the summaries of functions of p. Standard-library packages
// are not analysed (that would mean building SSA for every dependency);
// instead the table of internal/effects says which standard functions and
// builtins the compiler turns into plain instructions (Func.Plain):
// intrinsics or one line of them, and whether they fold.
package purity

import (
	"cmp"
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/mbench/mbench/internal/effects"
	"github.com/mbench/mbench/vet/internal/benchfn"
)

// Analyzer computes a Summary fact for each pure function of a package and
// returns a *Result that also carries the package's SSA form, so that the
// analyzers that need both build SSA only once.
//
// It deliberately does not require buildssa: an analyzer with facts runs
// on every dependency, and requiring buildssa would build SSA for the
// whole standard library on every run (the buildssa source warns against
// exactly this). Purity builds SSA itself, and only for packages outside
// GOROOT.
var Analyzer = &analysis.Analyzer{
	Name:       "purity",
	Doc:        "summarise functions whose calls the compiler may remove or fold",
	Run:        run,
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(Summary)},
}

// inlineBudget is the compiler's inlining budget (inlineMaxBudget in
// cmd/compile/internal/inline/inl.go). We compare it with a count of
// syntax nodes, which is at least the compiler's count of IR nodes for the
// same code (a selector x.f is three syntax nodes and one or two IR nodes,
// a block is a node of its own), so the estimate errs towards "not
// inlinable".
const inlineBudget = 80

// A Summary describes a function whose calls the compiler may treat as
// pure computation once inlined.
type Summary struct {
	// Foldable reports that the result depends on the arguments alone:
	// the function (and every function it calls) has no loops, which
	// the compiler does not evaluate at compile time, and reads no
	// package-level variables, so constant arguments give a constant
	// result after inlining. It also requires that the function (and
	// every function it calls) allocates nothing on the heap (no new,
	// &T{}) and returns no pointer, slice, map, channel, function or
	// interface: a constructor returns a fresh object, not a constant.
	Foldable bool
	// Loop reports that the function or a function it calls has a loop.
	Loop bool
	// Accumulates reports that a result depends on a value accumulated
	// in a loop (a loop φ-node, such as cnt in cnt += x, or the result
	// of a call that accumulates) which feeds no branch or loop
	// condition. Dead-code elimination deletes such work; a loop whose
	// work is only its control flow (a search loop, a minimum computed
	// through if) keeps its loads and branches, so its call survives.
	Accumulates bool
	// Checked reports that the function has no loop and returns a value
	// it tests in a branch condition itself on one arm and a fresh object
	// on another, and nothing but such values and constants (if
	// s.prevSel != nil { return s.prevSel }; return
	// newEmptySelection(s.document), End of PuerkitoBio/goquery
	// filter.go). The compiler loads the tested value once, and when the
	// result is dead the load and the branch stay (CMPQ/JNE in End's
	// benchmark); only the allocation on the other arm could go.
	Checked bool
	// Switch reports that the function has no loop, returns nothing but
	// constants, and chooses them with a switch statement that the gc
	// compiler lowers to a binary search: on a string with at least two
	// constant cases, or on an integer with at least four (AttrKeyForTag
	// of DataDog/dd-trace-go: switch tag { case "env": return AttrEnv,
	// true; ... }). When its result is dead only the constants go: the
	// compiler does not merge the branches of such a search, so every
	// length and content comparison stays in the loop. Measured with go
	// 1.26 (eval/vet/switch-asm.sh): string switches of two and three
	// cases and an integer switch of four keep their comparisons; an
	// integer switch of three cases, if-chains of up to eight integer
	// comparisons and a single string comparison are deleted whole.
	Switch bool
	// Fresh reports that every result of the function is a constant or a
	// fresh object: a composite literal whose address it takes, or the
	// result of another such function (newEmptySelection of goquery).
	Fresh bool
	// Literal reports that the body of the function is a single return
	// of a composite literal whose elements are parameters, constants or
	// such literals in turn (newip4i_v4 of go4.org/netipx netipx_test.go:
	// return ip4i{ip4: [4]byte{a, b, c, d}}): a trivial constructor,
	// which computes nothing that folding could save.
	Literal bool
	// Selects reports that the function computes nothing: it has no loop,
	// and every instruction is a load, a field selection, an element at a
	// constant index or a slice expression of its parameters, constants and package-level
	// variables, a change between types of the same representation, a
	// branch on a selected boolean, or a call of len, cap or another such
	// function (Value of clipperhouse/uax29's iterators: return
	// iter.data[iter.start:iter.pos]; Value of go-ini's Key: return
	// k.value; ToInteger of dop251/goja: return int64(i)). When its result
	// is dead the compiler deletes a few loads, about what keeping the
	// result alive costs, and constant arguments leave nothing to fold.
	Selects bool
	// Loads reports that the function only loads: as Selects, but an
	// element may be at a computed index, so it may be a table lookup
	// (Log2Byte of modernc.org/mathutil: return log2[b]; GetStripedOffsets
	// of k6: offsets := essw.offsets[i]; return offsets[0], offsets[1:],
	// essw.lcd). Every Selects function also Loads.
	Loads bool
	// Ops weighs the arithmetic, logic and comparison instructions of
	// the function and of the pure functions it calls: 1 for an integer
	// instruction of one cycle (x + y, x << 16, x < y), 2 for a dearer
	// one (a multiplication or division, floating-point arithmetic, a
	// conversion between integers and floating point, a standard
	// intrinsic such as math.Sqrt), 0 for a bit cast such as
	// math.Float32frombits. It is what folding a call with constant
	// arguments could save, when the function has no loop.
	Ops int
	// Cost is the estimated inlining cost, in syntax nodes, including the
	// costs of the pure callees that would be inlined into it.
	Cost int
}

func (*Summary) AFact() {}

func (s *Summary) String() string {
	str := "pure"
	if s.Foldable {
		str += ", foldable"
	}
	if s.Loop && !s.Accumulates {
		str += ", loop without accumulator"
	}
	if s.Checked {
		str += ", returns checked value"
	}
	if s.Literal {
		str += ", literal"
	}
	if s.Switch {
		str += ", switch"
	}
	switch {
	case s.Selects:
		str += ", selects"
	case s.Loads:
		str += ", loads"
	}
	return str
}

// Removable reports whether dead-code elimination can delete an unused
// call of a function with summary s once inlined: a loop survives the
// deletion of its dead body only as an empty loop if its work
// accumulates into the result; work that feeds branches stays, in a
// loop or, for a function that returns a value it checks (Checked) or
// constants chosen by a switch (Switch), without one.
func (s *Summary) Removable() bool {
	return (!s.Loop || s.Accumulates) && !s.Checked && !s.Switch
}

// A Result holds the summaries visible to a package and its SSA form.
type Result struct {
	// Pkg is the SSA form of the package, or nil for packages of the
	// standard library.
	Pkg       *ssa.Package
	funcs     map[ast.Node]*ssa.Function
	summaries map[*types.Func]*Summary
}

// Func returns the SSA function for a *ast.FuncDecl or *ast.FuncLit of the
// package, or nil.
func (r *Result) Func(syntax ast.Node) *ssa.Function {
	return r.funcs[syntax]
}

// Benchmarks returns the benchmark bodies of the pass's files, each with its
// SSA function, leaving out bodies SSA was not built for; it returns nil for
// a package of the standard library, which is not analysed.
func (r *Result) Benchmarks(pass *analysis.Pass) []Benchmark {
	if r.Pkg == nil {
		return nil
	}
	var out []Benchmark
	for _, body := range benchfn.Find(pass.TypesInfo, pass.Files) {
		if fn := r.Func(body.Node); fn != nil {
			out = append(out, Benchmark{body, fn})
		}
	}
	return out
}

// A Benchmark is a benchmark body and its SSA function.
type Benchmark struct {
	*benchfn.Body
	Fn *ssa.Function
}

// Report reports diags in the order of their positions.
func Report(pass *analysis.Pass, diags []analysis.Diagnostic) {
	slices.SortFunc(diags, func(a, b analysis.Diagnostic) int { return cmp.Compare(a.Pos, b.Pos) })
	for _, d := range diags {
		pass.Report(d)
	}
}

// Lookup returns the summary of fn, or nil if fn is not known to be pure.
// Instances of generic functions share the summary of their origin.
func (r *Result) Lookup(fn *types.Func) *Summary {
	fn = fn.Origin()
	if s, ok := r.summaries[fn]; ok {
		return s
	}
	return std(fn)
}

// Costs of the standard functions the compiler turns into plain
// instructions, in syntax nodes.
const (
	intrinsicCost = 4 // a call node and its arguments
	oneLineCost   = 8 // a one-line function of intrinsics
)

// std returns the summary of fn, a function of the standard library, from
// the table of package effects, or nil.
func std(fn *types.Func) *Summary {
	if fn.Signature().Recv() != nil {
		return nil
	}
	p := effects.Of(fn).Plain
	if p == nil {
		return nil
	}
	cost := oneLineCost
	if p.Intrinsic {
		cost = intrinsicCost
	}
	return &Summary{Foldable: p.Foldable, Cost: cost, Ops: p.Ops}
}

// Callee returns the summary of the function a static call calls, or nil
// for a dynamic call, a closure or a function without a summary.
func (r *Result) Callee(c *ssa.CallCommon) *Summary {
	if fn := c.StaticCallee(); fn != nil {
		return r.ssaFunc(fn)
	}
	return nil
}

// ssaFunc returns the summary of fn, or nil.
func (r *Result) ssaFunc(fn *ssa.Function) *Summary {
	obj, ok := fn.Object().(*types.Func)
	if !ok {
		return nil
	}
	return r.Lookup(obj)
}

func run(pass *analysis.Pass) (any, error) {
	res := &Result{
		funcs:     make(map[ast.Node]*ssa.Function),
		summaries: make(map[*types.Func]*Summary),
	}
	for _, f := range pass.AllObjectFacts() {
		if fn, ok := f.Object.(*types.Func); ok {
			res.summaries[fn] = f.Fact.(*Summary)
		}
	}
	if inGOROOT(pass) {
		return res, nil
	}

	res.Pkg = buildSSA(pass)
	var decls []*decl
	for _, d := range benchfn.Decls(pass.TypesInfo, pass.Files, false) {
		fn := res.Pkg.Prog.FuncValue(d.Func)
		if fn == nil {
			continue
		}
		var add func(f *ssa.Function)
		add = func(f *ssa.Function) {
			if s := f.Syntax(); s != nil {
				res.funcs[s] = f
			}
			for _, anon := range f.AnonFuncs {
				add(anon)
			}
		}
		add(fn)
		if candidate(d.Node, d.Func) {
			decls = append(decls, &decl{obj: d.Func, fn: fn, cost: nodes(d.Node.Body),
				literal: literal(d.Node, pass.TypesInfo), search: searchSwitch(d.Node, pass.TypesInfo)})
		}
	}

	// A function is pure once all its callees are known to be pure, so
	// iterate to a fixed point. Starting from "impure" means recursive
	// functions, which the compiler does not inline, stay impure.
	for changed := true; changed; {
		changed = false
		for _, d := range decls {
			if res.summaries[d.obj] != nil {
				continue
			}
			if s := summarise(d, res); s != nil {
				res.summaries[d.obj] = s
				changed = true
			}
		}
	}
	for _, d := range decls {
		if s := res.summaries[d.obj]; s != nil {
			pass.ExportObjectFact(d.obj, s)
		}
	}
	return res, nil
}

// A decl is a function of the package that may be pure.
type decl struct {
	obj     *types.Func
	fn      *ssa.Function
	cost    int  // syntax nodes of the body alone
	literal bool // the body is a single return of a literal of the parameters
	search  bool // the body has a switch the compiler lowers to a binary search
}

// searchSwitch reports whether the body of fd has an expression switch
// that the gc compiler lowers to a binary search over its constant cases
// and does not collapse when the result is dead: one on a string with at
// least two constant case values, or on an integer with at least four.
// The thresholds are measured (eval/vet/switch-asm.sh), not derived
// from the compiler's source.
func searchSwitch(fd *ast.FuncDecl, info *types.Info) bool {
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		sw, ok := n.(*ast.SwitchStmt)
		if found || !ok || sw.Tag == nil {
			return !found
		}
		cases := 0
		for _, c := range sw.Body.List {
			for _, e := range c.(*ast.CaseClause).List {
				if info.Types[e].Value != nil {
					cases++
				}
			}
		}
		if t := info.TypeOf(sw.Tag); t != nil {
			found = isString(t) && cases >= 2 || isInteger(t) && cases >= 4
		}
		return !found
	})
	return found
}

// literal reports whether the body of fd is a single return of one
// composite literal whose elements (the values of keyed elements) are
// parameters of fd, constants, or such composite literals in turn.
func literal(fd *ast.FuncDecl, info *types.Info) bool {
	if len(fd.Body.List) != 1 {
		return false
	}
	ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return false
	}
	params := make(map[string]bool)
	for _, f := range fd.Type.Params.List {
		for _, n := range f.Names {
			params[n.Name] = true
		}
	}
	var elem func(e ast.Expr) bool
	elem = func(e ast.Expr) bool {
		if tv, ok := info.Types[e]; ok && tv.Value != nil {
			return true // a constant
		}
		switch e := ast.Unparen(e).(type) {
		case *ast.Ident:
			return params[e.Name]
		case *ast.KeyValueExpr:
			return elem(e.Value)
		case *ast.CompositeLit:
			for _, x := range e.Elts {
				if !elem(x) {
					return false
				}
			}
			return true
		}
		return false
	}
	_, ok = ast.Unparen(ret.Results[0]).(*ast.CompositeLit)
	return ok && elem(ret.Results[0])
}

// candidate reports whether fd could be summarised at all: it has a body
// and results, fits the budget on its own, and has no //go: directive
// (//go:noinline and its relatives stop inlining, so the call stays).
func candidate(fd *ast.FuncDecl, obj *types.Func) bool {
	if fd.Body == nil || obj.Signature().Results().Len() == 0 {
		return false
	}
	if fd.Doc != nil {
		for _, c := range fd.Doc.List {
			if strings.HasPrefix(c.Text, "//go:") {
				return false
			}
		}
	}
	return nodes(fd.Body) <= inlineBudget
}

// nodes counts the syntax nodes under n.
func nodes(n ast.Node) int {
	count := 0
	ast.Inspect(n, func(n ast.Node) bool {
		if n != nil {
			count++
		}
		return true
	})
	return count
}

// summarise returns the summary of d, or nil if d is impure or not yet
// known to be pure because a callee in the package is still unknown.
func summarise(d *decl, res *Result) *Summary {
	fn := d.fn
	if fn.Blocks == nil || len(fn.AnonFuncs) > 0 {
		return nil
	}
	cost := d.cost
	foldable := !refResult(fn.Signature)
	loop := false
	ops := 0
	headers := make(map[*ssa.BasicBlock]bool)
	for _, b := range fn.Blocks {
		for _, s := range b.Succs {
			if s.Dominates(b) {
				foldable = false // a loop
				loop = true
				headers[s] = true
			}
		}
		for _, instr := range b.Instrs {
			if !removable(instr) {
				return nil
			}
			if a, ok := instr.(*ssa.Alloc); ok && a.Heap && escapes(a) {
				foldable = false // a fresh object is not a constant
			}
			ops += arith(instr)
			for _, op := range instr.Operands(nil) {
				if _, ok := (*op).(*ssa.Global); ok {
					foldable = false
				}
			}
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			switch callee := call.Call.Value.(type) {
			case *ssa.Builtin:
				if effects.Builtin(callee.Name()).Plain == nil {
					return nil
				}
			case *ssa.Function:
				s := res.ssaFunc(callee)
				if s == nil {
					return nil
				}
				cost += s.Cost
				ops += s.Ops
				foldable = foldable && s.Foldable
				loop = loop || s.Loop
			default:
				return nil
			}
		}
	}
	if cost > inlineBudget {
		return nil
	}
	return &Summary{
		Foldable:    foldable,
		Loop:        loop,
		Accumulates: loop && accumulates(fn, headers, res),
		Checked:     !loop && checked(fn, res),
		Fresh:       !loop && allResults(fn, func(v ssa.Value) bool { return constOrFresh(v, res) }),
		Literal:     d.literal,
		Switch:      !loop && d.search && allResults(fn, isConst),
		Selects:     !loop && selects(fn, res, false),
		Loads:       !loop && selects(fn, res, true),
		Ops:         ops,
		Cost:        cost,
	}
}

// allResults reports whether ok holds for every result of every return
// of fn.
func allResults(fn *ssa.Function, ok func(ssa.Value) bool) bool {
	for _, b := range fn.Blocks {
		ret, isRet := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !isRet {
			continue
		}
		for _, v := range ret.Results {
			if !ok(v) {
				return false
			}
		}
	}
	return true
}

// constOrFresh reports whether v is a constant or a fresh object: a
// composite literal whose address is taken, or the result of a function
// whose summary is Fresh.
func constOrFresh(v ssa.Value, res *Result) bool {
	switch v := v.(type) {
	case *ssa.Const:
		return true
	case *ssa.Alloc:
		return v.Heap
	case *ssa.Call:
		s := res.Callee(&v.Call)
		return s != nil && s.Fresh
	}
	return false
}

// checked reports whether fn returns a value that it tests in a branch
// condition itself on one arm and a fresh object on another, and
// otherwise only such values and constants. The allocating arm keeps the
// test in the compiled code (goquery's End keeps CMPQ/JNE on prevSel when
// its result is dead); without one, as in max(a, b) through if or
// if p != nil { return p }; return nil, the branch merges two values and
// goes with them. A value counts as tested when it, or a load of the same
// address (go/ssa loads s.prevSel once for the test and once for the
// return; the compiler's CSE merges them), feeds an if.
func checked(fn *ssa.Function, res *Result) bool {
	var tested []ssa.Value
	for _, b := range fn.Blocks {
		if cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok {
			tested = append(tested, operands(cond.Cond)...)
		}
	}
	isTested := func(v ssa.Value) bool {
		for _, t := range tested {
			if same(v, t) {
				return true
			}
		}
		return false
	}
	tests, allocs := false, false
	all := allResults(fn, func(v ssa.Value) bool {
		switch {
		case isConst(v):
			return true
		case isTested(v):
			tests = true
			return true
		case constOrFresh(v, res):
			allocs = true
			return true
		}
		return false
	})
	return tests && allocs && all
}

// selects reports whether every instruction of fn, a function without
// loops, only selects: loads, field selection, elements at constant
// indices and slicing (an element at a computed index is a table lookup,
// the whole work of functions such as Log2Byte of modernc.org/mathutil,
// return log2[b]),
// type changes, φ-nodes, branches on a selected boolean, and calls of
// len, cap, the nil check of go/ssa and functions whose summary is
// Selects, and the spill of a parameter to a local. No arithmetic,
// comparison, conversion or allocation. With lookups, elements at
// computed indices and calls of functions whose summary is Loads are
// allowed too.
func selects(fn *ssa.Function, res *Result, lookups bool) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.UnOp:
				if instr.Op != token.MUL {
					return false
				}
			case *ssa.Call:
				switch callee := instr.Call.Value.(type) {
				case *ssa.Builtin:
					switch callee.Name() {
					case "len", "cap", "ssa:wrapnilchk":
					default:
						return false
					}
				case *ssa.Function:
					s := res.ssaFunc(callee)
					if s == nil || !s.Selects && !(lookups && s.Loads) {
						return false
					}
				default:
					return false
				}
			case *ssa.Alloc:
				// go/ssa spills a struct or array parameter to a
				// local before selecting from it (t0 = local Pair (p);
				// *t0 = p; &t0.A).
				if instr.Heap {
					return false
				}
			case *ssa.Store:
				if _, ok := instr.Addr.(*ssa.Alloc); !ok {
					return false
				}
				if _, ok := instr.Val.(*ssa.Parameter); !ok {
					return false
				}
			case *ssa.IndexAddr:
				if !lookups && !isConst(instr.Index) {
					return false // a table lookup: work
				}
			case *ssa.Index:
				if !lookups && !isConst(instr.Index) {
					return false
				}
			case *ssa.FieldAddr, *ssa.Field, *ssa.Slice,
				*ssa.ChangeType, *ssa.Phi, *ssa.Extract, *ssa.Jump, *ssa.If,
				*ssa.Return, *ssa.DebugRef:
			default:
				return false
			}
		}
	}
	return true
}

func isConst(v ssa.Value) bool {
	_, ok := v.(*ssa.Const)
	return ok
}

// operands returns v and, transitively, the values it is computed from.
func operands(v ssa.Value) []ssa.Value {
	var vals []ssa.Value
	Visit([]ssa.Value{v}, func(v ssa.Value) ([]ssa.Value, bool) {
		vals = append(vals, v)
		return operandsOf(v), false
	})
	return vals
}

// operandsOf returns the non-nil operands of v, if it is an instruction.
func operandsOf(v ssa.Value) []ssa.Value {
	instr, ok := v.(ssa.Instruction)
	if !ok {
		return nil
	}
	var ops []ssa.Value
	for _, op := range instr.Operands(nil) {
		if *op != nil {
			ops = append(ops, *op)
		}
	}
	return ops
}

// Visit walks a graph of SSA values depth first from starts, each value
// once: next returns the values to go on to from v, and whether to stop the
// whole walk. Visit reports whether it was stopped.
func Visit(starts []ssa.Value, next func(v ssa.Value) (more []ssa.Value, stop bool)) bool {
	seen := make(map[ssa.Value]bool)
	work := slices.Clone(starts)
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		if v == nil || seen[v] {
			continue
		}
		seen[v] = true
		more, stop := next(v)
		if stop {
			return true
		}
		work = append(work, more...)
	}
	return false
}

// VisitUses walks forward from starts along their uses. For each visited
// value v and each instruction r that uses it, use returns the value to
// visit next (nil for none) and whether to stop the walk. A value whose
// uses go/ssa does not record (a constant, a global) stops it, since its
// uses are unknown. VisitUses reports whether the walk stopped.
func VisitUses(starts []ssa.Value, use func(v ssa.Value, r ssa.Instruction) (next ssa.Value, stop bool)) bool {
	return Visit(starts, func(v ssa.Value) (more []ssa.Value, stop bool) {
		refs := v.Referrers()
		if refs == nil {
			return nil, true
		}
		for _, r := range *refs {
			next, stop := use(v, r)
			if stop {
				return nil, true
			}
			more = append(more, next)
		}
		return more, false
	})
}

// same reports whether x and y are the same value, or loads of the same
// address computed the same way. Within a pure function nothing stores
// to memory it did not allocate, so two such loads give the same value.
func same(x, y ssa.Value) bool {
	if x == y {
		return true
	}
	switch x := x.(type) {
	case *ssa.UnOp:
		y, ok := y.(*ssa.UnOp)
		return ok && x.Op == token.MUL && y.Op == token.MUL && same(x.X, y.X)
	case *ssa.FieldAddr:
		y, ok := y.(*ssa.FieldAddr)
		return ok && x.Field == y.Field && same(x.X, y.X)
	case *ssa.Field:
		y, ok := y.(*ssa.Field)
		return ok && x.Field == y.Field && same(x.X, y.X)
	case *ssa.IndexAddr:
		y, ok := y.(*ssa.IndexAddr)
		return ok && same(x.X, y.X) && same(x.Index, y.Index)
	case *ssa.Index:
		y, ok := y.(*ssa.Index)
		return ok && same(x.X, y.X) && same(x.Index, y.Index)
	case *ssa.Const:
		y, ok := y.(*ssa.Const)
		return ok && x.Value != nil && y.Value != nil && x.Value.ExactString() == y.Value.ExactString() &&
			types.Identical(x.Type(), y.Type())
	}
	return false
}

// refResult reports whether sig has a result of reference type: a
// pointer, slice, map, channel, function or interface.
func refResult(sig *types.Signature) bool {
	for v := range sig.Results().Variables() {
		if refType(v.Type()) {
			return true
		}
	}
	return false
}

func refType(t types.Type) bool {
	if tp, ok := t.(*types.TypeParam); ok {
		// A type parameter is a reference type unless every term of
		// its constraint is not.
		iface, ok := tp.Constraint().Underlying().(*types.Interface)
		if !ok || iface.NumEmbeddeds() == 0 {
			return true
		}
		for e := range iface.EmbeddedTypes() {
			u, ok := e.(*types.Union)
			if !ok {
				return true
			}
			for term := range u.Terms() {
				if refType(term.Type()) {
					return true
				}
			}
		}
		return false
	}
	switch t := t.Underlying().(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan,
		*types.Signature, *types.Interface:
		return true
	case *types.Basic:
		return t.Kind() == types.UnsafePointer
	}
	return false
}

// escapes reports whether the address of alloc, or an address derived
// from it, is returned, stored or passed to a call.
func escapes(alloc *ssa.Alloc) bool {
	return Visit([]ssa.Value{alloc}, func(v ssa.Value) (more []ssa.Value, stop bool) {
		for _, r := range *v.Referrers() {
			switch r := r.(type) {
			case *ssa.Store:
				if r.Val == v {
					return nil, true
				}
			case *ssa.Return, *ssa.Call, *ssa.MakeInterface:
				return nil, true
			case *ssa.FieldAddr, *ssa.IndexAddr, *ssa.Slice, *ssa.ChangeType,
				*ssa.Convert, *ssa.Phi, *ssa.SliceToArrayPointer:
				more = append(more, r.(ssa.Value))
			}
		}
		return more, false
	})
}

// accumulates reports whether a result of fn depends on an accumulated
// value, a φ-node of a loop header or the result of a call of an
// accumulating function, that feeds no branch condition.
func accumulates(fn *ssa.Function, headers map[*ssa.BasicBlock]bool, res *Result) bool {
	var work []ssa.Value
	for _, b := range fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			work = append(work, ret.Results...)
		}
	}
	return Visit(work, func(v ssa.Value) ([]ssa.Value, bool) {
		acc := false
		switch v := v.(type) {
		case *ssa.Phi:
			acc = headers[v.Block()] && !tripCounter(v)
		case *ssa.Call:
			s := res.Callee(&v.Call)
			acc = s != nil && s.Accumulates
		}
		if acc && !feedsBranch(v) {
			return nil, true
		}
		return operandsOf(v), false
	})
}

// tripCounter reports whether phi, a φ-node of a loop header, only counts
// trips: it starts from a constant and each back edge adds a constant to
// it (count++ in count_raw_tape of minio/simdjson-go ndjson_test.go). Its
// dead update costs one add a trip; the work of such a loop, if any, is
// in its control flow (a tape walk whose next index is loaded from the
// tape), and that stays. A counter bumped under a condition merges
// through another φ-node first, so it is not a trip counter.
func tripCounter(phi *ssa.Phi) bool {
	for _, e := range phi.Edges {
		switch e := e.(type) {
		case *ssa.Const:
		case *ssa.BinOp:
			if e.Op != token.ADD && e.Op != token.SUB {
				return false
			}
			if !(e.X == phi && isConst(e.Y)) && !(e.Y == phi && isConst(e.X) && e.Op == token.ADD) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// feedsBranch reports whether a branch condition depends on v.
func feedsBranch(v ssa.Value) bool {
	return VisitUses([]ssa.Value{v}, func(_ ssa.Value, r ssa.Instruction) (ssa.Value, bool) {
		if _, ok := r.(*ssa.If); ok {
			return nil, true
		}
		next, _ := r.(ssa.Value)
		return next, false
	})
}

// arith returns what folding instr would save: 1 for an integer
// instruction of one cycle (addition, subtraction, logic, shift,
// comparison, negation), 2 for a dearer one (a multiplication, division
// or remainder, floating-point arithmetic, a conversion between an
// integer and a floating-point type), and 0 for anything else.
func arith(instr ssa.Instruction) int {
	switch instr := instr.(type) {
	case *ssa.BinOp:
		if isFloat(instr.X.Type()) || instr.Op == token.MUL || instr.Op == token.QUO || instr.Op == token.REM {
			return 2
		}
		return 1
	case *ssa.UnOp:
		if instr.Op == token.SUB || instr.Op == token.XOR || instr.Op == token.NOT {
			if isFloat(instr.X.Type()) {
				return 2
			}
			return 1
		}
	case *ssa.Convert:
		if isFloat(instr.Type()) != isFloat(instr.X.Type()) {
			return 2
		}
	}
	return 0
}

func isFloat(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsFloat != 0
}

// removable reports whether instr, apart from the callee of a call (which
// the caller checks), is something dead-code elimination can delete.
func removable(instr ssa.Instruction) bool {
	switch instr := instr.(type) {
	case *ssa.Store:
		return fresh(instr.Addr)
	case *ssa.Call:
		return !instr.Call.IsInvoke()
	case *ssa.BinOp:
		return !StringCall(instr)
	case *ssa.UnOp:
		return instr.Op != token.ARROW
	case *ssa.Convert:
		// Conversions between strings and byte or rune slices, and of
		// integers to strings, call the runtime.
		return !isString(instr.Type()) && !isString(instr.X.Type())
	case *ssa.TypeAssert:
		// Assertion to an interface calls the runtime; to a concrete
		// type it is a comparison of type words.
		return !types.IsInterface(instr.AssertedType)
	case *ssa.MakeInterface:
		// panic("message") boxes its argument; the panic itself is
		// control flow the benchmark never takes.
		for _, r := range *instr.Referrers() {
			if _, ok := r.(*ssa.Panic); !ok {
				return false
			}
		}
		return true
	case *ssa.Lookup:
		return isString(instr.X.Type()) // map lookups call the runtime
	case *ssa.Range:
		return isString(instr.X.Type())
	case *ssa.Next:
		return instr.IsString
	case *ssa.Panic:
		// A function that may panic has an effect: the compiler keeps the
		// check, and every computation feeding it (uint128's Add, which
		// panics on overflow, stays in the loop with its result unused).
		return false
	case *ssa.Alloc, *ssa.Phi, *ssa.ChangeType, *ssa.Extract,
		*ssa.FieldAddr, *ssa.Field, *ssa.IndexAddr, *ssa.Index, *ssa.Slice,
		*ssa.SliceToArrayPointer, *ssa.Jump, *ssa.If, *ssa.Return,
		*ssa.DebugRef:
		return true
	}
	// MapUpdate, Send, Select, Go, Defer, RunDefers, MakeClosure,
	// ChangeInterface, MakeMap, MakeChan, MakeSlice,
	// MultiConvert and anything new.
	return false
}

// fresh reports whether addr points into memory allocated by the function
// itself, so storing there is invisible to the caller.
func fresh(addr ssa.Value) bool {
	for {
		switch a := addr.(type) {
		case *ssa.Alloc:
			return true
		case *ssa.FieldAddr:
			addr = a.X
		case *ssa.IndexAddr:
			addr = a.X
		case *ssa.Slice:
			addr = a.X
		default:
			return false
		}
	}
}

// StringCall reports whether op lowers to a runtime call: concatenation
// of strings (concatstrings), or comparison of two non-constant strings
// (memequal, cmpstring).
func StringCall(op *ssa.BinOp) bool {
	if !isString(op.X.Type()) {
		return false
	}
	switch op.Op {
	case token.ADD:
		return true
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		_, xc := op.X.(*ssa.Const)
		_, yc := op.Y.(*ssa.Const)
		return !xc && !yc
	}
	return false
}

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// buildSSA builds the SSA form of the package, as buildssa does.
func buildSSA(pass *analysis.Pass) *ssa.Package {
	prog := ssa.NewProgram(pass.Fset, 0)
	for _, p := range pass.Pkg.Imports() {
		prog.CreatePackage(p, nil, nil, true)
	}
	pkg := prog.CreatePackage(pass.Pkg, pass.Files, pass.TypesInfo, false)
	pkg.Build()
	return pkg
}

// goroot is the standard library source directory, or "" if unknown.
var goroot = func() string {
	if build.Default.GOROOT == "" {
		return ""
	}
	return filepath.Join(build.Default.GOROOT, "src") + string(filepath.Separator)
}()

// inGOROOT reports whether the package is part of the standard library.
// When GOROOT is unknown it falls back to the import path: standard paths
// have no dot in their first element.
func inGOROOT(pass *analysis.Pass) bool {
	if goroot == "" {
		first, _, _ := strings.Cut(pass.Pkg.Path(), "/")
		return !strings.Contains(first, ".") && (pass.Module == nil || pass.Module.Path == "")
	}
	for _, f := range pass.Files {
		if strings.HasPrefix(pass.Fset.File(f.Pos()).Name(), goroot) {
			return true
		}
	}
	return false
}

// Name returns fn as a user would write it: pkg.F, or T.M for a method.
func Name(fn *types.Func) string {
	if recv := fn.Signature().Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := t.(*types.Named); ok {
			return n.Obj().Name() + "." + fn.Name()
		}
		return fn.Name()
	}
	if fn.Pkg() == nil {
		return fn.Name()
	}
	return fn.Pkg().Name() + "." + fn.Name()
}
