package gen

import (
	_ "embed"
	"go/types"
	"path"
	"strconv"
	"strings"
	"text/template"
)

// segmentTemplate spells the generated declarations of one segment: its
// payload, the package-level variables of its inputs, setup and reset,
// BenchmarkNAME and TestMbenchNAME. segmentCode holds what the template
// needs, every decision taken, so that the template only writes it out;
// the file is gofmt'ed afterwards, so the template's layout is free.
//
//go:embed emit_segment.tmpl
var segmentTemplateText string

var segmentTemplate = template.Must(template.New("segment").Funcs(template.FuncMap{"join": strings.Join}).Parse(segmentTemplateText))

// segmentCode is one segment's generated code, decided: the names of its
// declarations, the payload's signature and body, and what the
// benchmark and the regression test do.
type segmentCode struct {
	Name                               string
	Payload, Setup, Reset, Bench, Test string

	// Where is the marker's file and line; Whole and Kind say whether
	// the payload calls the whole function or holds a copied statement.
	Where string
	Whole bool
	Kind  string

	// Params and Results are the payload's parameter and result lists;
	// HasResults reports whether there are results.
	Params, Results string
	HasResults      bool
	// KeepsDiscards reports whether the payload returns values the
	// segment drops.
	KeepsDiscards bool
	// Code is the payload's body: the copied statement, or the call of
	// the whole function.
	Code string
	// Locals are the payload's local variables ("name type") declared
	// before the copied statement, and Returns its return list.
	Locals  []string
	Returns string
	// Leave says the copied statement has exits, which jump to the
	// label mbenchLeave before the payload's return.
	Leave bool

	// Vars are the package-level variables ("name type"): inputs, saved
	// copies and sinks; HasReset and HasSinks steer their comment.
	Vars     []string
	HasReset bool
	HasSinks bool
	// ResetStopped says the reset runs with the timer stopped.
	ResetStopped bool

	// Inputs are decoded by the setup and restored by the reset, and so
	// are Globals, the package-level variables the segment reads.
	Inputs  []inputCode
	Globals []globalCode

	// Call is the payload's call on the inputs; SinkCall stores its
	// consumed results to the sinks. BLoop says the benchmark loops
	// with b.Loop, not to b.N.
	Call, SinkCall string
	BLoop          bool

	// Gots are the regression test's names for the payload's results
	// ("got0, got1"); Checks compare the outputs, Dropped are the
	// results with nothing recorded to compare, and MutatedChecks
	// compare the state of the mutated inputs.
	Gots          string
	Checks        []checkCode
	Dropped       []string
	MutatedChecks []checkCode

	// For a segment with exits, Exit is the result that says how the
	// payload left, ExitNames the variable naming the exits and Exits
	// their names (quoted), from exit 0, the segment's end; ExitChecks
	// are the checks after each kind of exit.
	Exit       string
	ExitNames  string
	Exits      []string
	ExitChecks []exitChecks
}

// exitChecks are the checks after the exits with codes Codes ("0, 2").
type exitChecks struct {
	Codes  string
	Checks []checkCode
}

// An inputCode is one input: its name, its type as recorded, the
// package-level variable it is decoded into and, when the segment
// mutates it, the saved copy the reset restores it from, by copy when
// Copy (a slice of plain values) or by a deep clone.
type inputCode struct {
	Name, Recorded, In, Save string
	Mutated, Copy            bool
}

// A globalCode is a package-level variable the segment reads: its name,
// its name and type as recorded, and the variable its recorded value is
// decoded into, which the reset assigns it.
type globalCode struct {
	Name, Recorded, Type, Saved string
}

// A checkCode compares a value the payload computed (Got) with the
// recorded output Name of type Type (Recorded, as the recorded file
// spells it).
// Same compares their encodings instead (the value holds interfaces,
// whose dynamic types the test may not be able to rebuild), passing Got
// as a Ref when Ref (its type is an interface).
type checkCode struct {
	Name, Type, Recorded, Got string
	Same, Ref                 bool
}

// holdsInterface reports whether a value of type t is or holds an
// interface, through pointers, elements and fields.
func holdsInterface(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch u := t.Underlying().(type) {
	case *types.Interface:
		return true
	case *types.Pointer:
		return holdsInterface(u.Elem(), seen)
	case *types.Slice:
		return holdsInterface(u.Elem(), seen)
	case *types.Array:
		return holdsInterface(u.Elem(), seen)
	case *types.Map:
		return holdsInterface(u.Key(), seen) || holdsInterface(u.Elem(), seen)
	case *types.Struct:
		for i := range u.NumFields() {
			if holdsInterface(u.Field(i).Type(), seen) {
				return true
			}
		}
	}
	return false
}

