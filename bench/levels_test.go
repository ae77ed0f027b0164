package bench

import "testing"

func TestParseLevels(t *testing.T) {
	l, err := ParseLevels("3, 5,5")
	if err != nil || l != (Levels{SuiteRuns: 3, Forks: 5, Iterations: 5}) || l.String() != "3,5,5" || l.Total() != 75 {
		t.Errorf("ParseLevels(3, 5,5) = %v (%d), %v", l, l.Total(), err)
	}
	if l, err := ParseLevels("1000,1000,1000"); err != nil || l.Total() != MaxIterations {
		t.Errorf("ParseLevels(1000,1000,1000) = %v, %v; want %d iterations", l, err, MaxIterations)
	}
	for _, bad := range []string{"", "3,5", "3,5,5,1", "3,0,5", "a,1,1", "1,-1,1",
		// More iterations than MaxIterations, and products that overflow int.
		"1000,1000,1001", "100000,100000,1", "1000000000,1000000000,1000000000",
		"9223372036854775807,1,1", "4294967296,4294967296,1"} {
		if _, err := ParseLevels(bad); err == nil {
			t.Errorf("ParseLevels(%q): no error", bad)
		}
	}
}
