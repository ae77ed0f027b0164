package intest

import "testing"

func TestDouble(t *testing.T) {
	got := 0
	//mbench:bench Double
	got = Double(21)
	if got != 42 {
		t.Errorf("Double(21) = %d", got)
	}
}
