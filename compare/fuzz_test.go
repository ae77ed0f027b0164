package compare

import (
	"testing"

	"github.com/mbench/mbench/bench"
)

// FuzzLookAlpha reads the per-look error rate a stored A/B session records
// in its settings, which any file or store can hold.
func FuzzLookAlpha(f *testing.F) {
	for _, s := range []string{"0.0125", "0", "1", "NaN", "Inf", "-0.5", "1e-300", "0x1p-4", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, ok := LookAlpha(&bench.Run{Settings: map[string]string{bench.SettingLookAlpha: s}})
		if ok != (a > 0 && a < 1) || !ok && a != 0 {
			t.Fatalf("LookAlpha(%q) = %v, %v", s, a, ok)
		}
	})
}
