package gen

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// exitsSource is a package whose segments leave early: by returns, one
// of them bare, one after changing its input, and by a break out of the
// loop around the segment.
const exitsSource = `package exits

import "strconv"

// Index returns the position of v in xs, or -1.
func Index(xs []int, v int) int {
	//mbench:bench Index
	for i, x := range xs {
		if x == v {
			return i
		}
	}
	return -1
}

// Sum adds the numbers in parts, stopping at the first that is not one.
func Sum(parts []string) (int, error) {
	sum := 0
	//mbench:bench Sum
	for _, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			return 0, err
		}
		sum += n
	}
	return sum, nil
}

// Clip lowers the first element above max to max, and says whether it did.
func Clip(xs []int, max int) bool {
	//mbench:bench Clip
	for i := range xs {
		if xs[i] > max {
			xs[i] = max
			return true
		}
	}
	return false
}

// Split cuts s at its first comma.
func Split(s string) (head, tail string) {
	//mbench:bench Split
	for i := 0; i < len(s); i++ {
		if s[i] == ',' {
			head, tail = s[:i], s[i+1:]
			return
		}
	}
	head = s
	return
}

// Rows counts the rows of grid before the first that holds a zero.
func Rows(grid [][]int) int {
	n := 0
rows:
	for _, row := range grid {
		//mbench:bench Rows
		for _, x := range row {
			if x == 0 {
				break rows
			}
		}
		n++
	}
	return n
}
`

const exitsTest = `package exits

import "testing"

func TestExits(t *testing.T) {
	if Index([]int{1, 2, 3}, 2) != 1 || Index([]int{1}, 5) != -1 {
		t.Error("Index")
	}
	if n, err := Sum([]string{"1", "2"}); n != 3 || err != nil {
		t.Error("Sum")
	}
	Sum([]string{"1", "x"})
	if !Clip([]int{1, 9}, 5) || Clip([]int{1}, 5) {
		t.Error("Clip")
	}
	if h, tl := Split("a,b"); h != "a" || tl != "b" {
		t.Error("Split")
	}
	Split("ab")
	if Rows([][]int{{1}, {2, 0}, {3}}) != 1 || Rows([][]int{{1}}) != 1 {
		t.Error("Rows")
	}
}
`

// TestGenerateExits generates benchmarks end to end for segments that
// leave early, and checks that the regression tests reproduce how each
// recorded execution left: both the executions that left early and
// those that ran to the segment's end are kept, and a payload that
// leaves another way, or returns another value, fails its test.
func TestGenerateExits(t *testing.T) {
	if testing.Short() {
		t.Skip("records, builds and runs generated code")
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), "module example.com/exits\n\ngo 1.24\n")
	write(t, filepath.Join(dir, "exits.go"), exitsSource)
	write(t, filepath.Join(dir, "exits_test.go"), exitsTest)
	res, err := Generate(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range res.Segments {
		if s.Reason != Accepted {
			t.Errorf("%s: %s (%s)", s.Name, s.Reason, s.Detail)
		}
		// Each segment's tests leave it both ways.
		data, err := os.ReadFile(recordedFile(s))
		if err != nil {
			t.Errorf("%s: %v", s.Name, err)
			continue
		}
		early := strings.Contains(string(data), `"exit": 1`)
		if !early || s.Sets < 2 {
			t.Errorf("%s: %d sets, early exit recorded: %v\n%s", s.Name, s.Sets, early, data)
		}
	}
	gen, err := os.ReadFile(filepath.Join(dir, GeneratedFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(gen), "goto mbenchLeave") {
		t.Errorf("the payloads do not jump out:\n%s", gen)
	}

	// The recorded sets change: Index returned one more, and the first
	// execution of Clip ran to the end. The regression tests say so.
	edit := func(name, old, new string) {
		file := filepath.Join(dir, "testdata", "mbench", name+".json")
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		changed := strings.Replace(string(data), old, new, 1)
		if changed == string(data) {
			t.Fatalf("%s holds no %q:\n%s", file, old, data)
		}
		write(t, file, changed)
	}
	edit("Index", `{"name": "return 0", "type": "int", "value": 1}`, `{"name": "return 0", "type": "int", "value": 2}`)
	edit("Clip", `"exit": 1,`, ``)
	cmd := exec.Command("go", "test", "-count=1", "-run=^TestMbench(Index|Clip)$", ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	for _, want := range []string{
		"input=0, run 1: return 0 differs from the recorded value: 1 != 2 (got != recorded)",
		"input=0, run 1: the payload left by return at exits.go:36:4, the program by its end",
	} {
		if err == nil || !strings.Contains(string(out), want) {
			t.Errorf("regression tests on changed sets: %v, want %q in\n%s", err, want, out)
		}
	}
}
