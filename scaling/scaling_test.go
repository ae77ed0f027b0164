package scaling

import (
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/stats"
)

// measure appends iterations of benchmark name to r: one value per element
// of vals, in fork f of version v.
func measure(r *bench.Run, name, v string, f int, vals ...float64) {
	for i, x := range vals {
		r.Measurements = append(r.Measurements, bench.Measurement{
			Key:    bench.Key{Package: "example.com/p", Name: name, Procs: 2},
			Coord:  bench.Coord{Version: v, Fork: f, Iteration: i},
			N:      1,
			Values: []bench.Value{{Value: x, Unit: "sec/op"}},
		})
	}
}

// names returns the names of fams and, per family, its points' names.
func names(fams []*Family) (out []string) {
	for _, f := range fams {
		s := f.Name() + ":"
		for _, p := range f.Points {
			s += " " + p.Name
		}
		out = append(out, s)
	}
	return out
}

func TestFindGroups(t *testing.T) {
	var r bench.Run
	for i, name := range []string{
		"Zeta/n=1000", "Zeta/n=10", "Zeta/n=100",
		"Encode/json/size=1024", "Encode/xml/size=64", "Encode/json/size=64", "Encode/xml/size=1024",
		"Encode/json/size=4KiB", "Encode/xml/size=4KiB", "Encode/xml/size=8KiB",
		"Alpha/1M", "Alpha/1k", "Alpha/2^20", "Alpha/1KiB",
		"Grid/rows=10/cols=10", "Grid/rows=10/cols=20", "Grid/rows=20/cols=10",
		"Grid/rows=20/cols=20", "Grid/rows=10/cols=30", "Grid/rows=30/cols=10",
		"Two/n=1", "Two/n=2", "Two/n=2/extra",
		"Word/sha1", "Word/sha256", "Word/md5",
		"Dup/n=1000", "Dup/n=1e3", "Dup/n=1kB",
		"Scan/10Valid", "Scan/1kValid", "Scan/10ValidUtf8", "Scan/1MValid", "Scan/1kValidUtf8", "Scan/1MValidUtf8",
	} {
		measure(&r, name, "", 1, float64(i+1), float64(i+2))
		measure(&r, name, "", 2, float64(i+1), float64(i+3))
	}
	fams, err := Find(&r, "ns/op", DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	// Name puts the parameter back at its position. Two, Word ("sha1",
	// "sha256" and "md5" are sha = 1, 256 and md = 5) and Dup (one x
	// thrice) have fewer than 3 distinct sizes.
	want := []string{
		"Zeta/n=*: Zeta/n=10 Zeta/n=100 Zeta/n=1000",
		"Encode/json/size=*: Encode/json/size=64 Encode/json/size=1024 Encode/json/size=4KiB",
		"Encode/xml/size=*: Encode/xml/size=64 Encode/xml/size=1024 Encode/xml/size=4KiB Encode/xml/size=8KiB",
		"Alpha/*: Alpha/1k Alpha/1KiB Alpha/1M Alpha/2^20",
		"Grid/rows=*/cols=10: Grid/rows=10/cols=10 Grid/rows=20/cols=10 Grid/rows=30/cols=10",
		"Grid/rows=10/cols=*: Grid/rows=10/cols=10 Grid/rows=10/cols=20 Grid/rows=10/cols=30",
		"Scan/*Valid: Scan/10Valid Scan/1kValid Scan/1MValid",
		"Scan/*ValidUtf8: Scan/10ValidUtf8 Scan/1kValidUtf8 Scan/1MValidUtf8",
	}
	if got := names(fams); !reflect.DeepEqual(got, want) {
		t.Errorf("families:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	f := fams[1]
	if f.Base != "Encode" || f.Param != "size" || f.Variant != "json" || f.Position != 2 || f.Pkg != "example.com/p" || f.Procs != 2 || f.Unit != "sec/op" {
		t.Errorf("Encode/json family = %+v", *f)
	}
	if xs := []float64{f.Points[0].X, f.Points[1].X, f.Points[2].X}; !reflect.DeepEqual(xs, []float64{64, 1024, 4096}) {
		t.Errorf("Encode/json xs = %v", xs)
	}
}

// TestFindVersionsAndProcs requires the versions of a side-by-side run and
// the GOMAXPROCS of a -cpu list to make families of their own.
func TestFindVersionsAndProcs(t *testing.T) {
	var r bench.Run
	for _, v := range []string{"old", "new"} {
		for _, n := range []string{"n=1", "n=2", "n=4"} {
			measure(&r, "F/"+n, v, 1, 1, 2)
			measure(&r, "F/"+n, v, 2, 1, 2)
		}
	}
	fams, err := Find(&r, "sec/op", DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if len(fams) != 2 || fams[0].Version != "old" || fams[1].Version != "new" || len(fams[0].Points) != 3 {
		t.Fatalf("versions: got %d families %v", len(fams), names(fams))
	}
	for i := range r.Measurements {
		r.Measurements[i].Coord.Version = ""
		if i%2 == 0 {
			r.Measurements[i].Key.Procs = 4
		}
	}
	fams, _ = Find(&r, "sec/op", DefaultOptions)
	if len(fams) != 2 || fams[0].Procs != 4 || fams[1].Procs != 2 { // first appearance: i = 0 is -4
		t.Fatalf("procs: got %d families", len(fams))
	}
}

func TestFindErrors(t *testing.T) {
	var r bench.Run
	measure(&r, "F/n=1", "", 1, 1, 2)
	if _, err := Find(&r, "B/op", DefaultOptions); err == nil || !strings.Contains(err.Error(), "B/op") {
		t.Errorf("unknown unit: err = %v", err)
	}
	for _, o := range []Options{
		{Stat: stats.StatMean, Alpha: 0, Replicates: 1000, MinPoints: 3},
		{Stat: stats.StatMean, Alpha: math.NaN(), Replicates: 1000, MinPoints: 3},
		{Stat: stats.StatMean, Alpha: 0.01, Replicates: 10, MinPoints: 3},
		{Stat: stats.StatMean, Alpha: 0.01, Replicates: 1000, MinPoints: 2},
		{Stat: stats.Stat(7), Alpha: 0.01, Replicates: 1000, MinPoints: 3},
	} {
		if _, err := Find(&r, "sec/op", o); err == nil {
			t.Errorf("Find accepted options %+v", o)
		}
	}
	if fams, err := Find(&r, "sec/op", DefaultOptions); err != nil || len(fams) != 0 {
		t.Errorf("one benchmark: %d families, err %v", len(fams), err)
	}
}

// sestoft is the quicksort table of Sestoft, "Microbenchmarks in Java and
// C#" (2015), §6: array size and mean time in ns.
var sestoft = [][2]float64{
	{100, 4486.7}, {200, 9882.7}, {400, 21778.9}, {800, 47738.3}, {1600, 102736.4},
	{3200, 222186.8}, {6400, 480137.4}, {12800, 1005463.7}, {25600, 2147215.6},
	{51200, 4547435.9}, {102400, 9539396.9}, {204800, 20100187.5}, {409600, 41916537.5},
	{819200, 87614550.0}, {1638400, 182791750.0},
}

// TestSlopeReference fits Sestoft's quicksort times. Reference values from
// NumPy 1.24.2: numpy.polyfit(numpy.log(x), numpy.log(y), 1)[0], over all
// 15 sizes and over the largest 3; and for the n log n class,
// 1 + numpy.polyfit(numpy.log(x), numpy.log(numpy.log1p(x)), 1)[0].
// Tolerance 1e-12 relative: the sums are of 15 terms of order 10.
func TestSlopeReference(t *testing.T) {
	const (
		wantAll  = 1.0921015040933175
		wantTail = 1.062304752307336
		wantNlgN = 1.11290922772033875
		tol      = 1e-12
	)
	var r bench.Run
	var lx, ly []float64
	for _, p := range sestoft {
		name := "Quicksort/n=" + fmtFloat(p[0])
		// Two forks of equal values: the bootstrap has nothing to
		// vary, so the interval must collapse onto the fit.
		measure(&r, name, "", 1, p[1], p[1])
		measure(&r, name, "", 2, p[1], p[1])
		lx, ly = append(lx, math.Log(p[0])), append(ly, math.Log(p[1]))
	}
	if got := Slope(lx, ly); !near(got, wantAll, tol) {
		t.Errorf("Slope = %.16g, numpy %.16g", got, wantAll)
	}
	fams, err := Find(&r, "sec/op", DefaultOptions)
	if err != nil || len(fams) != 1 {
		t.Fatalf("Find: %d families, %v", len(fams), err)
	}
	f := fams[0]
	if !near(f.Slope.Center, wantAll, tol) || !near(f.Tail.Center, wantTail, tol) {
		t.Errorf("Slope %.16g, Tail %.16g; numpy %.16g, %.16g", f.Slope.Center, f.Tail.Center, wantAll, wantTail)
	}
	if !near(f.Slope.Lo, wantAll, tol) || !near(f.Slope.Hi, wantAll, tol) {
		t.Errorf("Slope interval [%v, %v] of noiseless points, want the fit %v", f.Slope.Lo, f.Slope.Hi, wantAll)
	}
	cs := classes([]float64{100, 200, 400, 800, 1600, 3200, 6400, 12800, 25600, 51200, 102400, 204800, 409600, 819200, 1638400})
	for _, c := range cs {
		if c.name == "n log n" && !near(c.hi, wantNlgN, tol) {
			t.Errorf("n log n slope %.16g, numpy %.16g", c.hi, wantNlgN)
		}
	}
	if !f.Curved {
		t.Errorf("noiseless quicksort times bend (1.09 overall, 1.06 at the top) but Curved is false")
	}
}

func TestSlopeDegenerate(t *testing.T) {
	if s := Slope([]float64{1, 1, 1}, []float64{1, 2, 3}); !math.IsNaN(s) {
		t.Errorf("Slope of equal x = %v, want NaN", s)
	}
	if s := Slope([]float64{1, 2, 3}, []float64{1, math.Inf(1), 3}); !math.IsNaN(s) {
		t.Errorf("Slope with Inf = %v, want NaN", s)
	}
	if s := Slope([]float64{0, 1, 2}, []float64{5, 5, 5}); s != 0 {
		t.Errorf("Slope of constant y = %v, want 0", s)
	}
}

// fmtFloat formats a size as a plain number.
func fmtFloat(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// TestFindRealRun reads `mbench run -criterion static -f-min 10 -f-max 10
// -bench CRC32/poly=IEEE/ hash/crc32` (testdata/crc32.txt, from
// eval/scaling/eval.sh): the sizes are spelled 15, 40, 512, 1kB, 4kB, 32kB
// and an align=0|1 part follows them, which is the variant; align=0 is not
// a size and so no family of its own. The slopes are those of
// docs/eval/scaling.md, to its two decimals.
func TestFindRealRun(t *testing.T) {
	r, _, err := bench.ReadFile("testdata/crc32.txt")
	if err != nil {
		t.Fatal(err)
	}
	fams, err := Find(r, "sec/op", DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range fams {
		got = append(got, f.Name())
		if len(f.Points) != 6 || f.Points[3].X != 1000 || f.Points[0].Forks != 10 || f.Param != "size" {
			t.Errorf("%s: %d points, %+v", f.Name(), len(f.Points), f.Points[3])
		}
		if !(f.Slope.Lo < f.Slope.Center && f.Slope.Center < f.Slope.Hi) {
			t.Errorf("%s: slope interval %+v does not hold its centre", f.Name(), f.Slope)
		}
	}
	want := []string{"CRC32/poly=IEEE/size=*/align=0", "CRC32/poly=IEEE/size=*/align=1"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("families %q, want %q", got, want)
	}
	f := fams[0]
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"slope", f.Slope.Center, 0.37}, {"slope lo", f.Slope.Lo, 0.29}, {"slope hi", f.Slope.Hi, 0.44},
		{"tail", f.Tail.Center, 1.04}, {"tail lo", f.Tail.Lo, 0.86}, {"tail hi", f.Tail.Hi, 1.21},
	} {
		if math.Abs(c.got-c.want) > 0.005 {
			t.Errorf("align=0 %s = %.4f, docs/eval/scaling.md says %.2f", c.name, c.got, c.want)
		}
	}
	if !f.Curved || !f.Tail.Contains(1) {
		t.Errorf("align=0: Curved %v, Tail %+v; want a bend with a linear tail", f.Curved, f.Tail)
	}
}

// TestFindUnfittable requires a family that cannot be fitted to be
// returned with its points and NaN where the data give no answer: a zero
// centre (0 B/op) leaves no slope, a point of a single value no interval.
func TestFindUnfittable(t *testing.T) {
	var r bench.Run
	measure(&r, "F/n=1", "", 1, 0, 0)
	measure(&r, "F/n=1", "", 2, 0, 0)
	for _, n := range []string{"n=2", "n=4"} {
		measure(&r, "F/"+n, "", 1, 1, 2)
		measure(&r, "F/"+n, "", 2, 1, 2)
	}
	fams, err := Find(&r, "sec/op", DefaultOptions)
	if err != nil || len(fams) != 1 || len(fams[0].Points) != 3 {
		t.Fatalf("Find: %v, %v", err, names(fams))
	}
	if f := fams[0]; !math.IsNaN(f.Slope.Center) || !math.IsNaN(f.Slope.Lo) || f.Hint() != "no fit: a centre is not positive" {
		t.Errorf("zero centre: Slope %+v, hint %q", f.Slope, f.Hint())
	}
	r.Measurements = r.Measurements[4:]
	measure(&r, "F/n=1", "", 1, 3)
	fams, _ = Find(&r, "sec/op", DefaultOptions)
	f := fams[0]
	if p := f.Points[0]; p.Center != 3 || !math.IsNaN(p.Lo) || !math.IsNaN(p.Hi) {
		t.Errorf("single value: point %+v, want centre 3 and no interval", p)
	}
	if math.IsNaN(f.Slope.Center) || !math.IsNaN(f.Slope.Lo) || !strings.Contains(f.Hint(), "too uncertain") {
		t.Errorf("single value: Slope %+v, hint %q; want a fit without interval", f.Slope, f.Hint())
	}
}
