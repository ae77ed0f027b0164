package stats

import (
	"math"
	"testing"
)

func TestWelch(t *testing.T) {
	a := []float64{12.1, 11.8, 12.6, 12.0, 12.3}
	b := []float64{13.0, 13.9, 12.8, 13.5, 14.1, 13.2}
	// Reference values from SciPy 1.10: scipy.stats.ttest_ind(b, a,
	// equal_var=False).pvalue, and d ∓ scipy.stats.t.ppf(1−α/2, df)·se
	// with the Welch–Satterthwaite df (8.2896); tolerance 1e-9.
	for _, c := range []struct{ level, lo, hi float64 }{
		{0.95, 0.6849786206099974, 1.8283547127233346},
		{0.99, 0.42818778975689853, 2.0851455435764334},
	} {
		iv, p := Welch(a, b, c.level)
		if math.Abs(iv.Center-1.256666666666666) > 1e-9 || math.Abs(iv.Lo-c.lo) > 1e-9 || math.Abs(iv.Hi-c.hi) > 1e-9 {
			t.Errorf("Welch at %v = %+v, want [%v, %v] around 1.2567", c.level, iv, c.lo, c.hi)
		}
		if math.Abs(p-0.0009010947385031979) > 1e-9 {
			t.Errorf("p = %v, want 0.000901095", p)
		}
	}
	// Swapping the samples negates the difference.
	iv, _ := Welch(b, a, 0.95)
	if math.Abs(iv.Lo+1.8283547127233346) > 1e-9 || math.Abs(iv.Hi+0.6849786206099974) > 1e-9 {
		t.Errorf("swapped: %+v", iv)
	}
}

func TestWelchDegenerate(t *testing.T) {
	iv, p := Welch([]float64{2, 2, 2}, []float64{3, 3}, 0.95)
	if iv.Lo != 1 || iv.Hi != 1 || p != 0 {
		t.Errorf("constant samples that differ: %+v p %v, want the point 1 and p 0", iv, p)
	}
	iv, p = Welch([]float64{2, 2}, []float64{2, 2}, 0.95)
	if iv.Center != 0 || p != 1 {
		t.Errorf("equal constant samples: %+v p %v, want 0 and p 1", iv, p)
	}
	iv, p = Welch([]float64{1}, []float64{2, 3}, 0.95)
	if !math.IsNaN(iv.Lo) || !math.IsNaN(p) || iv.Center != 1.5 {
		t.Errorf("one value on a side: %+v p %v, want NaN bounds around 1.5", iv, p)
	}
}