// segment returns the generated declarations of s.
func (e *emitter) segment(s *Segment) (string, error) {
	c, err := e.segmentCode(s)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := segmentTemplate.Execute(&b, c); err != nil {
		return "", err
	}
	return b.String(), nil
}

// segmentCode decides the generated code of s, and notes which segment
// owns each top-level name it declares.
func (e *emitter) segmentCode(s *Segment) (*segmentCode, error) {
	id := func(prefix string) string {
		n := prefix + s.Name
		e.owner[n] = s
		return n
	}
	c := &segmentCode{
		Name:    s.Name,
		Payload: id("mbenchPayload"),
		Setup:   id("mbenchSetup"),
		Reset:   id("mbenchReset"),
		Bench:   id("Benchmark"),
		Test:    id("TestMbench"),
		Where:   path.Base(s.Pos.Filename) + ":" + strconv.Itoa(s.Pos.Line),
		Whole:   s.Whole,
		Kind:    wholeOrStmt(s),
		BLoop:   e.bLoop,
	}
	in := func(v Var) string { return "mbenchIn" + s.Name + "_" + v.Name }
	save := func(v Var) string { return "mbenchSave" + s.Name + "_" + v.Name }
	sink := func(i int) string { return "mbenchSink" + s.Name + "_" + strconv.Itoa(i) }

	// The payload.
	params := make([]string, len(s.Inputs))
	for i, v := range s.Inputs {
		params[i] = paramName(v, i) + " " + e.typeString(v.Type, s.File)
	}
	c.Params = strings.Join(params, ", ")
	var results []string // types of the payload's results
	var consumed []bool  // whether the benchmark must consume it
	var names []string   // the payload's names for its results
	if len(s.Exits) > 0 {
		// How the segment left comes first.
		results, consumed, names = append(results, "int"), append(consumed, true), append(names, "mbenchExit")
	}
	anySink := false
	for _, v := range s.Outputs {
		anySink = anySink || v.Sink
	}
	for _, v := range s.Outputs {
		results = append(results, e.typeString(v.Type, s.File))
		consumed = append(consumed, v.Sink || !anySink)
		names = append(names, v.Name)
	}
	for i, v := range s.Returns {
		results = append(results, e.typeString(v.Type, s.File))
		consumed = append(consumed, true)
		names = append(names, "mbenchReturn"+strconv.Itoa(i))
	}
	var discards []discard
	if s.Whole {
		code, err := e.wholeCall(s)
		if err != nil {
			return nil, err
		}
		c.Code = code
	} else {
		code, d, err := e.statement(s)
		if err != nil {
			return nil, err
		}
		c.Code, discards = code, d
	}
	for _, d := range discards {
		results = append(results, e.typeString(d.typ, s.File))
		consumed = append(consumed, true)
		names = append(names, d.name)
	}
	c.KeepsDiscards = len(discards) > 0
	c.Results = resultList(results)
	c.HasResults = len(results) > 0
	if !s.Whole {
		if len(s.Exits) > 0 {
			c.Locals = append(c.Locals, "mbenchExit int")
			c.Leave = true
		}
		for i, v := range s.Returns {
			c.Locals = append(c.Locals, "mbenchReturn"+strconv.Itoa(i)+" "+e.typeString(v.Type, s.File))
		}
		for _, v := range s.Outputs {
			if !isInput(s, v) && !definedIn(s, v) {
				c.Locals = append(c.Locals, v.Name+" "+e.typeString(v.Type, s.File))
			}
		}
		for _, d := range discards {
			c.Locals = append(c.Locals, d.name+" "+e.typeString(d.typ, s.File))
		}
		c.Returns = strings.Join(names, ", ")
	}

	// Inputs, saved copies and sinks at package level.
	args := make([]string, len(s.Inputs))
	for i, v := range s.Inputs {
		args[i] = in(v)
	}
	c.Call = c.Payload + "(" + strings.Join(args, ", ") + ")"
	c.HasReset = hasReset(s)
	c.ResetStopped = s.ResetStopped
	decl := func(name, typ string) {
		e.owner[name] = s // locate finds a var group by its first name
		c.Vars = append(c.Vars, name+" "+typ)
	}
	for _, v := range s.Inputs {
		decl(in(v), e.typeString(v.Type, s.File))
	}
	for _, v := range s.Inputs {
		if v.Mutated {
			decl(save(v), e.typeString(v.Type, s.File))
		}
	}
	for _, v := range s.Globals {
		g := globalCode{Name: v.Name, Recorded: s.Pkg.Types.Name() + "." + v.Name, Type: e.recordedType(v.Type), Saved: "mbenchGlobal" + s.Name + "_" + v.Name}
		decl(g.Saved, e.typeString(v.Type, s.File))
		c.Globals = append(c.Globals, g)
	}
	// The sinks: needed in a b.N loop, and to time a payload call
	// against a reset.
	var sinks []string
	for i := range results {
		if consumed[i] && (!e.bLoop || c.HasReset) {
			decl(sink(i), results[i])
			sinks = append(sinks, sink(i))
		} else {
			sinks = append(sinks, "_")
		}
	}
	c.HasSinks = sinks != nil && !allBlank(sinks)
	c.SinkCall = c.Call
	if len(results) > 0 {
		c.SinkCall = strings.Join(sinks, ", ") + " = " + c.Call
	}
	e.sinkCalls[s] = c.SinkCall
	for _, v := range s.Inputs {
		ic := inputCode{Name: v.Name, Recorded: e.recordedType(v.Type), In: in(v), Save: save(v), Mutated: v.Mutated}
		if sl, ok := v.Type.Underlying().(*types.Slice); ok && plain(sl.Elem()) {
			ic.Copy = true
		}
		c.Inputs = append(c.Inputs, ic)
	}

	// The regression test.
	gots := make([]string, len(results))
	for i := range results {
		gots[i] = "got" + strconv.Itoa(i)
	}
	c.Gots = strings.Join(gots, ", ")
	check := func(v Var, got string) checkCode {
		return checkCode{Name: v.Name, Type: e.typeString(v.Type, s.File), Recorded: e.recordedType(v.Type), Got: got,
			Same: holdsInterface(v.Type, map[types.Type]bool{}), Ref: types.IsInterface(v.Type)}
	}
	first := 0 // the first result that is an output
	if len(s.Exits) > 0 {
		c.Exit = gots[0]
		first = 1
	}
	for i, v := range s.Outputs {
		c.Checks = append(c.Checks, check(v, gots[first+i]))
	}
	var returns []checkCode
	for i, v := range s.Returns {
		returns = append(returns, check(v, gots[first+len(s.Outputs)+i]))
	}
	c.Dropped = gots[first+len(s.Outputs)+len(s.Returns):]
	for _, v := range s.Inputs {
		if v.Mutated && !isOutput(s, v.Name) {
			c.MutatedChecks = append(c.MutatedChecks, check(v, in(v)))
		}
	}
	if len(s.Exits) > 0 {
		// The outputs are compared after the segment's end and after a
		// branch out of it; after a return, the values returned.
		c.Exits = append(c.Exits, strconv.Quote("its end"))
		ends, rets := []string{"0"}, []string(nil)
		for k, x := range s.Exits {
			c.Exits = append(c.Exits, strconv.Quote(x.Desc))
			if x.Returns() {
				rets = append(rets, strconv.Itoa(k+1))
			} else {
				ends = append(ends, strconv.Itoa(k+1))
			}
		}
		if len(c.Checks) > 0 {
			c.ExitChecks = append(c.ExitChecks, exitChecks{strings.Join(ends, ", "), c.Checks})
		}
		if len(rets) > 0 && len(returns) > 0 {
			c.ExitChecks = append(c.ExitChecks, exitChecks{strings.Join(rets, ", "), returns})
		}
		c.ExitNames = id("mbenchExits")
	}
	return c, nil
}

