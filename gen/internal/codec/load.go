package codec

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// SetsDirEnv names the environment variable holding the directory Load
// reads recorded sets from instead of testdata/mbench: mbench gen checks
// the generated code on sets it has not written into the package yet.
const SetsDirEnv = "MBENCH_GEN_SETS"

// Load reads the recorded sets of segment name from
// testdata/mbench/NAME.json (or $MBENCH_GEN_SETS/NAME.json), failing tb
// with the file's name when it cannot.
func Load(tb testing.TB, name string) []Set {
	tb.Helper()
	dir := os.Getenv(SetsDirEnv)
	if dir == "" {
		dir = filepath.Join("testdata", "mbench")
	}
	file := filepath.Join(dir, name+".json")
	data, err := os.ReadFile(file)
	if err != nil {
		tb.Fatalf("%v; regenerate with mbench gen", err)
	}
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		tb.Fatalf("%s: %v; regenerate with mbench gen", file, err)
	}
	if f.Segment != name {
		tb.Fatalf("%s: holds segment %q, not %q; regenerate with mbench gen", file, f.Segment, name)
	}
	if len(f.Sets) == 0 {
		tb.Fatalf("%s: no recorded input sets; regenerate with mbench gen", file)
	}
	for i := range f.Sets {
		f.Sets[i].file, f.Sets[i].index = file, i
	}
	return f.Sets
}

// input decodes the recorded input name into ptr, failing tb when the set
// has no such input or it was recorded with another type than typ.
func (s Set) input(tb testing.TB, name, typ string, ptr any) {
	tb.Helper()
	s.decode(tb, "input", s.Inputs, name, typ, ptr)
}

// output decodes the recorded output name into ptr, like input.
func (s Set) output(tb testing.TB, name, typ string, ptr any) {
	tb.Helper()
	s.decode(tb, "output", s.Outputs, name, typ, ptr)
}

func (s Set) decode(tb testing.TB, kind string, vars []Var, name, typ string, ptr any) {
	tb.Helper()
	for _, v := range vars {
		if v.Name != name {
			continue
		}
		if v.Type != typ {
			tb.Fatalf("%s: set %d: %s %s was recorded as %s, the code has %s; regenerate with mbench gen", s.file, s.index, kind, name, v.Type, typ)
		}
		if err := Decode(v.Value, ptr); err != nil {
			tb.Fatalf("%s: set %d: %s %s: %v; regenerate with mbench gen", s.file, s.index, kind, name, err)
		}
		return
	}
	tb.Fatalf("%s: set %d has no %s %s; regenerate with mbench gen", s.file, s.index, kind, name)
}

// exitName names exit k of a segment whose exits are names, for the
// messages of regression tests: a recorded file older than the code may
// name an exit the code no longer has.
func exitName(names []string, k int) string {
	if k < 0 || k >= len(names) {
		return "exit " + strconv.Itoa(k) + ", which the code does not have"
	}
	return names[k]
}

// same compares got, what a payload computed, with the recorded output
// name of type typ by their encodings, for values that hold interfaces:
// the dynamic type of an interface need not be one the test can rebuild
// (errors.New's), and its encoding says all the codec knows of it. Pass
// a variable of interface type as a Ref, as the recorder did. It returns
// "" when they encode alike, and otherwise the encodings from where they
// first differ.
func (s Set) same(tb testing.TB, name, typ string, got any) string {
	tb.Helper()
	for _, v := range s.Outputs {
		if v.Name != name {
			continue
		}
		if v.Type != typ {
			tb.Fatalf("%s: set %d: output %s was recorded as %s, the code has %s; regenerate with mbench gen", s.file, s.index, name, v.Type, typ)
		}
		enc, err := encodeArg(got)
		if err != nil {
			return "cannot encode it: " + err.Error()
		}
		var want bytes.Buffer
		if err := json.Compact(&want, v.Value); err != nil {
			tb.Fatalf("%s: set %d: output %s: %v; regenerate with mbench gen", s.file, s.index, name, err)
		}
		return encodingDiff(enc, want.Bytes())
	}
	tb.Fatalf("%s: set %d has no output %s; regenerate with mbench gen", s.file, s.index, name)
	return ""
}

// encodingDiff returns "" when a and b are equal, and otherwise both from
// a little before their first difference, shortened.
func encodingDiff(a, b []byte) string {
	if bytes.Equal(a, b) {
		return ""
	}
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := i - 20
	if from < 0 {
		from = 0
	}
	cut := func(x []byte) string {
		x = x[from:]
		if len(x) > 60 {
			x = append(x[:57:57], "..."...)
		}
		return string(x)
	}
	return "encoded from byte " + strconv.Itoa(from) + ": " + cut(a) + " != " + cut(b)
}
