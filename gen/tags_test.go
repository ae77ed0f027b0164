package gen

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerateTags generates benchmarks of a module with a marker in a
// file that builds only with tag special: without -tags the summary
// names the marker it could not see; with them it gets its benchmark, in
// a generated file that builds only with the tag, so that the package
// still builds and tests without it.
func TestGenerateTags(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":   "module example.com/tg\n\ngo 1.24\n",
		"plain.go": "package tg\n\n// Twice doubles x.\n//\n//mbench:bench Twice\nfunc Twice(x int) int { return 2 * x }\n",
		"special.go": "//go:build special\n\npackage tg\n\n// Thrice triples x.\n//\n//mbench:bench Thrice\n" +
			"func Thrice(x int) int { return 3 * x }\n",
		"plain_test.go": "package tg\n\nimport \"testing\"\n\nfunc TestTwice(t *testing.T) {\n\tif Twice(2) != 4 {\n\t\tt.Fail()\n\t}\n}\n",
		"special_test.go": "//go:build special\n\npackage tg\n\nimport \"testing\"\n\n" +
			"func TestThrice(t *testing.T) {\n\tif Thrice(2) != 6 {\n\t\tt.Fail()\n\t}\n}\n",
	}
	for name, content := range files {
		write(t, filepath.Join(dir, name), content)
	}
	t.Setenv("GOFLAGS", "")
	t.Setenv("GOWORK", "off")

	res, err := Generate(context.Background(), Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	res.WriteSummary(&b, dir)
	if !strings.Contains(b.String(), "1 marker in a file excluded by build constraints: special.go:7; give -tags to include it") ||
		len(res.Segments) != 1 || res.Segments[0].Name != "Twice" {
		t.Errorf("without -tags: summary\n%s", b.String())
	}
	src, err := os.ReadFile(filepath.Join(dir, GeneratedFile))
	if err != nil || bytes.Contains(src, []byte("//go:build")) {
		t.Errorf("without -tags, the generated file has a build constraint (or is missing: %v)", err)
	}

	res, err = Generate(context.Background(), Options{Dir: dir, Tags: "special"})
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	res.WriteSummary(&b, dir)
	if len(res.Excluded) != 0 || !strings.Contains(b.String(), "2 segments: 2 generated") {
		t.Errorf("with -tags special: summary\n%s", b.String())
	}
	src, err = os.ReadFile(filepath.Join(dir, GeneratedFile))
	if err != nil || !bytes.Contains(src, []byte("\n//go:build special\n")) || !bytes.Contains(src, []byte("func BenchmarkThrice(")) {
		t.Fatalf("with -tags special, the generated file (%v):\n%s", err, src)
	}
	// The package builds and vets with the tag and without it.
	goTool(t, dir, "vet", ".")
	goTool(t, dir, "vet", "-tags=special", ".")
}
