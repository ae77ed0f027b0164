package compare

import "testing"

func TestPercent(t *testing.T) {
	for _, c := range []struct {
		level float64
		want  string
	}{
		{0.95, "95"},
		{0.99, "99"},
		{1 - 0.05/3, "98.333"},
		{1 - 0.05/8, "99.375"},
		{0.999, "99.9"},
		{0.9999999999999999, "100"},
	} {
		if got, want, level := Percent(c.level), c.want, c.level; got != want {
			t.Errorf("Percent(%v) = %q, want %q", level, got, want)
		}
	}
}
