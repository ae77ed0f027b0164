package gen

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// An analyzer computes the inputs, outputs, discards and rejection of
// one segment.
type analyzer struct {
	seg  *Segment
	info *types.Info
	pkg  *types.Package
	fset *token.FileSet

	// code is the segment's code: the statement, or the function body.
	code ast.Node
	// lo and hi delimit the segment's source.
	lo, hi token.Pos
	// outer is the outermost function around the segment: where its
	// variables can be used.
	outer ast.Node
	// gotoLabels are the labels of outer that goto statements target.
	gotoLabels map[*types.Label]bool

	// ssa builds the package's SSA form when the analysis of a call
	// needs it.
	ssa *ssaCache
	// globalWrite is the segment's first change of package-level
	// state, if any.
	globalWrite effect

	// exitDef holds the variables the segment definitely assigns on
	// every path to its end; targets are the statements around the
	// input walk's position that break and continue can leave, and
	// stmtLabels their labels.
	exitDef    varSet
	exitDefs   []varSet // at the breaks, continues and gotos leaving the segment
	targets    []*flowTarget
	stmtLabels map[ast.Stmt]*types.Label
}

// analyze fills the inputs, outputs, discards and rejection reason of s.
func analyze(s *Segment, cache *ssaCache) {
	a := &analyzer{
		ssa:  cache,
		seg:  s,
		info: s.Pkg.TypesInfo,
		pkg:  s.Pkg.Types,
		fset: s.Pkg.Fset,
	}
	if s.Whole {
		a.code = s.Func.(*ast.FuncDecl).Body
	} else {
		a.code = s.Stmt
	}
	a.lo, a.hi = a.code.Pos(), a.code.End()
	a.outer = outerFunc(s.File, s.Func)
	a.gotoLabels = map[*types.Label]bool{}
	ast.Inspect(a.outer, func(n ast.Node) bool {
		if b, ok := n.(*ast.BranchStmt); ok && b.Tok == token.GOTO {
			if l, ok := a.info.Uses[b.Label].(*types.Label); ok {
				a.gotoLabels[l] = true
			}
		}
		return true
	})

	a.exits()
	if s.Whole {
		a.wholeVars()
	} else {
		a.inputs()
		a.outputs()
		a.entryOutputs()
	}
	a.discards()
	a.mutated()
	a.globals()
	a.sinks()
	a.reject()
}

// mutated marks the inputs whose reachable state the segment may change
// and notes its first change of package-level state.
func (a *analyzer) mutated() {
	var roots []*types.Var
	for _, v := range a.seg.Inputs {
		if v.Obj != nil {
			roots = append(roots, v.Obj)
		}
	}
	for _, e := range a.effects(roots) {
		if isGlobal(e.v) {
			if !a.globalWrite.pos.IsValid() || e.pos < a.globalWrite.pos {
				a.globalWrite = e
			}
			continue
		}
		for i := range a.seg.Inputs {
			if a.seg.Inputs[i].Obj == e.v {
				a.seg.Inputs[i].Mutated = true
			}
		}
	}
}

// globals sets the package-level variables of the segment's package
// that it reads and that a function of the package assigns, other than
// an init function: state that may differ between the tests and the
// benchmark. Those whose values cannot be recorded are left out, and
// read where they are.
func (a *analyzer) globals() {
	assigned := a.ssa.assignedGlobals(a.seg.Pkg, a)
	seen := map[*types.Var]bool{}
	ast.Inspect(a.code, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		v, ok := a.info.Uses[id].(*types.Var)
		if !ok || !isGlobal(v) || v.Pkg() != a.pkg || seen[v] || !assigned[v] {
			return true
		}
		seen[v] = true
		if a.unnameable(v.Type()) == "" && a.unrecordableType(v.Type(), map[types.Type]bool{}, false) == "" {
			a.seg.Globals = append(a.seg.Globals, Var{Name: v.Name(), Type: v.Type(), Obj: v})
		}
		return true
	})
}

// outerFunc returns the outermost function of file around fn.
func outerFunc(file *ast.File, fn ast.Node) ast.Node {
	for _, d := range file.Decls {
		if d.Pos() <= fn.Pos() && fn.End() <= d.End() {
			if fd, ok := d.(*ast.FuncDecl); ok {
				return fd
			}
			// A function literal in a package-level declaration: find
			// the outermost literal.
			var out ast.Node = fn
			ast.Inspect(d, func(n ast.Node) bool {
				if lit, ok := n.(*ast.FuncLit); ok && lit.Pos() <= fn.Pos() && fn.End() <= lit.End() {
					out = lit
					return false
				}
				return true
			})
			return out
		}
	}
	return fn
}