func allBlank(names []string) bool {
	for _, n := range names {
		if n != "_" {
			return false
		}
	}
	return true
}

func wholeOrStmt(s *Segment) string {
	if s.Whole {
		return "a call of the whole function"
	}
	return "copied from the program"
}

func resultList(ts []string) string {
	switch len(ts) {
	case 0:
		return ""
	case 1:
		return ts[0]
	}
	return "(" + strings.Join(ts, ", ") + ")"
}

// paramName is the payload's parameter for input v: the variable's own
// name, which the copied code refers to.
func paramName(v Var, i int) string {
	if v.Name == "" || v.Name == "_" {
		return "mbenchArg" + strconv.Itoa(i)
	}
	return v.Name
}

func isInput(s *Segment, v Var) bool {
	for _, w := range s.Inputs {
		if w.Name == v.Name {
			return true
		}
	}
	return false
}

func isOutput(s *Segment, name string) bool {
	for _, w := range s.Outputs {
		if w.Name == name {
			return true
		}
	}
	return false
}

// definedIn reports whether the segment's statement declares v (x := ...
// or var x = ...), so the copied code declares it too.
func definedIn(s *Segment, v Var) bool {
	return v.Obj != nil && s.Stmt != nil && s.Stmt.Pos() <= v.Obj.Pos() && v.Obj.Pos() < s.Stmt.End()
}

// plain reports whether values of t hold no references: copying one
// copies all its state.
func plain(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() != types.UnsafePointer
	case *types.Array:
		return plain(u.Elem())
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if !plain(u.Field(i).Type()) {
				return false
			}
		}
		return true
	}
	return false
}
