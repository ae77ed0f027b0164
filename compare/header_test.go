package compare

import (
	"strings"
	"testing"

	"github.com/mbench/mbench/stats"
)

// TestHeaderFits checks that both lines of every kind of header fit 120
// columns with labels of the length of git revisions, and that the second
// says what the value columns are.
func TestHeaderFits(t *testing.T) {
	for _, c := range []struct {
		name string
		r    Result
		want string
	}{
		{"mean", Result{Centers: "mean"}, "mean of all iterations"},
		{"median", Result{Centers: "median", Stat: stats.StatMedian}, "median of all iterations"},
		{"rounds", Result{Paired: true, Interleaved: true, Centers: CentersRounds}, "each process's mean"},
		{"turns", Result{Paired: true, Interleaved: true, Turns: true, Centers: CentersTurns}, "median pair"},
		{"duet", Result{Paired: true, Centers: CentersDuet}, "paired iterations"},
	} {
		for _, metric := range []string{"sec/op", "allocs/op"} {
			r := c.r
			r.Metric, r.OldLabel, r.NewLabel, r.Level, r.Threshold, r.Better = metric, "628fb60~1", "628fb60", 0.99375, 0.03, -1
			if metric == "allocs/op" {
				r.Threshold = 0
			}
			title, figures := r.Header()
			for _, l := range []string{title, figures} {
				if n := len([]rune(l)); n > 120 {
					t.Errorf("%s %s: a header line of %d characters: %s", c.name, metric, n, l)
				}
			}
			if !strings.Contains(title, "99.375% CI") {
				t.Errorf("%s %s: the title does not give the level: %s", c.name, metric, title)
			}
			if !strings.Contains(figures, c.want) || !strings.HasSuffix(figures, "change = new/old - 1") {
				t.Errorf("%s %s: the second line does not say what the columns are: %s", c.name, metric, figures)
			}
		}
	}
}
