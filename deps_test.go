package mbench_test

// This file keeps ARCHITECTURE.md true: it writes the package diagram down
// as rules, in the manner of go/build's dependency test, and checks every
// package of the module against them. Only the imports of non-test files
// count; tests may import more.

import (
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// depsRules is the diagram of ARCHITECTURE.md, from the bottom up. A rule
//
//	a, b < c, d
//
// lets c and d import a and b and whatever a and b may import; "NONE < c"
// says c imports nothing of mbench, and a chain "a < b < c" is two rules.
// A package appears on the right of one rule only, after every package on
// its left has appeared on a right, so the rules cannot loop. A package of
// the module that no rule names fails the test: place it where the diagram
// draws it, and draw it if it is new.
//
// A package may import what is drawn below it in its column or at the end
// of its arrows. Private helpers at the end of an arrow (internal/probe,
// internal/gitrev, gen/internal/codec, vet/internal/…) serve the package
// that points at them and import only what is drawn with them.
const depsRules = `
	# The model and the numerics import nothing of mbench, nor does
	# internal/outfile, through which every file a command is asked to
	# write goes, and which any other package may import.
	NONE < bench, stats, internal/outfile;

	# internal/term, the status line and the choice of colour on a
	# terminal, imports nothing of mbench and serves the commands only:
	# libraries report progress through callbacks.
	NONE < internal/term;

	# What the standard library's functions do to their arguments, the
	# one table of the analyses of gen and vet.
	NONE < internal/effects;

	# What mbench version prints, read from the binary's build
	# information.
	NONE < internal/version;

	# internal/proc, through which every child process starts, and the
	# private helpers of run, ab and gen.
	internal/outfile < internal/proc, internal/probe, gen/internal/codec;
	internal/proc < internal/gitrev;

	# The analyses sit on the model and the numerics and never start a
	# process; shard splits a suite and checks the parts gathered.
	bench, stats, internal/outfile < stop, compare, optimize, profdiff, shard;

	# Executing benchmarks and keeping them; run reads plan files through
	# optimize, and store resolves git revisions through internal/gitrev.
	stop, compare, optimize, profdiff, shard, internal/gitrev < store;
	stop, compare, optimize, shard, internal/probe, internal/proc < run;

	# A/B sessions and generated benchmarks, each row above the last.
	run, store, internal/probe, internal/proc < duet;
	duet, internal/gitrev < ab;
	ab, gen/internal/codec, internal/effects < gen;

	# The first changed commit between two revisions: a search over an
	# oracle, which ab sessions implement.
	ab < bisect;

	# Pictures and series. plot draws from plain data and imports only
	# bench; history reads the store.
	bench, internal/outfile < plot;
	gen < scaling, history;
	plot, scaling, history < report;

	# vet stands apart: one analyzer per package over vet/internal/…, and
	# vet/crosscheck, which times a finding with and without its fix
	# through run.
	internal/outfile < vet/internal/benchfn, vet/internal/source;
	vet/internal/benchfn, internal/effects < vet/internal/purity;
	vet/internal/benchfn, vet/internal/purity, vet/internal/source
	< vet/bnsize, vet/constfold, vet/deadresult, vet/driftstate, vet/stoptimer;
	run, vet/bnsize, vet/constfold, vet/deadresult, vet/driftstate, vet/stoptimer
	< vet/crosscheck;
	vet/crosscheck < vet;

	# The fronts: a few lines each over one library call.
	vet < cmd/mbench-vet, vet/golangci;
	report, vet, bisect, internal/term, internal/version < cmd/mbench;

	# For tests only: no rule lets a package import these outside its
	# tests.
	NONE < internal/browser, internal/pgtest, deploy;
`

// analyses never start a process: os/exec is not among their
// dependencies, direct or indirect.
var analyses = []string{"stop", "compare", "optimize", "profdiff", "shard"}

// An execUse is why a package imports os/exec.
type execUse struct {
	why string
	// calls says the package may call os/exec's functions (exec.Command,
	// exec.LookPath, …); without it, it uses os/exec's types and their
	// methods only, on processes that internal/proc made.
	calls bool
}

// execImporters are the packages that import os/exec although every child
// process starts through internal/proc. Any other package that imports it
// fails the test, and so does an exception that no longer does.
var execImporters = map[string]execUse{
	"internal/proc": {calls: true, why: "it starts every child process, so that each dies with mbench"},

	// These start their processes with proc.Command and use os/exec for
	// its types: exec.Cmd to hold a started process, exec.ExitError and
	// exec.Error to read how one ended.
	"run":             {why: "exec.Cmd (StartPinned) and exec.Error of processes made by proc.Command"},
	"duet":            {why: "exec.Cmd and exec.ExitError of processes made by proc.Command"},
	"gen":             {why: "exec.ExitError of go test run by proc.Command"},
	"internal/gitrev": {why: "exec.ExitError of git run by proc.Command"},

	// Helpers for tests only, which no product package imports.
	"internal/browser": {calls: true, why: "for tests only: finds Chromium (exec.LookPath) and installs it through .ci/deps"},
	"internal/pgtest":  {calls: true, why: "for tests only: starts and stops the throwaway PostgreSQL server through .ci/postgres"},
}

// flagImporters are the packages besides the commands (cmd/...) that may
// import flag, and why: none. Libraries take settings as values; the
// command binds its flags to them. A library that imports flag fails the
// test.
var flagImporters = map[string]string{}

// A graph is the non-test imports of a module's packages and of every
// package they depend on, by import path.
type graph struct {
	module  string              // the module's path
	imports map[string][]string // import path → the paths it imports

	// execCalls holds, for packages of the module that import os/exec
	// for its types only, every call of a function of os/exec, as
	// "exec.Command (run/fork.go:86)".
	execCalls map[string][]string
}

// rel returns path inside g's module ("compare"), and whether it is in the
// module at all.
func (g graph) rel(path string) (string, bool) {
	rest, ok := strings.CutPrefix(path, g.module+"/")
	return rest, ok
}

// A policy is the parsed rules and their exceptions.
type policy struct {
	allowed  map[string]map[string]bool // package → what it may import of the module
	analyses []string
	exec     map[string]execUse // may import os/exec, and why
	flag     map[string]string  // may import flag, and why
}

// parseRules reads rules in the language of depsRules into, for each
// package named, the set of packages it may import.
func parseRules(rules string) (map[string]map[string]bool, error) {
	var lines []string
	for line := range strings.Lines(rules) {
		line, _, _ = strings.Cut(line, "#")
		lines = append(lines, line)
	}
	allowed := make(map[string]map[string]bool)
	for rule := range strings.SplitSeq(strings.Join(lines, " "), ";") {
		if strings.TrimSpace(rule) == "" {
			continue
		}
		lists := strings.Split(rule, "<")
		if len(lists) < 2 {
			return nil, fmt.Errorf("rule %q: want a < b", strings.TrimSpace(rule))
		}
		var below []string
		for i, list := range lists {
			var names []string
			for name := range strings.SplitSeq(list, ",") {
				name = strings.TrimSpace(name)
				if name == "" || strings.ContainsAny(name, " \t\n") {
					return nil, fmt.Errorf("rule %q: bad list %q", strings.TrimSpace(rule), strings.TrimSpace(list))
				}
				names = append(names, name)
			}
			if i == 0 && len(names) == 1 && names[0] == "NONE" {
				below = nil
				continue
			}
			if i > 0 {
				for _, name := range names {
					if allowed[name] != nil {
						return nil, fmt.Errorf("%s is on the right of two rules", name)
					}
					set := make(map[string]bool)
					for _, b := range below {
						set[b] = true
						for p := range allowed[b] {
							set[p] = true
						}
					}
					allowed[name] = set
				}
			}
			for _, name := range names {
				if name == "NONE" {
					return nil, fmt.Errorf("rule %q: NONE may only stand alone at the left", strings.TrimSpace(rule))
				}
				if allowed[name] == nil {
					return nil, fmt.Errorf("%s is used before a rule places it", name)
				}
			}
			below = names
		}
	}
	return allowed, nil
}

// check returns every way g breaks p, each as one sentence.
func (p policy) check(g graph) []string {
	var bad []string
	var mine []string
	for path := range g.imports {
		if _, ok := g.rel(path); ok {
			mine = append(mine, path)
		}
	}
	slices.Sort(mine)
	for _, path := range mine {
		pkg, _ := g.rel(path)
		allowed, placed := p.allowed[pkg]
		if !placed {
			bad = append(bad, fmt.Sprintf("%s is in no rule of deps_test.go: add it where ARCHITECTURE.md draws it", pkg))
		}
		var execs, flags bool
		for _, imp := range g.imports[path] {
			switch imp {
			case "os/exec":
				execs = true
			case "flag":
				flags = true
			}
			dep, ok := g.rel(imp)
			if !ok || !placed || allowed[dep] {
				continue
			}
			bad = append(bad, fmt.Sprintf("%s imports %s, which the architecture does not allow: %s", pkg, dep, mayImport(pkg, allowed)))
		}
		use, excepted := p.exec[pkg]
		switch {
		case execs && !excepted:
			bad = append(bad, fmt.Sprintf("%s imports os/exec: start processes with internal/proc's Command, so that they die with mbench", pkg))
		case !execs && excepted:
			bad = append(bad, fmt.Sprintf("%s no longer imports os/exec: take it off the exceptions", pkg))
		}
		if excepted && !use.calls {
			for _, call := range g.execCalls[path] {
				bad = append(bad, fmt.Sprintf("%s calls %s: start processes with internal/proc's Command, so that they die with mbench (%s may use os/exec for %s)", pkg, call, pkg, use.why))
			}
		}
		_, excepted = p.flag[pkg]
		switch {
		case strings.HasPrefix(pkg, "cmd/"):
		case flags && !excepted:
			bad = append(bad, fmt.Sprintf("%s imports flag: take settings in a struct and let the command bind its flags to it", pkg))
		case !flags && excepted:
			bad = append(bad, fmt.Sprintf("%s no longer imports flag: take it off the exceptions", pkg))
		}
	}
	for _, pkg := range p.analyses {
		if via := g.pathTo(g.module+"/"+pkg, "os/exec"); via != nil {
			bad = append(bad, fmt.Sprintf("%s depends on os/exec (%s), but an analysis never starts a process", pkg, strings.Join(via, " → ")))
		}
	}
	return bad
}

// mayImport says what allowed lets pkg import, for a message.
func mayImport(pkg string, allowed map[string]bool) string {
	if len(allowed) == 0 {
		return pkg + " may import nothing of mbench"
	}
	list := make([]string, 0, len(allowed))
	for p := range allowed {
		list = append(list, p)
	}
	slices.Sort(list)
	return pkg + " may import only " + strings.Join(list, ", ")
}

// pathTo returns the shortest chain of imports from one package to
// another, module packages named inside the module, or nil if there is
// none.
func (g graph) pathTo(from, to string) []string {
	prev := map[string]string{from: ""}
	queue := []string{from}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if p == to {
			var chain []string
			for ; p != ""; p = prev[p] {
				name, ok := g.rel(p)
				if !ok {
					name = p
				}
				chain = append(chain, name)
			}
			slices.Reverse(chain)
			return chain
		}
		for _, imp := range g.imports[p] {
			if _, seen := prev[imp]; !seen {
				prev[imp] = p
				queue = append(queue, imp)
			}
		}
	}
	return nil
}

