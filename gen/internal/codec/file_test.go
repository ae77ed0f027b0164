package codec

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestFileMarshal(t *testing.T) {
	f := File{Segment: "Sum", Package: "example.com/p", Sets: []Set{
		{
			Inputs:  []Var{{Name: "xs", Type: "[]int", Value: json.RawMessage("[3, 1,\n 2]")}},
			Outputs: []Var{{Name: "sum", Type: "int", Value: json.RawMessage("6")}, {Name: "xs", Type: "[]int", Value: json.RawMessage("[1,2,3]")}},
		},
		{Inputs: []Var{{Name: "xs", Type: "[]int", Value: json.RawMessage("null")}}},
	}}
	got, err := f.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "segment": "Sum",
  "package": "example.com/p",
  "sets": [
    {
      "inputs": [
        {"name": "xs", "type": "[]int", "value": [3,1,2]}
      ],
      "outputs": [
        {"name": "sum", "type": "int", "value": 6},
        {"name": "xs", "type": "[]int", "value": [1,2,3]}
      ]
    },
    {
      "inputs": [
        {"name": "xs", "type": "[]int", "value": null}
      ],
      "outputs": []
    }
  ]
}
`
	if string(got) != want {
		t.Errorf("Marshal =\n%s\nwant\n%s", got, want)
	}
	var back File
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	again, _ := back.Marshal()
	if string(again) != want {
		t.Errorf("Marshal after Unmarshal =\n%s", again)
	}
}

// fakeTB records the first fatal message and stops the test function the
// way t.Fatal does.
type fakeTB struct {
	testing.TB
	msg string
}

type fatal struct{}

func (tb *fakeTB) Helper() {}
func (tb *fakeTB) Fatalf(format string, args ...any) {
	tb.msg = fmt.Sprintf(format, args...)
	panic(fatal{})
}

// catch runs f and returns the fatal message it ended with, or "".
func catch(tb *fakeTB, f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(fatal); !ok {
				panic(r)
			}
			msg = tb.msg
		}
	}()
	f()
	return ""
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.MkdirAll(filepath.Join("testdata", "mbench"), 0o777); err != nil {
		t.Fatal(err)
	}
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join("testdata", "mbench", name+".json"), []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	write("Sum", `{"segment":"Sum","package":"p","sets":[{"inputs":[{"name":"xs","type":"[]int","value":[1,2]}],"outputs":[{"name":"sum","type":"int","value":"x"}]}]}`)
	write("Other", `{"segment":"Else","package":"p","sets":[]}`)
	write("Empty", `{"segment":"Empty","package":"p","sets":[]}`)
	write("Bad", `{"segment":`)

	tb := &fakeTB{TB: t}
	var sets []Set
	if msg := catch(tb, func() { sets = Load(tb, "Sum") }); msg != "" || len(sets) != 1 {
		t.Fatalf("Load: %q, %d sets", msg, len(sets))
	}
	var xs []int
	if msg := catch(tb, func() { sets[0].input(tb, "xs", "[]int", &xs) }); msg != "" || len(xs) != 2 || xs[1] != 2 {
		t.Errorf("input: %q, %v", msg, xs)
	}
	file := filepath.Join("testdata", "mbench", "Sum.json")
	var sum int
	tests := []struct {
		f    func()
		want string
	}{
		{func() { sets[0].input(tb, "xs", "[]int64", &xs) }, file + ": set 0: input xs was recorded as []int, the code has []int64; regenerate with mbench gen"},
		{func() { sets[0].input(tb, "ys", "[]int", &xs) }, file + ": set 0 has no input ys; regenerate with mbench gen"},
		{func() { sets[0].output(tb, "sum", "int", &sum) }, file + ": set 0: output sum: value (int): want an integer, have the string \"x\"; regenerate with mbench gen"},
		{func() { Load(tb, "Other") }, filepath.Join("testdata", "mbench", "Other.json") + `: holds segment "Else", not "Other"; regenerate with mbench gen`},
		{func() { Load(tb, "Empty") }, filepath.Join("testdata", "mbench", "Empty.json") + ": no recorded input sets; regenerate with mbench gen"},
		{func() { Load(tb, "Bad") }, filepath.Join("testdata", "mbench", "Bad.json") + ": unexpected end of JSON input; regenerate with mbench gen"},
		{func() { Load(tb, "None") }, "open " + filepath.Join("testdata", "mbench", "None.json") + ": no such file or directory; regenerate with mbench gen"},
	}
	for _, tt := range tests {
		if msg := catch(tb, tt.f); msg != tt.want {
			t.Errorf("fatal %q\nwant  %q", msg, tt.want)
		}
	}
}
