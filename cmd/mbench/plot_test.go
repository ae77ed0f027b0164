package main

import (
	"bytes"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestPlotGolden draws figures of runs the fake test binaries stored, end
// to end, and compares the SVG with testdata/golden/plot (go test -update
// rewrites them). The figures depend only on the stored values, which the
// fakes make reproducible, and on the seeded bootstrap of compare.
func TestPlotGolden(t *testing.T) {
	bins := buildFakes(t)
	crc32, err := os.ReadFile(filepath.Join("testdata", "crc32.txt"))
	if err != nil {
		t.Fatal(err)
	}
	g := newGolden(t, bins)
	// hash/crc32's CRC32 benchmarks at six sizes, measured by mbench run.
	if err := os.WriteFile("crc32.txt", crc32, 0o666); err != nil {
		t.Fatal(err)
	}
	store := func(args ...string) {
		t.Helper()
		var stderr bytes.Buffer
		if code := mbench(append([]string{"run", "-db", "m.db"}, args...), io.Discard, &stderr); code != exitOK {
			t.Fatalf("mbench run %q: exit code %d\n%s", args, code, &stderr)
		}
	}
	store("-label", "versions", "-criterion", "static", "-f-min", "2", "-f-max", "2", "-mi", "4", "-iter", "5ms",
		"-bench", "Sum|Join", "old=old.test", "new=new.test")
	// cv stops Sum on its values alone, before -f-max.
	store("-label", "cv", "-f-min", "2", "-f-max", "6", "-wi-max", "3", "-mi", "3", "-iter", "5ms", "-seed", "7", "-bench", "Sum", "fake.test")

	g.checkFiles("plot/comparison", exitOK, []string{"cmp.svg"}, "plot", "-db", "m.db", "-kind", "comparison", "-o", "cmp.svg", "versions")
	g.checkFiles("plot/comparison-threshold", exitOK, []string{"cmp2.svg"}, "plot", "-db", "m.db", "-kind", "comparison", "-threshold", "0.5",
		"-o", "cmp2.svg", "versions")
	g.checkFiles("plot/trace", exitOK, []string{"trace.svg"}, "plot", "-db", "m.db", "-kind", "trace", "-bench", "Sum", "-o", "trace.svg", "cv")
	g.checkFiles("plot/trace-several", exitOK, []string{"trace2.svg"}, "plot", "-db", "m.db", "-kind", "trace", "-o", "trace2.svg", "versions")

	g.check("plot/png", exitOK, "plot", "-db", "m.db", "-kind", "comparison", "-o", "cmp.png", "versions")
	data, err := os.ReadFile(filepath.Join(g.work, "cmp.png"))
	if err != nil {
		t.Fatal(err)
	}
	if img, err := png.Decode(bytes.NewReader(data)); err != nil {
		t.Errorf("cmp.png: %v", err)
	} else if img.Bounds().Dx() != 2400 {
		t.Errorf("cmp.png is %v, want 2400 pixels wide (twice the SVG's 1200)", img.Bounds())
	}

	g.check("plot/trace-no-match", exitError, "plot", "-db", "m.db", "-kind", "trace", "-bench", "Nothing", "-o", "x.svg", "cv")
	g.check("plot/trace-two-inputs", exitUsage, "plot", "-db", "m.db", "-kind", "trace", "-o", "x.svg", "cv", "versions")
	g.check("plot/comparison-one-version", exitUsage, "plot", "-db", "m.db", "-kind", "comparison", "-o", "x.svg", "cv")
	g.checkFiles("plot/scaling", exitOK, []string{"scaling.svg"}, "plot", "-kind", "scaling", "-bench", "CRC32", "-o", "scaling.svg", "crc32.txt")
	g.check("plot/scaling-no-family", exitError, "plot", "-kind", "scaling", "-bench", "Nothing", "-o", "x.svg", "crc32.txt")
	g.check("plot/scaling-two-inputs", exitUsage, "plot", "-kind", "scaling", "-o", "x.svg", "crc32.txt", "crc32.txt")
	g.checkFiles("plot/history", exitOK, []string{"history.svg"}, "plot", "-db", "m.db", "-kind", "history", "-bench", "Sum", "-o", "history.svg")
	g.check("plot/unknown-kind", exitUsage, "plot", "-db", "m.db", "-kind", "pie", "-o", "x.svg", "cv")
	g.check("plot/no-output", exitUsage, "plot", "-db", "m.db", "-kind", "trace", "cv")
	g.check("plot/bad-output", exitUsage, "plot", "-db", "m.db", "-kind", "trace", "-o", "x.pdf", "cv")
	g.check("plot/bad-threshold", exitUsage, "plot", "-db", "m.db", "-kind", "comparison", "-threshold", "NaN", "-o", "x.svg", "versions")
	g.check("plot/unknown-run", exitError, "plot", "-db", "m.db", "-kind", "trace", "-o", "x.svg", "nosuch")
	if _, err := os.Stat(filepath.Join(g.work, "x.svg")); err == nil {
		t.Errorf("a failed plot left x.svg behind")
	}
}
