package gen

import (
	"go/ast"
	"go/token"
	"go/types"
	"sync"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/mbench/mbench/internal/effects"
)

// This file finds the state a segment changes: the inputs it mutates
// and the package-level variables it writes.
//
// The segment changes the state reachable from a variable x (an input
// or a package-level variable) when
//   - it stores through x or a value derived from it: x[i] = , x.f = when
//     x is a pointer, *x = , m[k] = , x[i]++, for a slice, map or pointer
//     x;
//   - it passes x, or a value derived from it whose type holds pointers
//     (a pointer, slice, map, channel, function or interface, or a struct
//     or array holding one), to a call, as an argument or as the
//     receiver of a method, unless the callee is known to only read it:
//     a builtin or a function of the standard library that package
//     effects says only reads (len, bytes.Equal, a method of time.Time),
//     or a function or method of the segment's own package whose SSA
//     form shows it never stores through the parameter, passes it to a
//     call not known to only read it, or lets it escape (stored, sent,
//     captured); append, copy (its destination), delete and clear change
//     their first argument;
//   - for a package-level variable, it assigns the variable itself.
//
// For a package-level variable, a call counts only when it certainly
// changes the argument (see argChange): reading shared tables through
// calls of other packages (unicode.Is(unicode.Latin, r)) is common and
// rarely writes them.
//
// A value is derived from x when it is x, or a local variable the
// segment assigns (or ranges into) from an expression that mentions a
// variable derived from x and whose type holds pointers: the analysis
// of aliases is flow-insensitive, so it errs on the side of mutation.

// An ssaCache builds the SSA form of a package once, when a segment
// calls a function of its package with a value it may change.
type ssaCache struct {
	mu   sync.Mutex
	pkgs map[*packages.Package]*ssa.Program
	// readOnly memoises readOnlyParam; true while in progress, so
	// recursion assumes the best and the rest of the function decides.
	readOnly map[paramKey]bool
	// assigned memoises assignedGlobals.
	assigned map[*packages.Package]map[*types.Var]bool
}

// assignedGlobals returns the package-level variables of pkg that a
// function of pkg other than init assigns, computed once per package.
func (c *ssaCache) assignedGlobals(pkg *packages.Package, a *analyzer) map[*types.Var]bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.assigned == nil {
		c.assigned = map[*packages.Package]map[*types.Var]bool{}
	}
	if m, ok := c.assigned[pkg]; ok {
		return m
	}
	m := map[*types.Var]bool{}
	for _, f := range pkg.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Recv == nil && fd.Name.Name == "init" {
				continue
			}
			for _, as := range a.assignments(fd.Body) {
				if as.direct && !as.addr && isGlobal(as.v) && as.v.Pkg() == pkg.Types {
					m[as.v] = true
				}
			}
		}
	}
	c.assigned[pkg] = m
	return m
}

type paramKey struct {
	fn *ssa.Function
	i  int
}

// function returns the SSA function of obj, a function or concrete
// method of pkg, or nil.
func (c *ssaCache) function(pkg *packages.Package, obj *types.Func) *ssa.Function {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pkgs == nil {
		c.pkgs = map[*packages.Package]*ssa.Program{}
		c.readOnly = map[paramKey]bool{}
	}
	prog, ok := c.pkgs[pkg]
	if !ok {
		var spkgs []*ssa.Package
		prog, spkgs = ssautil.Packages([]*packages.Package{pkg}, 0)
		if spkgs[0] != nil {
			spkgs[0].Build()
		} else {
			prog = nil
		}
		c.pkgs[pkg] = prog
	}
	if prog == nil {
		return nil
	}
	return prog.FuncValue(obj)
}

// readOnlyParam reports whether fn only reads the state its i-th
// parameter (the receiver first, for a method) refers to.
func (c *ssaCache) readOnlyParam(fn *ssa.Function, i int) bool {
	if fn == nil || i >= len(fn.Params) || fn.Blocks == nil {
		return false
	}
	key := paramKey{fn, i}
	c.mu.Lock()
	ro, done := c.readOnly[key]
	if !done {
		c.readOnly[key] = true
	}
	c.mu.Unlock()
	if done {
		return ro
	}
	ro = c.onlyRead(fn, fn.Params[i])
	c.mu.Lock()
	c.readOnly[key] = ro
	c.mu.Unlock()
	return ro
}

