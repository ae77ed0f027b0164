package handwritten

import "testing"

func TestTriple(t *testing.T) {
	if Triple(2) != 6 {
		t.Error("Triple(2) != 6")
	}
}
