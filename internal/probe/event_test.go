package probe

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		line string
		want Event
	}{
		{"hello 42 0,3 go1.26.8", &Hello{PID: 42, CPUs: []int{0, 3}, GoVersion: "go1.26.8"}},
		{"hello 42 ? go1.26.8", &Hello{PID: 42, GoVersion: "go1.26.8"}},
		{"turn 7", &Turn{Seq: 7}},
		{"iter 3 1 100 BenchmarkX 100 1000 2000 900 5 320 12 body 4 80 1100 870",
			&Run{Seq: 3, Procs: 1, BenchN: 100, Name: "BenchmarkX", N: 100, Start: time.Unix(0, 1000), End: time.Unix(0, 2000),
				Duration: 900, MemAllocs: 5, MemBytes: 320, Wait: 12, FillKind: "body", FillChunks: 4, FillOps: 80, FillTime: 1100, CPU: 870,
				StartCPU: -1, EndCPU: -1, GCs: -1}},
		{"iter 3 1 100 BenchmarkX/a=b 100 1000 2000 900 5 320 12 body 4 80 1100 870 1 0 2",
			&Run{Seq: 3, Procs: 1, BenchN: 100, Name: "BenchmarkX/a=b", N: 100, Start: time.Unix(0, 1000), End: time.Unix(0, 2000),
				Duration: 900, MemAllocs: 5, MemBytes: 320, Wait: 12, FillKind: "body", FillChunks: 4, FillOps: 80, FillTime: 1100, CPU: 870, StartCPU: 1, EndCPU: 0, GCs: 2}},
		{"result 3 2 BenchmarkX 100 900 8 5 320 items/op=10 ns/op=1.5e+06",
			&Result{Seq: 3, Procs: 2, Name: "BenchmarkX", N: 100, T: 900, Bytes: 8, MemAllocs: 5, MemBytes: 320,
				Extra: map[string]float64{"items/op": 10, "ns/op": 1.5e6}}},
		{"result 0 1 BenchmarkX 1 900 0 0 0", &Result{Seq: 0, Procs: 1, Name: "BenchmarkX", N: 1, T: 900}},
		{"fail 0 1 100 BenchmarkX skipped", &Fail{Procs: 1, BenchN: 100, Name: "BenchmarkX", Reason: "skipped"}},
		{"mismatch 4 R 4 1 10 BenchmarkA\tR 4 1 10 BenchmarkB", &Stop{Kind: "mismatch", Seq: 4, Msg: "R 4 1 10 BenchmarkA\tR 4 1 10 BenchmarkB"}},
		{"peer 2 the other side ended first", &Stop{Kind: "peer", Seq: 2, Msg: "the other side ended first"}},
	} {
		got, err := Parse(tc.line)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", tc.line, got, err, tc.want)
		}
	}
	for _, bad := range []string{
		"", "hello", "hello x 0 go", "hello 1 0,a go", "iter 1 2 3", "result 1 1 X 1 1 1 1 1 novalue",
		"result 1 1 X 1 1 1 1 1 u=x", "fail 1", "stop 1 x", "mismatch x y", "iter 1 1 100 X 100 a 2000 900 5 320 12 body 4 80 1100 870", "iter 3 1 100 BenchmarkX 100 1000 2000 900 5 320 12 body 4 80 1100",
	} {
		if ev, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) = %+v, want an error", bad, ev)
		}
	}
}

func TestEnv(t *testing.T) {
	for _, tc := range []struct {
		mode Mode
		side int
		want string
	}{
		{Fill, 0, "MBENCH_PROBE=3,4"},
		{Idle, 1, "MBENCH_PROBE=3,4,idle"},
		{Turns, 0, "MBENCH_PROBE=3,4,turn0"},
		{Turns, 1, "MBENCH_PROBE=3,4,turn1"},
	} {
		if got := Env(3, 4, tc.mode, tc.side); got != tc.want {
			t.Errorf("Env(3, 4, %d, %d) = %q, want %q", tc.mode, tc.side, got, tc.want)
		}
	}
}

// FuzzParse feeds arbitrary lines to the report parser: it must not panic,
// and an event it returns must carry what the parent relies on.
func FuzzParse(f *testing.F) {
	f.Add("iter 3 1 100 BenchmarkX 100 1000 2000 900 5 320 12 body 4 80 1100 870 0 1 0")
	f.Add("result 3 2 BenchmarkX 100 900 8 5 320 items/op=10")
	f.Add("hello 1 0,1 go1.26")
	f.Add("fail 1 1 1 X failed")
	f.Add("mismatch 1 a\tb")
	f.Fuzz(func(t *testing.T, line string) {
		ev, err := Parse(line)
		if err != nil {
			if ev != nil {
				t.Fatalf("Parse(%q) returned %+v with error %v", line, ev, err)
			}
			return
		}
		switch e := ev.(type) {
		case *Run:
			if e.Name == "" || strings.ContainsAny(e.Name, " \t") {
				t.Fatalf("run with name %q", e.Name)
			}
		case *Result:
			for unit := range e.Extra {
				if unit == "" {
					t.Fatalf("metric without unit in %q", line)
				}
			}
		case nil:
			t.Fatalf("Parse(%q) returned no event and no error", line)
		}
	})
}
