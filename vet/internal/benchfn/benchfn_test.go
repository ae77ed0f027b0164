package benchfn

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

const src = `package p

import "testing"

type B struct{ N int }

func (*B) Loop() bool { return false }

func BenchmarkClassic(b *testing.B) {
	for i := 0; i < b.N; i++ {
	}
	for range b.N {
	}
	for i := b.N; i > 0; i-- {
	}
}

func BenchmarkLoop(b *testing.B) {
	for b.Loop() {
	}
	b.Run("sub", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
		}
	})
}

// Look-alikes that are not testing.B must not count.
func notBench(b *B) {
	for i := 0; i < b.N; i++ {
	}
	for b.Loop() {
	}
}

func BenchmarkOther(b *testing.B) {
	var x B
	for i := 0; i < x.N; i++ {
	}
	for x.Loop() {
	}
}

func TestNotABenchmarkLoop(t *testing.T) {
	for i := 0; i < 3; i++ {
	}
}

// Setup loops (Workiva go-datastructures, atree_test.go:528): a b.N loop
// followed by b.ResetTimer(), or run while the timer is stopped, is not
// timed.
func BenchmarkSetup(b *testing.B) {
	in := make([]int, 0, b.N)
	for i := 0; i < b.N; i++ {
		in = append(in, i)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = in[i]
	}
	b.StopTimer()
	for range b.N {
	}
	b.StartTimer()
	for range b.N {
	}
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		b.StartTimer()
		b.StopTimer()
	}
}

// A RunParallel body is a body of its own, whose timed loop is pb.Next;
// another PB's Next and a body passed by name do not count.
func BenchmarkParallel(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
		}
		var other testing.PB
		for other.Next() {
		}
	})
	body := func(pb *testing.PB) {
		for pb.Next() {
		}
	}
	b.RunParallel(body)
}
`

func TestFind(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p_test.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	if _, err := conf.Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	bodies := Find(info, []*ast.File{f})
	type got struct {
		line  int
		kinds []LoopKind
	}
	var gots []got
	for _, b := range bodies {
		g := got{line: fset.Position(b.Node.Pos()).Line}
		for _, l := range b.Loops {
			g.kinds = append(g.kinds, l.Kind)
		}
		gots = append(gots, g)
	}
	want := []got{
		{9, []LoopKind{Classic, Classic, Classic}},  // BenchmarkClassic
		{18, []LoopKind{BLoop}},                     // BenchmarkLoop, without the closure's loop
		{21, []LoopKind{Classic}},                   // the b.Run closure is a body of its own
		{35, nil},                                   // BenchmarkOther: x is not the *testing.B
		{51, []LoopKind{Classic, Classic, Classic}}, // BenchmarkSetup: the timed loops only
		{75, nil},                  // BenchmarkParallel
		{76, []LoopKind{Parallel}}, // its RunParallel body
	}
	if len(gots) != len(want) {
		t.Fatalf("found %d bodies %+v, want %d", len(gots), gots, len(want))
	}
	for _, b := range bodies {
		if parallel := b.PB != nil; parallel != (b.RunParallel != nil) || parallel && (b.B == nil || b.B.Name() != "b") {
			t.Errorf("body at line %d: B %v, PB %v, RunParallel %v", fset.Position(b.Node.Pos()).Line, b.B, b.PB, b.RunParallel)
		}
	}
	for i := range want {
		if gots[i].line != want[i].line || len(gots[i].kinds) != len(want[i].kinds) {
			t.Errorf("body %d: %+v, want %+v", i, gots[i], want[i])
			continue
		}
		for j := range want[i].kinds {
			if gots[i].kinds[j] != want[i].kinds[j] {
				t.Errorf("body %d loop %d: %v, want %v", i, j, gots[i].kinds[j], want[i].kinds[j])
			}
		}
	}
}
