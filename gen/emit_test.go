package gen

import (
	"flag"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// A handSeg describes a segment of testdata/golden/emit by hand, so that
// the generator's test depends on no analysis: the names of its inputs
// (a trailing * marks a mutated one) and outputs (a trailing ! marks a
// sink). Its dropped values are the calls of expression statements and
// the right-hand sides assigned to _.
type handSeg struct {
	name    string
	inputs  []string
	outputs []string
}

var emitSegs = []handSeg{
	{name: "Push", inputs: []string{"s*", "x"}},
	{name: "Mean", inputs: []string{"xs"}, outputs: []string{"r0!"}},
	{name: "Dropped", inputs: []string{"data"}},
	{name: "Literal", inputs: []string{"n", "sum"}, outputs: []string{"sum!"}},
	{name: "Sort", inputs: []string{"xs*"}},
	{name: "Join", inputs: []string{"words"}, outputs: []string{"joined!"}},
	{name: "Blank", inputs: []string{"xs"}},
}

// loadHand loads the package in dir and builds the segments of hand from
// its markers.
func loadHand(t *testing.T, dir string, hand []handSeg) (*packages.Package, []*Segment) {
	t.Helper()
	cfg := &packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Dir: dir}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatalf("loading %s: %v", dir, pkgs[0].Errors)
	}
	pkg := pkgs[0]
	var segs []*Segment
	for _, h := range hand {
		s := markedSegment(t, pkg, h.name)
		lookup := func(name string, pos token.Pos) *types.Var {
			if s.Whole {
				sig := pkg.TypesInfo.Defs[s.Func.(*ast.FuncDecl).Name].Type().(*types.Signature)
				if sig.Recv() != nil && sig.Recv().Name() == name {
					return sig.Recv()
				}
				for i := 0; i < sig.Params().Len(); i++ {
					if sig.Params().At(i).Name() == name {
						return sig.Params().At(i)
					}
				}
				for i := 0; i < sig.Results().Len(); i++ {
					if "r"+strconv.Itoa(i) == name {
						return sig.Results().At(i)
					}
				}
				t.Fatalf("%s: no %s", h.name, name)
			}
			_, obj := pkg.Types.Scope().Innermost(pos).LookupParent(name, pos)
			v, ok := obj.(*types.Var)
			if !ok {
				t.Fatalf("%s: no variable %s", h.name, name)
			}
			return v
		}
		at := ast.Node(s.Func)
		if s.Stmt != nil {
			at = s.Stmt
		}
		for _, in := range h.inputs {
			name := strings.TrimSuffix(in, "*")
			v := lookup(name, at.Pos())
			s.Inputs = append(s.Inputs, Var{Name: name, Type: v.Type(), Obj: v, Mutated: name != in})
		}
		for _, out := range h.outputs {
			name := strings.TrimSuffix(out, "!")
			v := lookup(name, at.End())
			s.Outputs = append(s.Outputs, Var{Name: name, Type: v.Type(), Obj: v, Sink: name != out})
		}
		if s.Stmt != nil {
			ast.Inspect(s.Stmt, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.ExprStmt:
					if tv, ok := pkg.TypesInfo.Types[n.X]; ok && !tv.IsVoid() {
						s.Discards = append(s.Discards, n.X)
					}
				case *ast.AssignStmt:
					for i, l := range n.Lhs {
						if isBlank(l) {
							s.Discards = append(s.Discards, n.Rhs[min(i, len(n.Rhs)-1)])
						}
					}
				}
				return true
			})
		}
		s.Sets = 1
		segs = append(segs, s)
	}
	return pkg, segs
}

