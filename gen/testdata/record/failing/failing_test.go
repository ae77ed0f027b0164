package failing

import "testing"

func TestDouble(t *testing.T) {
	if Double(2) != 4 {
		t.Fatal("wrong")
	}
	// A crash after the segment ran keeps what was recorded.
	panic("this test fails on purpose, after the segment ran")
}
