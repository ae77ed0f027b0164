package loops

import "testing"

func TestLit(t *testing.T) {
	for range 2 {
		if Lit([]int{1, 3})() != 3 {
			t.Fatal("Lit")
		}
	}
}
