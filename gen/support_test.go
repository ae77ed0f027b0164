package gen

import (
	"context"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mbench/mbench/gen/internal/codec"
)

func TestSupportSourceNames(t *testing.T) {
	decls, imports := supportSource()
	f, err := parser.ParseFile(token.NewFileSet(), "support.go", "package p\n"+decls, 0)
	if err != nil {
		t.Fatalf("support source does not parse: %v", err)
	}
	for _, d := range f.Decls {
		var names []string
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				names = append(names, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					names = append(names, s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						names = append(names, n.Name)
					}
				case *ast.ImportSpec:
					t.Errorf("support source holds an import of %s", s.Path.Value)
				}
			}
		}
		for _, n := range names {
			if !strings.HasPrefix(n, "mbench") {
				t.Errorf("top-level name %s lacks the mbench prefix", n)
			}
		}
	}
	for _, want := range []string{"func mbenchLoad(tb testing.TB, name string) []mbenchSet", "func (s mbenchSet) input(tb testing.TB, name, typ string, ptr interface{})", "func (s mbenchSet) output(tb testing.TB, name, typ string, ptr interface{})", "func mbenchEqual(a, b interface{}) bool", "func mbenchDiff(a, b interface{}) string", "func mbenchClone(dst, src interface{})"} {
		if !strings.Contains(decls, want) {
			t.Errorf("support source lacks %s", want)
		}
	}
	if strings.Contains(strings.Join(imports, " "), "mbench") {
		t.Errorf("support source imports %v", imports)
	}
}

// TestSupportSourceNoAny checks that the support source does not use the
// predeclared any, which a module declaring a Go version before 1.18
// cannot compile.
func TestSupportSourceNoAny(t *testing.T) {
	for _, decls := range []string{support().decls, supportNamedDecls(map[string]string{"sort": "mbenchsort"})} {
		f, err := parser.ParseFile(token.NewFileSet(), "support.go", "package p\n"+decls, 0)
		if err != nil {
			t.Fatalf("support source does not parse: %v", err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name == "any" {
				t.Errorf("support source uses any at offset %d", id.Pos())
			}
			return true
		})
	}
	if !strings.Contains(support().decls, "func mbenchEqual(a, b interface{}) bool") {
		t.Errorf("support source lacks mbenchEqual with interface{} parameters")
	}
}

func supportNamedDecls(names map[string]string) string {
	decls, _ := supportSourceNamed(names)
	return decls
}

// supportPackage is a package whose tests use the pasted support code the
// way generated tests do.
const supportPackage = `package fixture

type point struct {
	x, y float64
	label string
}

type shape struct {
	points []*point
	first  *point
	tags   map[string]int
}

func centroid(ps []*point) point {
	var c point
	for _, p := range ps {
		c.x += p.x / float64(len(ps))
		c.y += p.y / float64(len(ps))
	}
	return c
}
`

const supportTest = `
func TestSupport(t *testing.T) {
	sets := mbenchLoad(t, "Centroid")
	if len(sets) != 2 {
		t.Fatalf("%d sets", len(sets))
	}
	for _, s := range sets {
		var in shape
		s.input(t, "s", "shape", &in)
		if in.first != in.points[0] {
			t.Fatalf("shared pointer lost")
		}
		var saved shape
		mbenchClone(&saved, &in)
		got := centroid(in.points)
		var want point
		s.output(t, "c", "point", &want)
		if !mbenchEqual(got, want) {
			t.Errorf("centroid: %s", mbenchDiff(got, want))
		}
		in.points[0].x = 99
		if saved.points[0].x == 99 || saved.first != saved.points[0] {
			t.Errorf("clone shares memory or lost sharing")
		}
	}
	if d := mbenchDiff(shape{tags: map[string]int{"a": 1}}, shape{tags: map[string]int{"a": 2}}); d != ` + "`" + `.tags["a"]: 1 != 2` + "`" + ` {
		t.Errorf("diff %q", d)
	}
}

func TestStale(t *testing.T) {
	var c point
	mbenchLoad(t, "Centroid")[0].output(t, "c", "*point", &c)
}
`

