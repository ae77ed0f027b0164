package markers

import "testing"

func TestF(t *testing.T) {
	//mbench:bench InTest
	for range 3 {
	}
}