// in reports whether pos is inside the segment.
func (a *analyzer) in(pos token.Pos) bool { return a.lo <= pos && pos < a.hi }

// localVar returns the local variable id denotes, or nil.
func (a *analyzer) localVar(id *ast.Ident) *types.Var {
	v, ok := a.info.Uses[id].(*types.Var)
	if !ok {
		v, ok = a.info.Defs[id].(*types.Var)
	}
	if !ok || !isLocal(v) {
		return nil
	}
	return v
}

// isLocal reports whether v is a local variable (a parameter, result or
// receiver included) rather than a field or a package-level variable.
func isLocal(v *types.Var) bool {
	return !v.IsField() && v.Pkg() != nil && v.Parent() != nil &&
		v.Parent() != v.Pkg().Scope() && v.Parent() != types.Universe
}

// wholeVars sets the inputs and outputs of a whole-function segment: the
// receiver and parameters, and the results.
func (a *analyzer) wholeVars() {
	fd := a.seg.Func.(*ast.FuncDecl)
	fn, ok := a.info.Defs[fd.Name].(*types.Func)
	if !ok {
		return // func _()
	}
	sig := fn.Signature()
	if r := sig.Recv(); r != nil {
		name := r.Name()
		if name == "" || name == "_" {
			name = "recv"
		}
		a.seg.Inputs = append(a.seg.Inputs, Var{Name: name, Type: r.Type(), Obj: r})
	}
	for i := range sig.Params().Len() {
		p := sig.Params().At(i)
		name := p.Name()
		if name == "" || name == "_" {
			name = fmt.Sprintf("p%d", i)
		}
		a.seg.Inputs = append(a.seg.Inputs, Var{Name: name, Type: p.Type(), Obj: p})
	}
	for i := range sig.Results().Len() {
		r := sig.Results().At(i)
		v := Var{Name: r.Name(), Type: r.Type(), Obj: r}
		if v.Name == "" || v.Name == "_" {
			v.Name, v.Obj = fmt.Sprintf("r%d", i), nil
		}
		a.seg.Outputs = append(a.seg.Outputs, v)
	}
}

// A varSet is a set of variables the segment has definitely assigned.
type varSet map[*types.Var]bool

func (s varSet) clone() varSet {
	c := make(varSet, len(s))
	for v := range s {
		c[v] = true
	}
	return c
}

// intersect returns the variables of both s and t.
func (s varSet) intersect(t varSet) varSet {
	c := varSet{}
	for v := range s {
		if t[v] {
			c[v] = true
		}
	}
	return c
}

// inputs sets the inputs of a statement segment: a forward walk of its
// code in execution order, keeping the variables definitely assigned so
// far; a read of a variable declared outside the segment that is not
// definitely assigned yet reads the value the segment starts with.
func (a *analyzer) inputs() {
	seen := map[*types.Var]bool{}
	a.stmtLabels = map[ast.Stmt]*types.Label{}
	a.exitDef = a.flowStmt(a.seg.Stmt, varSet{}, func(v *types.Var) {
		if !seen[v] {
			seen[v] = true
			a.seg.Inputs = append(a.seg.Inputs, Var{Name: v.Name(), Type: v.Type(), Obj: v})
		}
	})
	// The program goes on after a branch out of the segment too: an
	// output it reads there must be definitely assigned on that path as
	// well, or keep its value from before.
	for _, d := range a.exitDefs {
		a.exitDef = a.exitDef.intersect(d)
	}
}

// entryOutputs adds to the inputs, after those the segment reads, the
// outputs declared outside the segment that it does not definitely
// assign on every path to its end: on the other paths the value after
// the segment is the value before it (ascii := true before a loop that
// sets ascii = false on some element), so the benchmark must start from
// the recorded value, not the zero value.
func (a *analyzer) entryOutputs() {
	for _, v := range a.seg.Outputs {
		if v.Obj == nil || a.in(v.Obj.Pos()) || a.exitDef[v.Obj] || inputOf(a.seg, v) {
			continue
		}
		a.seg.Inputs = append(a.seg.Inputs, Var{Name: v.Name, Type: v.Type, Obj: v.Obj})
	}
}