// onlyRead reports whether fn's code only reads the state reachable from
// p.
func (c *ssaCache) onlyRead(fn *ssa.Function, p ssa.Value) bool {
	seen := map[ssa.Value]bool{}
	work := []ssa.Value{p}
	follow := func(v ssa.Value) {
		if !seen[v] && holdsPointers(v.Type()) {
			seen[v] = true
			work = append(work, v)
		}
	}
	seen[p] = true
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		refs := v.Referrers()
		if refs == nil {
			continue
		}
		for _, instr := range *refs {
			switch in := instr.(type) {
			case *ssa.Store, *ssa.MapUpdate, *ssa.Send, *ssa.MakeClosure, *ssa.Go, *ssa.Defer, *ssa.Select:
				return false
			case *ssa.FieldAddr, *ssa.IndexAddr, *ssa.Slice, *ssa.Field, *ssa.Index,
				*ssa.ChangeType, *ssa.Convert, *ssa.MakeInterface, *ssa.Phi, *ssa.Extract,
				*ssa.Lookup, *ssa.TypeAssert, *ssa.Range, *ssa.Next, *ssa.SliceToArrayPointer,
				*ssa.MultiConvert, *ssa.ChangeInterface:
				follow(in.(ssa.Value))
			case *ssa.UnOp:
				if in.Op == token.MUL {
					follow(in)
				}
			case *ssa.Call:
				if !c.callReads(fn, in.Common(), v) {
					return false
				}
				follow(in)
			case *ssa.BinOp, *ssa.If, *ssa.Return, *ssa.Panic, *ssa.DebugRef, *ssa.RunDefers, *ssa.Jump:
			default:
				return false
			}
		}
	}
	return true
}

// callReads reports whether the call only reads the state reachable from
// v, one of its operands, made in caller.
func (c *ssaCache) callReads(caller *ssa.Function, call *ssa.CallCommon, v ssa.Value) bool {
	if call.Value == v || call.IsInvoke() {
		return false
	}
	if b, ok := call.Value.(*ssa.Builtin); ok {
		return reads(effects.Builtin(b.Name()), call.Args, v)
	}
	callee := call.StaticCallee()
	if callee == nil || callee.Pkg == nil || callee.Pkg != caller.Pkg {
		if callee != nil && callee.Object() != nil {
			if f, ok := callee.Object().(*types.Func); ok {
				return reads(effects.Of(f), call.Args, v)
			}
		}
		return false
	}
	for i, a := range call.Args {
		if a == v && !c.readOnlyParam(callee, i) {
			return false
		}
	}
	return true
}

// reads reports whether a call of a function with effect f, with args,
// only reads the state reachable from v, one of the args.
func reads(f effects.Func, args []ssa.Value, v ssa.Value) bool {
	switch f.Effect {
	case effects.ReadsOnly:
		return true
	case effects.ChangesFirst:
		return args[0] != v
	}
	return false
}

// holdsPointers reports whether a value of type t refers to other
// state: it is, or holds, a pointer, slice, map, channel, function or
// interface.
func holdsPointers(t types.Type) bool {
	return holds(t, map[types.Type]bool{})
}

func holds(t types.Type, seen map[types.Type]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	case *types.Array:
		return holds(u.Elem(), seen)
	case *types.Struct:
		for i := range u.NumFields() {
			if holds(u.Field(i).Type(), seen) {
				return true
			}
		}
		return false
	case *types.Tuple:
		for i := range u.Len() {
			if holds(u.At(i).Type(), seen) {
				return true
			}
		}
		return false
	}
	return true
}

// An effect is a change the segment makes to state reachable from a
// variable (an input or a package-level variable), or an assignment of
// a package-level variable.
type effect struct {
	v   *types.Var
	pos token.Pos
}

// isGlobal reports whether v is a package-level variable.
func isGlobal(v *types.Var) bool {
	return v != nil && !v.IsField() && v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
}