// markedSegment finds the marker //mbench:bench name in pkg and returns
// its segment, without inputs and outputs.
func markedSegment(t *testing.T, pkg *packages.Package, name string) *Segment {
	t.Helper()
	marker := "//mbench:bench " + name
	for _, f := range pkg.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if docHas(fd.Doc, marker) {
				return &Segment{Name: name, Pos: pkg.Fset.Position(fd.Pos()), Pkg: pkg, File: f, Func: fd, Whole: true}
			}
			for _, cg := range f.Comments {
				if cg.Pos() < fd.Body.Pos() || cg.End() > fd.Body.End() || strings.TrimSpace(cg.List[len(cg.List)-1].Text) != marker {
					continue
				}
				line := pkg.Fset.Position(cg.End()).Line
				var found ast.Stmt
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					if st, ok := n.(ast.Stmt); ok && found == nil && pkg.Fset.Position(st.Pos()).Line == line+1 {
						found = st
					}
					return found == nil
				})
				if found == nil {
					t.Fatalf("marker %s before no statement", name)
				}
				return &Segment{Name: name, Pos: pkg.Fset.Position(cg.Pos()), Pkg: pkg, File: f, Func: fd, Stmt: found}
			}
		}
	}
	t.Fatalf("no marker %s", name)
	return nil
}

func docHas(doc *ast.CommentGroup, marker string) bool {
	if doc == nil {
		return false
	}
	for _, c := range doc.List {
		if strings.TrimSpace(c.Text) == marker {
			return true
		}
	}
	return false
}

// TestEmitGolden compares the generated file for testdata/golden/emit
// with its golden copy (go test -update rewrites it) and checks that it
// compiles and passes go vet next to the package's code: once as it is
// (Go 1.24, b.Loop) and once with the module at Go 1.22, where the
// benchmarks count to b.N and store their results to sinks.
func TestEmitGolden(t *testing.T) {
	for _, c := range []struct{ goVersion, golden string }{
		{"1.24", GeneratedFile + ".golden"},
		{"1.22", GeneratedFile + ".bN.golden"},
	} {
		t.Run("go"+c.goVersion, func(t *testing.T) {
			dir := filepath.Join("testdata", "golden", "emit")
			work := t.TempDir()
			copyTree(t, dir, work)
			mod := "module example.com/emit\n\ngo " + c.goVersion + "\n"
			if err := os.WriteFile(filepath.Join(work, "go.mod"), []byte(mod), 0o666); err != nil {
				t.Fatal(err)
			}
			pkg, segs := loadHand(t, work, emitSegs)
			// A rejected segment is left out.
			segs[2].Reason, segs[2].Detail = JumpsOut, "test"
			// Push resets in the timed loop, Sort with the timer
			// stopped.
			segs[4].ResetStopped = true
			src, err := Emit(pkg, segs)
			if err != nil {
				t.Fatal(err)
			}
			// The support code is the codec's, tested with it: the
			// golden file holds a line in its place.
			decls, _ := supportSource()
			short := strings.Replace(string(src), strings.TrimSpace(decls), "// (the support code of supportSource)", 1)
			if short == string(src) {
				t.Errorf("the support code is not in the generated file as supportSource returns it")
			}
			golden := filepath.Join(dir, c.golden)
			if *update {
				if err := os.WriteFile(golden, []byte(short), 0o666); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if short != string(want) {
				t.Errorf("Emit differs from %s (go test -update rewrites it):\n%s", golden, firstDiff(string(want), short))
			}
			if strings.Contains(string(src), "Dropped") {
				t.Errorf("the rejected segment Dropped was emitted")
			}
			again, err := Emit(pkg, segs)
			if err != nil || string(again) != string(src) {
				t.Errorf("a second Emit differs (err %v)", err)
			}
			if err := os.WriteFile(filepath.Join(work, GeneratedFile), src, 0o666); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("go", "vet", ".")
			cmd.Dir = work
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("go vet of the generated file: %v\n%s", err, out)
			}
		})
	}
}

// firstDiff shows the lines of want and got from the first that differs.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	cut := func(l []string) string { return strings.Join(l[i:min(len(l), i+8)], "\n") }
	return "line " + strconv.Itoa(i+1) + "\n--- want\n" + cut(w) + "\n--- got\n" + cut(g)
}

// copyTree copies the files under from to to, leaving out golden files.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.Walk(from, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if fi.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o777)
		}
		if strings.HasSuffix(p, ".golden") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), data, 0o666)
	})
	if err != nil {
		t.Fatal(err)
	}
}
