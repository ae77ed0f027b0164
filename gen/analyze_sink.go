package gen

import (
	"go/ast"
	"go/token"
	"go/types"
)

// This file chooses the sinks among a segment's outputs (sink
// maximisation, after Rodriguez-Cancio, Combemale & Baudry, ASE 2016,
// §3.3): the outputs the benchmark consumes so that the compiler can
// delete none of the segment's computations.
//
// Every place that assigns a variable directly (x = , x op= , x++,
// x.f = for a struct value, a declaration) is a site. A forward walk in
// execution order gives, at the end of the segment, for each variable
// the sites its value may depend on (through the values it was computed
// from and the conditions that steer the assignments; branches merge,
// loops iterate to a fixed point) and the sites whose value it may hold.
// An output whose final sites all feed the final value of another sink
// is no sink: consuming that one keeps them alive. Outputs are dropped
// greedily in order of definition, so the later, derived outputs (an
// average computed from a sum and a count) remain.

// A siteSet is a set of sites, each named by its position.
type siteSet map[token.Pos]bool

func (s siteSet) union(t siteSet) siteSet {
	u := make(siteSet, len(s)+len(t))
	for p := range s {
		u[p] = true
	}
	for p := range t {
		u[p] = true
	}
	return u
}

// A depState is, for each variable, the sites its value depends on
// (deps) and the sites that assigned its value (last).
type depState struct {
	deps, last map[*types.Var]siteSet
}

func (s depState) clone() depState {
	c := depState{deps: map[*types.Var]siteSet{}, last: map[*types.Var]siteSet{}}
	for v, d := range s.deps {
		c.deps[v] = d
	}
	for v, d := range s.last {
		c.last[v] = d
	}
	return c
}

// merge returns the state after either s or t.
func (s depState) merge(t depState) depState {
	c := s.clone()
	for v, d := range t.deps {
		c.deps[v] = c.deps[v].union(d)
	}
	for v, d := range t.last {
		c.last[v] = c.last[v].union(d)
	}
	return c
}

// size counts the pairs in s: merges only grow it, so an unchanged size
// is a fixed point.
func (s depState) size() int {
	n := 0
	for _, d := range s.deps {
		n += len(d)
	}
	for _, d := range s.last {
		n += len(d)
	}
	return n
}

// sinks marks the sinks among the outputs. All results of a whole
// function are sinks: the call returns them together.
func (a *analyzer) sinks() {
	if a.seg.Whole {
		for i := range a.seg.Outputs {
			a.seg.Outputs[i].Sink = true
		}
		return
	}
	st := a.depStmt(a.seg.Stmt, depState{deps: map[*types.Var]siteSet{}, last: map[*types.Var]siteSet{}}, nil)
	outs := a.seg.Outputs
	sink := make([]bool, len(outs))
	for i := range sink {
		sink[i] = true
	}
	for i, o := range outs {
		last := st.last[o.Obj]
		if len(last) == 0 {
			continue
		}
		for j, p := range outs {
			if j == i || !sink[j] {
				continue
			}
			if covers(st.deps[p.Obj], last) {
				sink[i] = false
				break
			}
		}
	}
	for i := range outs {
		outs[i].Sink = sink[i]
	}
}

// covers reports whether deps holds every site of last.
func covers(deps, last siteSet) bool {
	for p := range last {
		if !deps[p] {
			return false
		}
	}
	return true
}

// depReads returns the sites the values of the variables e reads depend
// on.
func (a *analyzer) depReads(e ast.Node, st depState) siteSet {
	out := siteSet{}
	if e == nil {
		return out
	}
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v := a.localVar(id); v != nil {
				for p := range st.deps[v] {
					out[p] = true
				}
			}
		}
		return true
	})
	return out
}

// assign records that the site at pos assigns v a value depending on
// deps.
func (a *analyzer) assign(st depState, v *types.Var, pos token.Pos, deps siteSet) depState {
	st = st.clone()
	site := siteSet{pos: true}
	st.deps[v] = deps.union(site)
	st.last[v] = site
	return st
}