// effects returns the changes the segment's code makes to the state of
// the variables in roots (inputs) and of package-level variables.
func (a *analyzer) effects(roots []*types.Var) []effect {
	isRoot := map[*types.Var]bool{}
	for _, v := range roots {
		isRoot[v] = true
	}
	// derived[w] are the roots and package-level variables local w may
	// refer into.
	derived := map[*types.Var]map[*types.Var]bool{}
	sources := func(e ast.Expr) map[*types.Var]bool {
		out := map[*types.Var]bool{}
		ast.Inspect(e, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			v, _ := a.info.Uses[id].(*types.Var)
			if v == nil || !holdsPointers(v.Type()) {
				return true
			}
			if isRoot[v] || isGlobal(v) {
				out[v] = true
			}
			for r := range derived[v] {
				out[r] = true
			}
			return true
		})
		return out
	}
	derive := func(lhs ast.Expr, src map[*types.Var]bool) bool {
		if len(src) == 0 || !holdsPointers(a.info.TypeOf(lhs)) {
			return false
		}
		w, _ := a.rootVar(lhs)
		if w == nil || !isLocal(w) || isRoot[w] {
			return false
		}
		changed := false
		if derived[w] == nil {
			derived[w] = map[*types.Var]bool{}
		}
		for r := range src {
			if !derived[w][r] {
				derived[w][r] = true
				changed = true
			}
		}
		return changed
	}
	for changed := true; changed; {
		changed = false
		ast.Inspect(a.code, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					r := n.Rhs[0]
					if len(n.Rhs) == len(n.Lhs) {
						r = n.Rhs[i]
					}
					changed = derive(l, sources(r)) || changed
				}
			case *ast.ValueSpec:
				for i, id := range n.Names {
					if i < len(n.Values) {
						changed = derive(id, sources(n.Values[i])) || changed
					} else if len(n.Values) == 1 {
						changed = derive(id, sources(n.Values[0])) || changed
					}
				}
			case *ast.RangeStmt:
				src := sources(n.X)
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if e != nil {
						changed = derive(e, src) || changed
					}
				}
			}
			return true
		})
	}

	var out []effect
	// hit records changes of the state reachable from the variables of
	// src; of package-level variables only when the change is certain.
	hit := func(src map[*types.Var]bool, pos token.Pos, certain bool) {
		for _, r := range roots {
			if src[r] {
				out = append(out, effect{r, pos})
			}
		}
		for r := range src {
			if isGlobal(r) && certain {
				out = append(out, effect{r, pos})
			}
		}
	}
	for _, as := range a.assignments(a.code) {
		switch {
		case as.addr:
			// Taking an address changes nothing by itself; the pointer
			// is followed as a derived value.
		case isGlobal(as.v):
			out = append(out, effect{as.v, as.pos})
		case !as.direct:
			src := map[*types.Var]bool{}
			if isRoot[as.v] {
				src[as.v] = true
			}
			for r := range derived[as.v] {
				src[r] = true
			}
			hit(src, as.pos, true)
		}
	}
	ast.Inspect(a.code, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			for _, c := range a.changedArgs(call) {
				hit(sources(c.arg), c.arg.Pos(), c.certain)
			}
		}
		return true
	})
	return out
}

// An argChange is an argument of a call whose reachable state the call
// may change; certain when the callee is known to change it (or is
// shown not to only read it): a builtin that changes its first
// argument, a sort of package sort or slices, a method with a pointer
// receiver (for the receiver), a function of the segment's package.
type argChange struct {
	arg     ast.Expr
	certain bool
}

// changedArgs returns the arguments of call (the receiver of a method
// included) whose reachable state the call may change.
func (a *analyzer) changedArgs(call *ast.CallExpr) []argChange {
	if tv, ok := a.info.Types[call.Fun]; ok && tv.IsType() {
		return nil // a conversion
	}
	fun := ast.Unparen(call.Fun)
	if id, ok := fun.(*ast.Ident); ok {
		if b, ok := a.info.Uses[id].(*types.Builtin); ok {
			if effects.Builtin(b.Name()).Effect == effects.ChangesFirst {
				return []argChange{{call.Args[0], true}}
			}
			return nil
		}
	}
	var obj *types.Func
	var recv ast.Expr
	switch f := fun.(type) {
	case *ast.Ident:
		obj, _ = a.info.Uses[f].(*types.Func)
	case *ast.SelectorExpr:
		obj, _ = a.info.Uses[f.Sel].(*types.Func)
		if sel := a.info.Selections[f]; sel != nil {
			if sel.Kind() != types.MethodVal || obj == nil {
				obj = nil // a field of function type, or a method expression
			} else {
				recv = f.X
			}
		}
	case *ast.IndexExpr, *ast.IndexListExpr:
		obj = nil // an instantiated generic function
	}
	var args []ast.Expr
	if recv != nil {
		args = append(args, recv)
	}
	args = append(args, call.Args...)
	var fn *ssa.Function
	if obj != nil && obj.Pkg() == a.pkg && !isInterfaceMethod(obj) {
		fn = a.ssa.function(a.seg.Pkg, obj)
	}
	std := effects.Of(obj)
	var changed []argChange
	for i, arg := range args {
		certain := fn != nil || std.Effect == effects.ChangesFirst
		if recv != nil && i == 0 {
			certain = certain || isPointer(obj.Signature().Recv().Type())
			// A method with a pointer receiver called on an addressable
			// value gets its address.
			if !holdsPointers(a.info.TypeOf(arg)) && !isPointer(obj.Signature().Recv().Type()) {
				continue
			}
		} else if !holdsPointers(a.info.TypeOf(arg)) {
			continue
		}
		if std.Effect == effects.ReadsOnly {
			continue
		}
		if fn != nil {
			p := i
			if fn.Signature.Variadic() && p >= len(fn.Params)-1 && !call.Ellipsis.IsValid() {
				// Extra arguments of a variadic call are in one slice.
				p = len(fn.Params) - 1
			}
			if a.ssa.readOnlyParam(fn, p) {
				continue
			}
		}
		changed = append(changed, argChange{arg, certain})
	}
	return changed
}

// isInterfaceMethod reports whether f is an abstract method.
func isInterfaceMethod(f *types.Func) bool {
	recv := f.Signature().Recv()
	return recv != nil && types.IsInterface(recv.Type())
}
