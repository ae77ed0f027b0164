package bench

import "testing"

func TestParseLevels(t *testing.T) {
	l, err := ParseLevels("3, 5,5")
	if err != nil || l != (Levels{SuiteRuns: 3, Forks: 5, Iterations: 5}) || l.String() != "3,5,5" || l.Total() != 75 {
		t.Errorf("ParseLevels(3, 5,5) = %v (%d), %v", l, l.Total(), err)
	}
	for _, bad := range []string{"", "3,5", "3,5,5,1", "3,0,5", "a,1,1", "1,-1,1"} {
		if _, err := ParseLevels(bad); err == nil {
			t.Errorf("ParseLevels(%q): no error", bad)
		}
	}
}
