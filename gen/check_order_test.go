package gen

import "testing"

// TestSameRecording checks that -check takes two recordings of one segment
// with the same sets in another order, as parallel tests give them, for
// the same, and anything else for different.
func TestSameRecording(t *testing.T) {
	const (
		ab    = `{"segment":"Sum","package":"p","sets":[{"inputs":[{"name":"x","type":"int","value":1}]},{"inputs":[{"name":"x","type":"int","value":2}]}]}`
		ba    = `{"segment":"Sum","package":"p","sets":[{"inputs":[{"name":"x","type":"int","value":2}]},{"inputs":[{"name":"x","type":"int","value":1}]}]}`
		ac    = `{"segment":"Sum","package":"p","sets":[{"inputs":[{"name":"x","type":"int","value":1}]},{"inputs":[{"name":"x","type":"int","value":3}]}]}`
		other = `{"segment":"Dot","package":"p","sets":[{"inputs":[{"name":"x","type":"int","value":2}]},{"inputs":[{"name":"x","type":"int","value":1}]}]}`
		a     = `{"segment":"Sum","package":"p","sets":[{"inputs":[{"name":"x","type":"int","value":1}]}]}`
	)
	for _, tc := range []struct {
		x, y string
		same bool
	}{
		{ab, ab, true},
		{ab, ba, true},
		{ab, ac, false},
		{ab, other, false},
		{ab, a, false},
		{"package p\n", "package q\n", false},
		{"", "", true},
	} {
		if got := sameRecording([]byte(tc.x), []byte(tc.y)); got != tc.same {
			t.Errorf("sameRecording(%s, %s) = %v, want %v", tc.x, tc.y, got, tc.same)
		}
	}
}