func realPolicy(t *testing.T) policy {
	t.Helper()
	allowed, err := parseRules(depsRules)
	if err != nil {
		t.Fatal(err)
	}
	return policy{allowed: allowed, analyses: analyses, exec: execImporters, flag: flagImporters}
}

// loadGraph loads the non-test imports of the module's packages, and of
// their dependencies, for the host's GOOS and GOARCH.
func loadGraph(t *testing.T) graph {
	t.Helper()
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedModule | packages.NeedImports | packages.NeedDeps}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	g := graph{imports: make(map[string][]string)}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			t.Errorf("loading %s: %v", p.PkgPath, e)
		}
		imps := make([]string, 0, len(p.Imports))
		for path := range p.Imports {
			imps = append(imps, path)
		}
		slices.Sort(imps)
		g.imports[p.PkgPath] = imps
	})
	for _, p := range pkgs {
		if p.Module != nil && p.Module.Main {
			g.module = p.Module.Path
			break
		}
	}
	if g.module == "" {
		t.Fatal("no package of the main module loaded")
	}
	// The root holds this test only, no package to check.
	delete(g.imports, g.module)
	g.execCalls = loadExecCalls(t)
	return g
}

// loadExecCalls finds, through type information, the calls of os/exec's
// functions in the packages that may use its types only.
func loadExecCalls(t *testing.T) map[string][]string {
	t.Helper()
	var patterns []string
	for pkg, use := range execImporters {
		if !use.calls {
			patterns = append(patterns, "./"+pkg)
		}
	}
	slices.Sort(patterns)
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	calls := make(map[string][]string)
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Errorf("loading %s: %v", p.PkgPath, e)
		}
		if p.TypesInfo == nil {
			continue
		}
		for id, obj := range p.TypesInfo.Uses {
			fn, ok := obj.(*types.Func)
			if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "os/exec" || fn.Signature().Recv() != nil {
				continue
			}
			pos := p.Fset.Position(id.Pos())
			file, err := filepath.Rel(wd, pos.Filename)
			if err != nil {
				file = pos.Filename
			}
			calls[p.PkgPath] = append(calls[p.PkgPath], fmt.Sprintf("exec.%s (%s:%d)", fn.Name(), filepath.ToSlash(file), pos.Line))
		}
	}
	for _, c := range calls {
		slices.Sort(c)
	}
	return calls
}

