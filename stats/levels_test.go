package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLevelsGiveTheCentre checks the property the level functions exist
// for: on seeded random data with drift, ties, outliers and rounds of odd
// and even length, the ratio of the two figures is the paired estimator's
// centre, to 1e-12.
func TestLevelsGiveTheCentre(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	boot := Bootstrap{Level: 0.99, Replicates: 200}
	for trial := range 200 {
		rounds := 1 + r.IntN(8)
		old, new := make([][]float64, rounds), make([][]float64, rounds)
		for k := range rounds {
			n := 1 + r.IntN(9)
			level := math.Exp(r.NormFloat64())
			for range n {
				o := level * (1 + 0.1*r.Float64())
				v := o * (0.8 + 0.4*r.Float64())
				switch r.IntN(6) {
				case 0: // a tie with the previous pair
					if len(old[k]) > 0 {
						o, v = old[k][len(old[k])-1], new[k][len(new[k])-1]
					}
				case 1: // an outlier on one side
					v *= 5
				}
				old[k], new[k] = append(old[k], o), append(new[k], v)
			}
		}
		ratios := make([][]float64, rounds)
		for k := range rounds {
			for i := range old[k] {
				ratios[k] = append(ratios[k], new[k][i]/old[k][i])
			}
		}
		for _, c := range []struct {
			name   string
			o, n   float64
			center float64
		}{
			{"RoundLevels", fst(RoundLevels(old, new)), snd(RoundLevels(old, new)), boot.RoundRatio(old, new, rand.New(rand.NewPCG(3, 4))).Center},
			{"TurnLevels", fst(TurnLevels(old, new)), snd(TurnLevels(old, new)), TurnRatio(old, new, 0.99).Center},
			{"GeoMeanLevels", fst(GeoMeanLevels(old, new)), snd(GeoMeanLevels(old, new)), boot.GeoMeanRatio(ratios, rand.New(rand.NewPCG(3, 4))).Center},
		} {
			if got := c.n / c.o; !(math.Abs(got/c.center-1) < 1e-12) {
				t.Fatalf("trial %d: %s: new/old = %v, centre %v\nold %v\nnew %v", trial, c.name, got, c.center, old, new)
			}
		}
	}
}

// TestLevelsWinsorizedPair checks GeoMeanLevels on a run whose largest
// ratio Winsorize replaces: the figures are those of the pairs with the
// outlier's pair replaced by its neighbour, worked by hand.
func TestLevelsWinsorizedPair(t *testing.T) {
	old := [][]float64{{1, 2, 4, 8}}
	new := [][]float64{{1, 2.2, 4.8, 80}} // ratios 1, 1.1, 1.2, 10: 10 is winsorized to 1.2
	o, n := GeoMeanLevels(old, new)
	wantO := math.Pow(1*2*4*4, 0.25)
	wantN := math.Pow(1*2.2*4.8*4.8, 0.25)
	if math.Abs(o-wantO) > 1e-12 || math.Abs(n-wantN) > 1e-12 {
		t.Errorf("GeoMeanLevels = %v, %v; want %v, %v", o, n, wantO, wantN)
	}
}

// TestLevelsMedianPair checks TurnLevels on two rounds worked by hand: an
// odd round, whose middle pair by ratio is taken, and an even one, whose
// two middle pairs are averaged in logs.
func TestLevelsMedianPair(t *testing.T) {
	old := [][]float64{{1, 10, 100}, {2, 4, 8, 16}}
	new := [][]float64{{3, 11, 50}, {2, 6, 4, 20}} // ratios 3, 1.1, 0.5 and 1, 1.5, 0.5, 1.25
	o, n := TurnLevels(old, new)
	// Round 1: the pair of ratio 1.1 (10, 11); round 2: the pairs of
	// ratios 1 (2, 2) and 1.25 (16, 20).
	wantO := math.Exp((math.Log(10) + (math.Log(2)+math.Log(16))/2) / 2)
	wantN := math.Exp((math.Log(11) + (math.Log(2)+math.Log(20))/2) / 2)
	if math.Abs(o-wantO) > 1e-12 || math.Abs(n-wantN) > 1e-12 {
		t.Errorf("TurnLevels = %v, %v; want %v, %v", o, n, wantO, wantN)
	}
}

func TestLevelsUndefined(t *testing.T) {
	for _, f := range []func(o, n [][]float64) (float64, float64){RoundLevels, TurnLevels, GeoMeanLevels} {
		for _, c := range [][2][][]float64{
			{nil, nil},
			{{{1}, {}}, {{1}, {1}}},
			{{{1}, {0}}, {{1}, {1}}},
		} {
			if o, n := f(c[0], c[1]); !math.IsNaN(o) || !math.IsNaN(n) {
				t.Errorf("levels of %v, %v = %v, %v; want NaN", c[0], c[1], o, n)
			}
		}
	}
}

func fst(a, _ float64) float64 { return a }
func snd(_, b float64) float64 { return b }