// inputOf reports whether v is among the inputs of s.
func inputOf(s *Segment, v Var) bool {
	for _, w := range s.Inputs {
		if w.Obj == v.Obj {
			return true
		}
	}
	return false
}

// A flowTarget is a statement that break, and for a loop continue, can
// leave, with the variables definitely assigned at each such jump.
type flowTarget struct {
	label             *types.Label
	loop              bool
	breaks, continues []varSet
}

// pushTarget makes s the innermost statement break (and continue when
// loop) can leave.
func (a *analyzer) pushTarget(s ast.Stmt, loop bool) *flowTarget {
	t := &flowTarget{label: a.stmtLabels[s], loop: loop}
	a.targets = append(a.targets, t)
	return t
}

func (a *analyzer) popTarget() { a.targets = a.targets[:len(a.targets)-1] }

// branch notes the variables definitely assigned at a break or continue
// on the statement it leaves. Branches to statements outside the
// segment reject it (JumpsOut); a goto's label forgets everything.
func (a *analyzer) branch(s *ast.BranchStmt, def varSet) {
	var l *types.Label
	if s.Label != nil {
		l, _ = a.info.Uses[s.Label].(*types.Label)
	}
	for i := len(a.targets) - 1; i >= 0; i-- {
		t := a.targets[i]
		if l != nil && t.label != l || l == nil && s.Tok == token.CONTINUE && !t.loop {
			continue
		}
		switch s.Tok {
		case token.BREAK:
			t.breaks = append(t.breaks, def)
		case token.CONTINUE:
			t.continues = append(t.continues, def)
		}
		return
	}
	// No statement of the segment: the branch leaves it.
	if s.Tok != token.GOTO || l != nil && !a.in(l.Pos()) {
		a.exitDefs = append(a.exitDefs, def)
	}
}