// depStmt walks s in execution order with the sites ctrl the execution
// of s depends on.
func (a *analyzer) depStmt(s ast.Stmt, st depState, ctrl siteSet) depState {
	switch s := s.(type) {
	case *ast.BlockStmt:
		for _, x := range s.List {
			st = a.depStmt(x, st, ctrl)
		}
	case *ast.LabeledStmt:
		st = a.depStmt(s.Stmt, st, ctrl)
	case *ast.AssignStmt:
		rhs := make([]siteSet, len(s.Lhs))
		for i := range s.Lhs {
			if len(s.Rhs) == len(s.Lhs) {
				rhs[i] = a.depReads(s.Rhs[i], st)
			} else {
				rhs[i] = a.depReads(s.Rhs[0], st)
			}
		}
		next := st
		for i, l := range s.Lhs {
			v, direct := a.rootVar(l)
			if v == nil || !direct || !isLocal(v) {
				continue
			}
			deps := rhs[i].union(ctrl)
			if _, bare := ast.Unparen(l).(*ast.Ident); !bare {
				deps = deps.union(a.depReads(l, st)) // x.f = : the rest of x
			} else if s.Tok != token.ASSIGN && s.Tok != token.DEFINE {
				deps = deps.union(st.deps[v]) // x op= y
			}
			next = a.assign(next, v, l.Pos(), deps)
		}
		st = next
	case *ast.IncDecStmt:
		if v, direct := a.rootVar(s.X); v != nil && direct && isLocal(v) {
			st = a.assign(st, v, s.X.Pos(), a.depReads(s.X, st).union(ctrl))
		}
	case *ast.DeclStmt:
		ast.Inspect(s, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok {
				return true
			}
			for i, id := range vs.Names {
				v, _ := a.info.Defs[id].(*types.Var)
				if v == nil {
					continue
				}
				deps := ctrl
				switch {
				case len(vs.Values) == len(vs.Names):
					deps = deps.union(a.depReads(vs.Values[i], st))
				case len(vs.Values) == 1:
					deps = deps.union(a.depReads(vs.Values[0], st))
				}
				st = a.assign(st, v, id.Pos(), deps)
			}
			return false
		})
	case *ast.IfStmt:
		if s.Init != nil {
			st = a.depStmt(s.Init, st, ctrl)
		}
		c := ctrl.union(a.depReads(s.Cond, st))
		then := a.depStmt(s.Body, st, c)
		els := st
		if s.Else != nil {
			els = a.depStmt(s.Else, st, c)
		}
		st = then.merge(els)
	case *ast.ForStmt:
		if s.Init != nil {
			st = a.depStmt(s.Init, st, ctrl)
		}
		st = a.fixpoint(st, func(cur depState) depState {
			c := ctrl.union(a.depReads(s.Cond, cur))
			b := a.depStmt(s.Body, cur, c)
			if s.Post != nil {
				b = a.depStmt(s.Post, b, c)
			}
			return b
		})
	case *ast.RangeStmt:
		st = a.fixpoint(st, func(cur depState) depState {
			c := ctrl.union(a.depReads(s.X, cur))
			if s.Tok == token.DEFINE || s.Tok == token.ASSIGN {
				for _, e := range []ast.Expr{s.Key, s.Value} {
					if e == nil {
						continue
					}
					if v, direct := a.rootVar(e); v != nil && direct && isLocal(v) {
						cur = a.assign(cur, v, e.Pos(), c)
					}
				}
			}
			return a.depStmt(s.Body, cur, c)
		})
	case *ast.SwitchStmt:
		if s.Init != nil {
			st = a.depStmt(s.Init, st, ctrl)
		}
		st = a.depClauses(s.Body, st, ctrl.union(a.depReads(s.Tag, st)))
	case *ast.TypeSwitchStmt:
		if s.Init != nil {
			st = a.depStmt(s.Init, st, ctrl)
		}
		st = a.depClauses(s.Body, st, ctrl.union(a.depReads(s.Assign, st)))
	case *ast.SelectStmt:
		out := st
		for _, c := range s.Body.List {
			b := st
			for _, x := range c.(*ast.CommClause).Body {
				b = a.depStmt(x, b, ctrl)
			}
			out = out.merge(b)
		}
		st = out
	}
	return st
}

// depClauses walks the clauses of a switch.
func (a *analyzer) depClauses(body *ast.BlockStmt, st depState, ctrl siteSet) depState {
	out := st
	for _, c := range body.List {
		cc, ok := c.(*ast.CaseClause)
		if !ok {
			continue
		}
		cctrl := ctrl
		for _, e := range cc.List {
			cctrl = cctrl.union(a.depReads(e, st))
		}
		b := st
		for _, x := range cc.Body {
			b = a.depStmt(x, b, cctrl)
		}
		out = out.merge(b)
	}
	return out
}

// maxRounds bounds the rounds of a loop's fixed point; the sets only
// grow, so the bound is never reached in practice and only guards
// against a mistake.
const maxRounds = 100

// fixpoint returns the state after a loop whose body is step, run zero
// or more times from st.
func (a *analyzer) fixpoint(st depState, step func(depState) depState) depState {
	cur := st
	for range maxRounds {
		next := cur.merge(step(cur))
		if next.size() == cur.size() {
			return next
		}
		cur = next
	}
	return cur
}
