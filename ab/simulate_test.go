package ab

import (
	"bufio"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mbench/mbench/stats"
)

// recordedRounds reads the rounds of A/A sessions in turns recorded on a
// shared 2-core VM (testdata/rounds, written by eval/ab/trace rounds from
// stored sessions), by benchmark: each round the measured sec/op of the
// two processes' iterations, in the order they took turns.
func recordedRounds(t *testing.T) map[string][][2][]float64 {
	t.Helper()
	files, err := filepath.Glob("testdata/rounds/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded rounds: %v", err)
	}
	out := map[string][][2][]float64{}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var r struct {
				Name     string
				Old, New []float64
			}
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			name := filepath.Base(f) + ":" + r.Name
			out[name] = append(out[name], [2][]float64{r.Old, r.New})
		}
		fh.Close()
	}
	return out
}

// TestTurnsErrorControl checks the error control of the sequential
// decision in turns on this machine's own noise: sessions are drawn from
// recorded A/A rounds (with replacement, each round's two processes
// swapped at random, so that the truth of the drawn world is exactly no
// change), and a change of f is injected by scaling every iteration of
// the new version by 1+f, which moves every quantile's ratio, the
// estimand's included, to exactly 1+f. Each session takes the looks of
// DefaultConfig and stops at the first decided verdict, as ab does. The
// interval where it stopped must cover 1+f in at least 95% of sessions
// (the nominal level over the whole decision), and no A/A session may be
// called changed more often than 5%.
func TestTurnsErrorControl(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates thousands of sessions")
	}
	pools := recordedRounds(t)
	cfg := DefaultConfig
	seq := stats.NewSequence(cfg.Compare.Alpha, cfg.MinRounds, cfg.MaxRounds)
	level := 1 - seq.LookAlpha()
	const sessions = 400
	names := make([]string, 0, len(pools))
	for n, p := range pools {
		if len(p) >= cfg.MinRounds {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	if len(names) == 0 {
		t.Fatal("no benchmark with enough recorded rounds")
	}
	for _, f := range []float64{0, 0.02, 0.05} {
		var covered, decided, wrong, n int
		for bi, name := range names {
			pool := pools[name]
			r := rand.New(rand.NewPCG(uint64(bi), math.Float64bits(f)))
			for range sessions {
				var old, new [][]float64
				var iv stats.Interval
				for _, look := range seq.Looks {
					for len(old) < look {
						k := pool[r.IntN(len(pool))]
						o, w := k[0], k[1]
						if r.IntN(2) == 1 {
							o, w = w, o
						}
						scaled := make([]float64, len(w))
						for i, v := range w {
							scaled[i] = v * (1 + f)
						}
						old, new = append(old, o), append(new, scaled)
					}
					iv = stats.TurnRatio(old, new, level)
					if Decided(iv, cfg.Compare.Threshold) {
						break
					}
				}
				n++
				if iv.Lo <= 1+f && 1+f <= iv.Hi {
					covered++
				}
				if Decided(iv, cfg.Compare.Threshold) {
					decided++
					th := cfg.Compare.Threshold
					change := !iv.Contains(1) && (iv.Center > 1+th || iv.Center < 1-th)
					if change && (f == 0 || iv.Center < 1) {
						wrong++
					}
				}
			}
		}
		cover := float64(covered) / float64(n)
		t.Logf("f=%+.0f%%: %d sessions over %d benchmarks: interval covers 1+f in %.1f%%, decided %.1f%%, wrong changes %.2f%%",
			100*f, n, len(names), 100*cover, 100*float64(decided)/float64(n), 100*float64(wrong)/float64(n))
		if cover < 0.95 {
			t.Errorf("f=%+.0f%%: coverage %.1f%%, want at least 95%%", 100*f, 100*cover)
		}
		if rate := float64(wrong) / float64(n); rate > 0.05 {
			t.Errorf("f=%+.0f%%: %.2f%% of sessions called a change of the wrong sign or an A/A change, want at most 5%%", 100*f, 100*rate)
		}
	}
}