// flowStmt walks s with the variables def definitely assigned before it,
// calling read for every read of a variable declared outside the
// segment and not in def; it returns the variables definitely assigned
// after s.
func (a *analyzer) flowStmt(s ast.Stmt, def varSet, read func(*types.Var)) varSet {
	expr := func(e ast.Expr) { a.flowExpr(e, def, read) }
	switch s := s.(type) {
	case nil:
	case *ast.BlockStmt:
		for _, st := range s.List {
			def = a.flowStmt(st, def, read)
		}
	case *ast.LabeledStmt:
		l, ok := a.info.Defs[s.Label].(*types.Label)
		if ok && a.gotoLabels[l] {
			def = varSet{} // reached from a goto: nothing is definite
		}
		if ok {
			a.stmtLabels[s.Stmt] = l
		}
		def = a.flowStmt(s.Stmt, def, read)
	case *ast.AssignStmt:
		// The operands on the left are evaluated first, then the right.
		for _, l := range s.Lhs {
			if _, ok := ast.Unparen(l).(*ast.Ident); !ok || s.Tok != token.ASSIGN && s.Tok != token.DEFINE {
				expr(l)
			}
		}
		for _, e := range s.Rhs {
			expr(e)
		}
		for _, l := range s.Lhs {
			if id, ok := ast.Unparen(l).(*ast.Ident); ok {
				if v := a.localVar(id); v != nil {
					def = def.clone()
					def[v] = true
				}
			}
		}
	case *ast.IncDecStmt:
		expr(s.X)
		if id, ok := ast.Unparen(s.X).(*ast.Ident); ok {
			if v := a.localVar(id); v != nil {
				def = def.clone()
				def[v] = true
			}
		}
	case *ast.DeclStmt:
		ast.Inspect(s, func(n ast.Node) bool {
			if vs, ok := n.(*ast.ValueSpec); ok {
				for _, e := range vs.Values {
					expr(e)
				}
				return false
			}
			return true
		})
	case *ast.ExprStmt:
		expr(s.X)
	case *ast.BranchStmt:
		a.branch(s, def)
	case *ast.SendStmt:
		expr(s.Chan)
		expr(s.Value)
	case *ast.GoStmt:
		expr(s.Call)
	case *ast.DeferStmt:
		expr(s.Call)
	case *ast.ReturnStmt:
		for _, e := range s.Results {
			expr(e)
		}
		if len(s.Results) == 0 {
			a.bareReturn(s, def, read)
		}
	case *ast.IfStmt:
		def = a.flowStmt(s.Init, def, read)
		a.flowExpr(s.Cond, def, read)
		then := a.flowStmt(s.Body, def, read)
		els := def
		if s.Else != nil {
			els = a.flowStmt(s.Else, def, read)
		}
		def = then.intersect(els)
	case *ast.ForStmt:
		def = a.flowStmt(s.Init, def, read)
		a.flowExpr(s.Cond, def, read)
		t := a.pushTarget(s, true)
		body := a.flowStmt(s.Body, def, read)
		a.popTarget()
		for _, c := range t.continues {
			body = body.intersect(c)
		}
		a.flowStmt(s.Post, body, read)
		// The loop ends when the condition fails, with def, or at a
		// break, with at least def.
	case *ast.RangeStmt:
		expr(s.X)
		body := def
		for _, e := range []ast.Expr{s.Key, s.Value} {
			if e == nil {
				continue
			}
			if id, ok := ast.Unparen(e).(*ast.Ident); ok {
				if v := a.localVar(id); v != nil {
					body = body.clone()
					body[v] = true
				}
			} else {
				a.flowExpr(e, def, read)
			}
		}
		a.pushTarget(s, true)
		a.flowStmt(s.Body, body, read)
		a.popTarget()
	case *ast.SwitchStmt:
		def = a.flowStmt(s.Init, def, read)
		a.flowExpr(s.Tag, def, read)
		t := a.pushTarget(s, false)
		out := a.flowClauses(s.Body, def, read)
		a.popTarget()
		def = t.join(out)
	case *ast.TypeSwitchStmt:
		def = a.flowStmt(s.Init, def, read)
		def = a.flowStmt(s.Assign, def, read)
		t := a.pushTarget(s, false)
		out := a.flowClauses(s.Body, def, read)
		a.popTarget()
		def = t.join(out)
	case *ast.SelectStmt:
		// One clause runs, to its end or to a break.
		t := a.pushTarget(s, false)
		var out varSet
		for _, c := range s.Body.List {
			c := c.(*ast.CommClause)
			d := a.flowStmt(c.Comm, def, read)
			for _, st := range c.Body {
				d = a.flowStmt(st, d, read)
			}
			if out == nil {
				out = d
			} else {
				out = out.intersect(d)
			}
		}
		a.popTarget()
		if out != nil {
			def = t.join(out)
		}
	}
	return def
}

// join returns the variables definitely assigned after the statement of
// t: those of out, where its last statements end, and of every break.
func (t *flowTarget) join(out varSet) varSet {
	for _, b := range t.breaks {
		out = out.intersect(b)
	}
	return out
}

// flowClauses walks the clauses of a switch and returns the variables
// definitely assigned after it.
func (a *analyzer) flowClauses(body *ast.BlockStmt, def varSet, read func(*types.Var)) varSet {
	var out varSet
	hasDefault := false
	for _, c := range body.List {
		c := c.(*ast.CaseClause)
		if c.List == nil {
			hasDefault = true
		}
		for _, e := range c.List {
			a.flowExpr(e, def, read)
		}
		d := def
		for _, st := range c.Body {
			d = a.flowStmt(st, d, read)
		}
		if out == nil {
			out = d
		} else {
			out = out.intersect(d)
		}
	}
	if !hasDefault || out == nil {
		return def
	}
	return out
}

// bareReturn reads the named results a return without values returns.
func (a *analyzer) bareReturn(s *ast.ReturnStmt, def varSet, read func(*types.Var)) {
	var ft *ast.FuncType
	ast.Inspect(a.outer, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Body != nil && n.Body.Pos() <= s.Pos() && s.End() <= n.Body.End() {
				ft = n.Type
			}
		case *ast.FuncLit:
			if n.Pos() <= s.Pos() && s.End() <= n.End() {
				ft = n.Type
			}
		}
		return true
	})
	if ft == nil || ft.Results == nil {
		return
	}
	for _, f := range ft.Results.List {
		for _, id := range f.Names {
			if v := a.localVar(id); v != nil && !a.in(v.Pos()) && !def[v] {
				read(v)
			}
		}
	}
}