// TestDeps checks the module's imports against the diagram of
// ARCHITECTURE.md.
func TestDeps(t *testing.T) {
	p := realPolicy(t)
	g := loadGraph(t)
	for _, msg := range p.check(g) {
		t.Error(msg)
	}

	// A rule or exception naming a package that is gone is a diagram
	// out of date.
	named := make(map[string]bool)
	for pkg := range p.allowed {
		named[pkg] = true
	}
	for pkg := range p.exec {
		named[pkg] = true
	}
	for pkg := range p.flag {
		named[pkg] = true
	}
	for _, pkg := range p.analyses {
		named[pkg] = true
	}
	for pkg := range named {
		if _, ok := g.imports[g.module+"/"+pkg]; !ok {
			t.Errorf("deps_test.go names %s, which is not a package of %s", pkg, g.module)
		}
	}
}

// TestDepsCheck proves that check finds each kind of violation, on graphs
// made up for the purpose under the real rules.
func TestDepsCheck(t *testing.T) {
	p := realPolicy(t)

	// base follows every rule: an analysis on the model and numerics, a
	// runner that starts processes through proc, a library over it, a
	// command binding flags.
	base := map[string][]string{
		"m/bench":         {"fmt"},
		"m/stats":         {"math"},
		"m/compare":       {"fmt", "m/bench", "m/stats"},
		"m/internal/proc": {"os/exec"},
		"m/run":           {"m/compare", "m/internal/proc", "os/exec"},
		"m/ab":            {"m/compare", "m/run"},
		"m/cmd/mbench":    {"flag", "m/ab"},
	}
	for _, tc := range []struct {
		name  string
		edits map[string][]string // packages replaced or added
		calls map[string][]string // graph.execCalls
		want  []string
	}{
		{name: "base"},
		{
			name:  "reversed arrow",
			edits: map[string][]string{"m/stats": {"math", "m/compare"}},
			want:  []string{"stats imports compare, which the architecture does not allow: stats may import nothing of mbench"},
		},
		{
			name:  "analysis imports a runner",
			edits: map[string][]string{"m/compare": {"m/bench", "m/run", "m/stats"}},
			want: []string{
				"compare imports run, which the architecture does not allow: compare may import only bench, internal/outfile, stats",
				"compare depends on os/exec (compare → run → os/exec), but an analysis never starts a process",
			},
		},
		{
			name: "analysis starts a process indirectly",
			edits: map[string][]string{
				"m/compare": {"m/bench", "m/stats"},
				"m/stats":   {"math", "os/exec"},
			},
			want: []string{
				"stats imports os/exec: start processes with internal/proc's Command, so that they die with mbench",
				"compare depends on os/exec (compare → stats → os/exec), but an analysis never starts a process",
			},
		},
		{
			name:  "process started around proc",
			edits: map[string][]string{"m/compare": {"m/bench", "m/stats", "os/exec"}},
			want: []string{
				"compare imports os/exec: start processes with internal/proc's Command, so that they die with mbench",
				"compare depends on os/exec (compare → os/exec), but an analysis never starts a process",
			},
		},
		{
			name:  "exception starts a process itself",
			calls: map[string][]string{"m/run": {"exec.CommandContext (run/fork.go:86)"}},
			want: []string{
				"run calls exec.CommandContext (run/fork.go:86): start processes with internal/proc's Command, so that they die with mbench" +
					" (run may use os/exec for exec.Cmd (StartPinned) and exec.Error of processes made by proc.Command)",
			},
		},
		{
			name:  "new library with flags",
			edits: map[string][]string{"m/newlib": {"flag", "m/bench"}},
			want: []string{
				"newlib is in no rule of deps_test.go: add it where ARCHITECTURE.md draws it",
				"newlib imports flag: take settings in a struct and let the command bind its flags to it",
			},
		},
		{
			name:  "stale exceptions",
			edits: map[string][]string{"m/run": {"m/compare", "m/internal/proc"}},
			want:  []string{"run no longer imports os/exec: take it off the exceptions"},
		},
		{
			name:  "library binding flags",
			edits: map[string][]string{"m/ab": {"flag", "m/compare", "m/run"}},
			want:  []string{"ab imports flag: take settings in a struct and let the command bind its flags to it"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := graph{module: "m", imports: make(map[string][]string), execCalls: tc.calls}
			for path, imps := range base {
				g.imports[path] = imps
			}
			for path, imps := range tc.edits {
				g.imports[path] = imps
			}
			got := p.check(g)
			if !slices.Equal(got, tc.want) {
				t.Errorf("check found\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(tc.want, "\n\t"))
			}
		})
	}
}

// TestParseRules checks the rules' language on small rule sets.
func TestParseRules(t *testing.T) {
	allowed, err := parseRules(`
		NONE < a;   # a leaf
		a < b, c;
		b < d < e;
	`)
	if err != nil {
		t.Fatal(err)
	}
	for pkg, want := range map[string][]string{
		"a": nil,
		"b": {"a"},
		"c": {"a"},
		"d": {"a", "b"},
		"e": {"a", "b", "d"},
	} {
		var got []string
		for p := range allowed[pkg] {
			got = append(got, p)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s may import %v, want %v", pkg, got, want)
		}
	}

	for _, bad := range []string{
		"a < b;",           // a placed by no rule
		"NONE < a; a < a;", // a on the right twice
		"NONE < a; a < b; b < a;",
		"NONE < a; b;",
		"NONE < a; a, < b;",
		"NONE < a; a < NONE;",
	} {
		if _, err := parseRules(bad); err == nil {
			t.Errorf("parseRules(%q) succeeded, want an error", bad)
		}
	}
}
