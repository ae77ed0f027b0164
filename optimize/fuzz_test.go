package optimize

import "testing"

func FuzzParseMetric(f *testing.F) {
	for _, s := range append([]string{"", "CV", "rciw", "Metric(9)"}, MetricNames...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMetric(s)
		if err != nil {
			return
		}
		if m.String() != s {
			t.Fatalf("ParseMetric(%q) = %v, which prints as %q", s, m, m.String())
		}
		// Every metric has a statistic to summarise results with.
		m.Stat()
	})
}