// flowExpr calls read for the variables e reads; a function literal's
// body may run at any time after it, and assigns nothing definitely.
func (a *analyzer) flowExpr(e ast.Expr, def varSet, read func(*types.Var)) {
	if e == nil {
		return
	}
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			// Its breaks and continues stay inside it.
			outer := a.targets
			a.targets = nil
			a.flowStmt(n.Body, def, read)
			a.targets = outer
			return false
		case *ast.SelectorExpr:
			// In pkg.Name and x.f, only pkg and x can be variables.
			a.flowExpr(n.X, def, read)
			return false
		case *ast.KeyValueExpr:
			// A field name in a composite literal is not a read.
			if _, ok := n.Key.(*ast.Ident); !ok || !a.isFieldKey(n.Key.(*ast.Ident)) {
				a.flowExpr(n.Key, def, read)
			}
			a.flowExpr(n.Value, def, read)
			return false
		case *ast.Ident:
			if v := a.localVar(n); v != nil && !a.in(v.Pos()) && !def[v] {
				read(v)
			}
		}
		return true
	})
}

// isFieldKey reports whether id is a field name in a struct literal.
func (a *analyzer) isFieldKey(id *ast.Ident) bool {
	v, ok := a.info.Uses[id].(*types.Var)
	return ok && v.IsField()
}

// rootVar returns the variable whose own storage an assignment to e
// writes (x in x, x.f of a struct value, x[i] of an array value), and
// whether e is such a place; the root of a store through a pointer,
// slice or map is returned with direct false.
func (a *analyzer) rootVar(e ast.Expr) (v *types.Var, direct bool) {
	direct = true
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			v, _ := a.info.Uses[x].(*types.Var)
			if v == nil {
				v, _ = a.info.Defs[x].(*types.Var)
			}
			return v, direct
		case *ast.SelectorExpr:
			sel := a.info.Selections[x]
			if sel == nil {
				// A qualified identifier: pkg.Var.
				v, _ := a.info.Uses[x.Sel].(*types.Var)
				return v, direct
			}
			if sel.Indirect() || isPointer(a.info.TypeOf(x.X)) {
				direct = false
			}
			e = x.X
		case *ast.IndexExpr:
			if _, ok := under(a.info.TypeOf(x.X)).(*types.Array); !ok {
				direct = false
			}
			e = x.X
		case *ast.IndexListExpr:
			return nil, false
		case *ast.SliceExpr:
			if _, ok := under(a.info.TypeOf(x.X)).(*types.Array); !ok {
				direct = false
			}
			e = x.X
		case *ast.StarExpr:
			direct = false
			e = x.X
		case *ast.CompositeLit:
			return nil, false
		default:
			return nil, false
		}
	}
}

func under(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	return t.Underlying()
}

func isPointer(t types.Type) bool {
	_, ok := under(t).(*types.Pointer)
	return ok
}

// An assignment is a place where the segment changes a variable.
type assignment struct {
	v      *types.Var
	pos    token.Pos
	direct bool // the variable's own storage, not state it refers to
	addr   bool // its address is taken (&x, a pointer method's receiver)
}

// assignments returns the places in n where variables are changed: the
// left-hand sides of assignments, increments and range clauses, the
// operands of &, and the receivers of methods with pointer receivers.
func (a *analyzer) assignments(n ast.Node) []assignment {
	var out []assignment
	add := func(e ast.Expr, pos token.Pos, addr bool) {
		if v, direct := a.rootVar(e); v != nil {
			out = append(out, assignment{v, pos, direct, addr})
		}
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				add(l, l.Pos(), false)
			}
		case *ast.IncDecStmt:
			add(n.X, n.X.Pos(), false)
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN {
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if e != nil {
						add(e, e.Pos(), false)
					}
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				add(n.X, n.Pos(), true)
			}
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
				if s := a.info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
					if isPointer(s.Obj().(*types.Func).Signature().Recv().Type()) && !isPointer(a.info.TypeOf(sel.X)) {
						add(sel.X, sel.Pos(), true)
					}
				}
			}
		}
		return true
	})
	return out
}

