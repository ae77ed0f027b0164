package fixture

import (
	"math"
	"testing"
)

func TestSum(t *testing.T) {
	for _, xs := range [][]int{{1, 2, 3}, {1, 2, 3}, nil, {-1 << 63, 1<<63 - 1}, {4}, {5}, {6}, {7}, {8}} {
		want := 0
		for _, x := range xs {
			want += x
		}
		if got := Sum(xs); got != want {
			t.Errorf("Sum(%v) = %d, want %d", xs, got, want)
		}
	}
}

func TestMedian(t *testing.T) {
	if m := Median([]float64{3, 1, 2}); m != 2 {
		t.Errorf("median %v", m)
	}
	if m := Median([]float64{math.Inf(1), math.Copysign(0, -1), 5}); m != 5 {
		t.Errorf("median %v", m)
	}
}

func TestScale(t *testing.T) {
	p := point{1, 2, "p\xff"}.scale(2, "ignored")
	if p.x != 2 || p.y != 4 {
		t.Errorf("scale: %v", p)
	}
}

func TestApply(t *testing.T) {
	t.Parallel()
	if got := Apply([]int{1, 2, 1}); len(got) != 3 || got[1] != 4 {
		t.Errorf("Apply: %v", got)
	}
}

func TestPositives(t *testing.T) {
	Positives([]int{1, -2, 3})
}

func TestAtoi(t *testing.T) {
	for _, s := range []string{"one", "12", "two", "7"} {
		if _, err := Atoi(s); (err == nil) != (s == "12" || s == "7") {
			t.Errorf("Atoi(%q): %v", s, err)
		}
	}
}

func TestCheck(t *testing.T) {
	for _, n := range []int{-1, -2, -3} {
		if Check(n) == nil {
			t.Errorf("Check(%d) = nil", n)
		}
	}
}
