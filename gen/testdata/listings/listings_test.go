package listings

import "testing"

// data and floats are what the tests, and the hand-written benchmarks of
// handwritten_test.go, run the segments on.
var (
	data   = []byte("the quick brown fox jumps over the lazy dog, again and again and again")
	floats = []float64{9, 3, 7, 1, 8, 2, 6, 4, 5, 0, 11, 15, 13, 12, 14, 10}
	text   = "the quick brown fox jumps over the lazy dog"
)

func TestValidate(t *testing.T) {
	if got := Validate(data); got != len(data) {
		t.Errorf("Validate = %d, want %d", got, len(data))
	}
}

func TestSquares(t *testing.T) {
	if got := Squares(); got <= 0 {
		t.Errorf("Squares = %d", got)
	}
}

func TestMedian(t *testing.T) {
	xs := append([]float64(nil), floats...)
	if got := Median(xs); got != 8 {
		t.Errorf("Median = %v, want 8", got)
	}
}

func TestFind(t *testing.T) {
	grid := [][]int{{1, 2, 3}, {4, 5, 6}}
	if r, c := Find(grid, 5); r != 1 || c != 1 {
		t.Errorf("Find = %d, %d", r, c)
	}
}

func TestFib(t *testing.T) {
	if got := Fib(30); got != 832040 {
		t.Errorf("Fib(30) = %d", got)
	}
}

func TestWords(t *testing.T) {
	if got := Words(text); got != 9 {
		t.Errorf("Words = %d, want 9", got)
	}
}
