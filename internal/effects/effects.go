// Package effects knows what functions of the standard library, and the
// builtins, do to the state their arguments refer to. The analyses of
// mbench vet (vet/internal/purity and the analyzers over it) and of
// mbench gen (which inputs a marked segment changes) do not analyse the
// standard library; they look its functions up here, in one table.
//
// A function the table does not hold is Unknown: a caller must assume it
// may change whatever its arguments refer to. Entries err the same way:
// a function is ReadsOnly only when no argument's state can change
// through it.
package effects

import "go/types"

// An Effect is what a call does to the state its arguments refer to.
type Effect int

const (
	// Unknown is the effect of a function the table does not hold.
	Unknown Effect = iota
	// ReadsOnly is the effect of a function that only reads what its
	// arguments refer to (it may allocate, print or panic).
	ReadsOnly
	// ChangesFirst is the effect of a function that changes what its
	// first argument refers to and only reads the others.
	ChangesFirst
)

// A Func is what the table knows of a function.
type Func struct {
	Effect Effect
	// Sorts is set for a function that sorts its first argument in
	// place (ChangesFirst).
	Sorts bool
	// Plain, for a function without effect whose calls the gc
	// compiler turns into plain instructions, says how.
	Plain *Plain
}

// Plain describes a call the gc compiler turns into plain
// instructions, which dead-code elimination deletes when the result is
// not used.
type Plain struct {
	// Intrinsic is set for a compiler intrinsic
	// (cmd/compile/internal/ssagen/intrinsics.go); otherwise the
	// function is one line of intrinsics, inlined.
	Intrinsic bool
	// Foldable is set when constant arguments fold to a constant: the
	// rules of cmd/compile/internal/ssa/_gen/generic.rules such as
	// (Sqrt (Const64F [c])), (PopCount64 (Const64 [c])) and "Pass
	// constants through math.Float{32,64}bits and
	// math.Float{32,64}frombits", with the float comparison rules.
	Foldable bool
	// Ops weighs what folding the call saves: 2 for an instruction
	// dearer than an integer instruction of one cycle, 0 for a bit cast
	// that only moves a register.
	Ops int
}

// Of returns what the table knows of fn: a function of the standard
// library by its package path and name, or a method of a type whose
// methods only read their receiver and arguments. Of anything else it
// returns a Func of Effect Unknown.
func Of(fn *types.Func) Func {
	if fn == nil || fn.Pkg() == nil {
		return Func{}
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		return funcs[fn.Pkg().Path()+"."+fn.Name()]
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil && readOnlyTypes[n.Obj().Pkg().Path()+"."+n.Obj().Name()] {
		return Func{Effect: ReadsOnly}
	}
	return Func{}
}

// Builtin returns what a builtin function does (by its name, or
// "ssa:wrapnilchk", the nil check go/ssa inserts before method calls).
func Builtin(name string) Func {
	return builtins[name]
}

// Reads reports whether fn only reads what its arguments refer to.
func Reads(fn *types.Func) bool { return Of(fn).Effect == ReadsOnly }

// Sorts reports whether fn sorts its first argument in place.
func Sorts(fn *types.Func) bool { return Of(fn).Sorts }