// TestSupportEndToEnd pastes the support source into a test file of a
// scratch module, records values for it with the codec, and runs go test.
// The module declares go 1.16, the oldest version whose modules the go
// command builds with their own language version (the generated code
// goes into the user's package, under its go.mod), and go 1.18.
func TestSupportEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	for _, v := range []string{"1.16", "1.18"} {
		t.Run("go"+v, func(t *testing.T) { testSupportEndToEnd(t, v) })
	}
}

func testSupportEndToEnd(t *testing.T, goVersion string) {
	root := t.TempDir()
	write(t, filepath.Join(root, "go.mod"), "module example.com/fixture\n\ngo "+goVersion+"\n")

	// Package plain pastes supportSource. Package named declares sort
	// and strconv itself, so its test file imports them under other
	// names and pastes supportSourceNamed.
	decls, imports := supportSource()
	names := map[string]string{"sort": "mbenchsort", "strconv": "mbenchstrconv"}
	namedDecls, namedImports := supportSourceNamed(names)
	if !slices.Equal(imports, namedImports) {
		t.Errorf("imports %v and %v differ", imports, namedImports)
	}
	for _, p := range []struct {
		dir, extra, decls string
		names             map[string]string
	}{
		{"plain", "", decls, nil},
		{"named", "\nfunc sort() {}\n\nvar strconv = sort\n", namedDecls, names},
	} {
		var src strings.Builder
		src.WriteString("package fixture\n\nimport (\n")
		for _, path := range imports {
			if n, ok := p.names[path]; ok {
				src.WriteString("\t" + n + " ")
			} else {
				src.WriteString("\t")
			}
			src.WriteString(strconv.Quote(path) + "\n")
		}
		src.WriteString(")\n\n" + p.decls + supportTest)
		dir := filepath.Join(root, p.dir)
		write(t, filepath.Join(dir, "fixture.go"), supportPackage+p.extra)
		write(t, filepath.Join(dir, "support_test.go"), src.String())
		writeRecorded(t, dir)
	}

	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	vet := exec.CommandContext(context.Background(), "go", "vet", "./...")
	vet.Dir, vet.Env = root, env
	if out, err := vet.CombinedOutput(); err != nil {
		t.Errorf("go vet: %v\n%s", err, out)
	}
	cmd := exec.CommandContext(context.Background(), "go", "test", "-count=1", "-v", "./...")
	cmd.Dir, cmd.Env = root, env
	out, _ := cmd.CombinedOutput()
	for _, want := range []string{
		"--- PASS: TestSupport",
		"--- FAIL: TestStale",
		"testdata/mbench/Centroid.json: set 0: output c was recorded as point, the code has *point; regenerate with mbench gen",
	} {
		if n := strings.Count(string(out), want); n != 2 {
			t.Errorf("go test output has %q %d times, want 2:\n%s", want, n, out)
		}
	}
}

// writeRecorded writes testdata/mbench/Centroid.json in dir, with values
// written by the codec from types of the same shape as the package's.
func writeRecorded(t *testing.T, dir string) {

	type point struct {
		x, y  float64
		label string
	}
	type shape struct {
		points []*point
		first  *point
		tags   map[string]int
	}
	enc := func(v any) json.RawMessage {
		b, err := codec.Encode(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	p := &point{x: 1, y: 2, label: "a\xff"}
	f := codec.File{Segment: "Centroid", Package: "example.com/fixture", Sets: []codec.Set{
		{
			Inputs:  []codec.Var{{Name: "s", Type: "shape", Value: enc(shape{points: []*point{p, {x: 3, y: 4}}, first: p})}},
			Outputs: []codec.Var{{Name: "c", Type: "point", Value: enc(point{x: 2, y: 3})}},
		},
		{
			Inputs:  []codec.Var{{Name: "s", Type: "shape", Value: enc(shape{points: []*point{p}, first: p, tags: map[string]int{}})}},
			Outputs: []codec.Var{{Name: "c", Type: "point", Value: enc(point{x: 1, y: 2})}},
		},
	}}
	data, err := f.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "testdata", "mbench", "Centroid.json"), string(data))
}

func write(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o666); err != nil {
		t.Fatal(err)
	}
}
