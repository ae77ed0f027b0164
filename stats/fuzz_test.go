package stats

import "testing"

func FuzzParseStat(f *testing.F) {
	for _, s := range []string{"mean", "median", "", "Mean", "Stat(2)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		st, err := ParseStat(s)
		if err != nil {
			return
		}
		if st.String() != s {
			t.Fatalf("ParseStat(%q) = %v, which prints as %q", s, st, st.String())
		}
		// Of panics for a Stat it does not know.
		st.Of([]float64{1, 2, 4})
	})
}
