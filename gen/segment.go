package gen

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/packages"
)

// A Segment is a marked piece of code: one statement (a block or a loop
// included), or the whole body of a function.
type Segment struct {
	// Name is the NAME of the marker; the benchmark is BenchmarkNAME and
	// its regression test TestMbenchNAME.
	Name string

	// Pos is the position of the marker.
	Pos token.Position

	// Pkg is the package holding the segment, loaded with syntax and
	// types.
	Pkg *packages.Package

	// File is the file holding the segment.
	File *ast.File

	// Func is the function around the segment: an *ast.FuncDecl, or an
	// *ast.FuncLit when the segment is inside a function literal.
	Func ast.Node

	// Whole reports whether the marker is in Func's doc comment: the
	// segment is the whole function, its inputs are the receiver and the
	// parameters, its outputs the results.
	Whole bool

	// Stmt is the marked statement; nil when Whole.
	Stmt ast.Stmt

	// Inputs are the variables the segment reads and does not define
	// before reading them, in order of first use. Package-level variables
	// and constants are not inputs: the generated code reads them where
	// they are.
	Inputs []Var

	// Outputs are the variables the segment defines or changes whose
	// values are used after it, or are never used at all (a result nobody
	// reads), in order of definition; for a Whole segment, the results.
	Outputs []Var

	// Globals are the package-level variables of the segment's package
	// that it reads and that the package's functions assign: the state
	// the tests may have set. They are recorded with the inputs and
	// restored before each call, so that the benchmark runs on the state
	// the tests saw. Other package-level variables are read where they
	// are.
	Globals []Var

	// Exits are the statements that leave a statement segment before its
	// end, in source order: returns, and breaks, continues and gotos to
	// statements outside it. The payload reports how it left, as the
	// program did: exit 0 at its end, exit k after Exits[k-1].
	Exits []Exit

	// Returns are the values a return among the Exits hands back, named
	// "return 0", "return 1", ...: the results of the function around
	// the segment. Empty when no exit returns.
	Returns []Var

	// Discards are expressions whose values the segment computes and
	// drops (a call statement whose results are ignored, an assignment to
	// the blank identifier); the generated code consumes them.
	Discards []ast.Expr

	// Reason says why no benchmark is generated; Accepted ("") when one
	// is. Detail names the construct at fault, with its position.
	Reason Reason
	Detail string

	// ResetStopped, for a segment whose benchmark resets state before
	// each call, says the reset runs with the timer stopped; otherwise
	// it runs in the timed loop and its cost is reported as
	// reset-ns/op. Generate decides it once, by timing a reset against a
	// call, and keeps the decision of the generated file it replaces.
	ResetStopped bool

	// Sets is how many distinct input sets were recorded.
	Sets int

	// Skipped is how many executions Record skipped because a value in
	// them cannot be recorded or rebuilt (a func, an interface holding a
	// type the generated code cannot name).
	Skipped int

	// registry are the named types the recorded inputs hold in
	// interfaces, sorted: the generated code registers them with the
	// codec, which rebuilds them.
	registry []string

	// testTypes is the package compiled with its _test.go files, whose
	// types and imports the generated file may use too; nil without
	// tests.
	testTypes *types.Package
}

// An Exit is a statement that leaves the segment before its end.
type Exit struct {
	// Stmt is a *ast.ReturnStmt or a *ast.BranchStmt.
	Stmt ast.Stmt

	// Desc names it: "return at file.go:12:3", "break outer at ...".
	Desc string
}

// Returns reports whether the exit returns from the function around the
// segment; then the program's outputs are gone, and the values it
// returns take their place in the recorded sets.
func (x Exit) Returns() bool {
	_, ok := x.Stmt.(*ast.ReturnStmt)
	return ok
}

// A Var is an input or output of a segment.
type Var struct {
	// Name is the variable's name in the segment; for an unnamed result
	// of a Whole segment, "r0", "r1", ...
	Name string

	// Type is the variable's type.
	Type types.Type

	// Obj is the variable; nil for an unnamed result.
	Obj *types.Var

	// Mutated reports, for an input, that the segment changes state
	// reachable from it (elements of a slice, entries of a map, fields
	// through a pointer), so the benchmark restores that state before
	// each invocation and the regression test checks it afterwards.
	Mutated bool

	// Sink reports, for an output, that the benchmark consumes it: the
	// smallest set of outputs whose computation keeps every computation
	// of the segment alive.
	Sink bool
}

// A Reason says why a segment gets no benchmark. Paper-style counts per
// reason come from Result.
type Reason string

const (
	Accepted Reason = ""

	// JumpsOut: an exit the payload cannot report as the program took
	// it: a variable the program reads after the exit is not in scope at
	// it (declared later in the segment, or shadowed there), so its
	// value there cannot be recorded.
	JumpsOut Reason = "jumps out of the segment"

	// RecoveredPanic: the segment may panic and the function around it
	// recovers, so the panic is part of its control flow.
	RecoveredPanic Reason = "panics to a recovering caller"

	// Unrecordable: an input whose value cannot be recorded and restored:
	// a channel, a function, an unsafe pointer, an OS handle (files,
	// connections), or a value of a type the generated code cannot
	// name; or, at recording time, a segment every execution of which
	// held such a value (an interface holding errors.New's error).
	Unrecordable Reason = "reads a value that cannot be recorded"

	// TypeParam: an input whose type depends on a type parameter.
	TypeParam Reason = "depends on a type parameter"

	// WritesGlobal: the segment assigns a package-level variable or
	// changes state reachable from one.
	WritesGlobal Reason = "changes package-level state"

	// Concurrent: the segment starts a goroutine, defers a call, or
	// selects on channels.
	Concurrent Reason = "starts goroutines or defers"

	// NotReached: the package's tests never execute the segment.
	NotReached Reason = "not reached by tests"

	// NoCompile: the generated benchmark does not compile or fails go vet.
	NoCompile Reason = "generated code does not compile"

	// TestFails: the generated regression test fails.
	TestFails Reason = "regression test fails"
)