// outputs sets the outputs of a statement segment.
func (a *analyzer) outputs() {
	// Variables declared at the segment's top level.
	top := map[*types.Var]bool{}
	decl := func(s ast.Stmt) {
		for {
			l, ok := s.(*ast.LabeledStmt)
			if !ok {
				break
			}
			s = l.Stmt
		}
		var ids []*ast.Ident
		switch s := s.(type) {
		case *ast.AssignStmt:
			if s.Tok == token.DEFINE {
				for _, l := range s.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						ids = append(ids, id)
					}
				}
			}
		case *ast.DeclStmt:
			if g, ok := s.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
				for _, sp := range g.Specs {
					ids = append(ids, sp.(*ast.ValueSpec).Names...)
				}
			}
		}
		for _, id := range ids {
			if v, ok := a.info.Defs[id].(*types.Var); ok {
				top[v] = true
			}
		}
	}
	decl(a.seg.Stmt)
	if b, ok := a.seg.Stmt.(*ast.BlockStmt); ok {
		for _, s := range b.List {
			decl(s)
		}
	}

	// Candidates, in order of first assignment.
	var cands []*types.Var
	first := map[*types.Var]token.Pos{}
	for _, as := range a.assignments(a.seg.Stmt) {
		v := as.v
		if !as.direct || !isLocal(v) || a.in(v.Pos()) && !top[v] {
			continue
		}
		if _, ok := first[v]; !ok {
			first[v] = as.pos
			cands = append(cands, v)
		}
	}
	for v := range top {
		if _, ok := first[v]; !ok {
			first[v] = v.Pos()
			cands = append(cands, v)
		}
	}
	slices.SortStableFunc(cands, func(x, y *types.Var) int { return cmp.Compare(first[x], first[y]) })

	inside, outside := a.reads()
	for _, v := range cands {
		if outside[v] || !inside[v] && !outside[v] || a.isNamedResult(v) {
			a.seg.Outputs = append(a.seg.Outputs, Var{Name: v.Name(), Type: v.Type(), Obj: v})
		}
	}
}

// reads returns the variables read inside and outside the segment, in
// the outermost function around it. Writing a variable is not reading
// it, and neither is x op= y or x++ (the value only updates x).
func (a *analyzer) reads() (inside, outside map[*types.Var]bool) {
	writeOnly := map[*ast.Ident]bool{}
	ast.Inspect(a.outer, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok {
					writeOnly[id] = true
				}
			}
		case *ast.IncDecStmt:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
				writeOnly[id] = true
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := ast.Unparen(e).(*ast.Ident); ok {
					writeOnly[id] = true
				}
			}
		}
		return true
	})
	inside, outside = map[*types.Var]bool{}, map[*types.Var]bool{}
	ast.Inspect(a.outer, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || writeOnly[id] {
			return true
		}
		if v, ok := a.info.Uses[id].(*types.Var); ok {
			if a.in(id.Pos()) {
				inside[v] = true
			} else {
				outside[v] = true
			}
		}
		return true
	})
	return inside, outside
}

// isNamedResult reports whether v is a named result of a function
// around the segment, which the function's caller reads.
func (a *analyzer) isNamedResult(v *types.Var) bool {
	found := false
	ast.Inspect(a.outer, func(n ast.Node) bool {
		if ft, ok := n.(*ast.FuncType); ok && ft.Results != nil {
			for _, f := range ft.Results.List {
				for _, id := range f.Names {
					found = found || a.info.Defs[id] == v
				}
			}
		}
		return !found
	})
	return found
}

// isBlankIdent reports whether e is the blank identifier.
func isBlankIdent(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}

// discards sets the values the segment computes and drops: the
// expressions of expression statements that are calls with results,
// right-hand sides assigned to _, and calls some of whose results are
// assigned to _ (x, _ = f()).
func (a *analyzer) discards() {
	ast.Inspect(a.code, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ExprStmt:
			if call, ok := ast.Unparen(n.X).(*ast.CallExpr); ok {
				if t := a.info.TypeOf(call); t != nil {
					if tup, ok := t.(*types.Tuple); !ok || tup.Len() > 0 {
						a.seg.Discards = append(a.seg.Discards, n.X)
					}
				}
			}
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					if isBlankIdent(l) {
						a.seg.Discards = append(a.seg.Discards, n.Rhs[i])
					}
				}
			} else if slices.ContainsFunc(n.Lhs, isBlankIdent) {
				// x, _ = f(): the call's dropped results.
				a.seg.Discards = append(a.seg.Discards, n.Rhs[0])
			}
		}
		return true
	})
}
