package codec

import (
	"bufio"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// oldestGo is the oldest Go release whose toolchain must compile the codec:
// it is pasted into the packages of modules at go 1.16 and later, which
// the go command of that release builds.
const oldestGo = 16

// TestStdlibVersion checks that the codec uses only what the standard
// library of Go 1.16 has: a module at go 1.18 built by the go command of
// Go 1.18 must compile the generated and recording code. Go 1.24's vet
// does not say so (its stdversion check skips files older than go 1.22),
// so the test reads the toolchain's API files.
func TestStdlibVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the package with the go command")
	}
	newer := newerAPI(t)
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedSyntax | packages.NeedFiles}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatalf("loading the codec: %v", pkgs)
	}
	p := pkgs[0]
	report := func(pos interface{ String() string }, key string) {
		if v, ok := newer[key]; ok {
			t.Errorf("%s: %s is Go 1.%d, newer than Go 1.%d", pos, key, v, oldestGo)
		}
	}
	for id, obj := range p.TypesInfo.Uses {
		if obj.Pkg() == nil || strings.Contains(obj.Pkg().Path(), ".") || obj.Parent() != obj.Pkg().Scope() {
			continue
		}
		report(p.Fset.Position(id.Pos()), obj.Pkg().Path()+"."+obj.Name())
	}
	for sel, s := range p.TypesInfo.Selections {
		obj := s.Obj()
		if obj.Pkg() == nil || strings.Contains(obj.Pkg().Path(), ".") {
			continue
		}
		recv := s.Recv()
		if ptr, ok := recv.(*types.Pointer); ok {
			recv = ptr.Elem()
		}
		named, ok := recv.(*types.Named)
		if !ok {
			continue
		}
		report(p.Fset.Position(sel.Sel.Pos()), obj.Pkg().Path()+"."+named.Obj().Name()+"."+obj.Name())
	}
}

// apiLine matches the declarations of the toolchain's api/go1.N.txt.
var apiLine = regexp.MustCompile(`^pkg ([^ ,]+)(?: \([^)]*\))?, (?:type (\w+) (?:struct|interface), (\w+)|method \(\*?(\w+)\) (\w+)|(?:func|const|var|type) (\w+))`)

// newerAPI returns the standard library's symbols added after Go 1.16
// ("reflect.Value.SetZero") and the release that added each.
func newerAPI(t *testing.T) map[string]int {
	newer := map[string]int{}
	files, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "api", "go1.*.txt"))
	for _, file := range files {
		v, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(filepath.Base(file), "go1."), ".txt"))
		if err != nil || v <= oldestGo {
			continue
		}
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			m := apiLine.FindStringSubmatch(sc.Text())
			var key string
			switch {
			case m == nil:
				continue
			case m[2] != "":
				key = m[1] + "." + m[2] + "." + m[3]
			case m[4] != "":
				key = m[1] + "." + m[4] + "." + m[5]
			default:
				key = m[1] + "." + m[6]
			}
			if old, ok := newer[key]; !ok || v < old {
				newer[key] = v
			}
		}
		f.Close()
	}
	if len(newer) == 0 {
		t.Fatalf("no API files (api/go1.*.txt) under %s: the test needs a whole Go distribution", runtime.GOROOT())
	}
	return newer
}
