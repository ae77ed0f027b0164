package compare

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mbench/mbench/bench"
)

// session returns an interleaved session of rounds rounds of one
// benchmark: old and new processes of each round share the round's level,
// which drifts by 20% from round to round, and new is ratio times slower.
func session(rounds int, ratio float64) *bench.Run {
	r := rand.New(rand.NewPCG(1, 2))
	run := &bench.Run{Label: "a..b", Settings: map[string]string{
		bench.SettingMode: bench.ModeInterleaved, bench.SettingOld: "a", bench.SettingNew: "b", bench.SettingLookAlpha: "0.01"}}
	key := bench.Key{Name: "X"}
	for k := 1; k <= rounds; k++ {
		level := math.Exp(0.2 * r.NormFloat64())
		for _, v := range []struct {
			name  string
			scale float64
		}{{"a", 1}, {"b", ratio}} {
			for i := range 5 {
				m := bench.Measurement{Key: key, N: 1, Coord: bench.Coord{Version: v.name, SuiteRun: k, Fork: 1, Iteration: i},
					Values: []bench.Value{{Value: v.scale * level * (1 + 0.01*r.NormFloat64()), Unit: "sec/op"}}}
				run.Measurements = append(run.Measurements, m)
			}
		}
	}
	return run
}

// TestInterleavedSession checks that a session split by version is
// compared round by round: a drift of 20% between rounds does not hide a
// 5% slowdown, which the same data compared unpaired cannot show.
func TestInterleavedSession(t *testing.T) {
	run := session(10, 1.05)
	old, new, err := Split(run)
	if err != nil {
		t.Fatal(err)
	}
	if !Interleaved(old, new) || old.Label != "a" || new.Label != "b" {
		t.Fatalf("Split gave %q and %q, interleaved %v", old.Label, new.Label, Interleaved(old, new))
	}
	if a, ok := LookAlpha(run); !ok || a != 0.01 {
		t.Errorf("LookAlpha = %v, %v; want 0.01", a, ok)
	}
	opts := DefaultOptions
	res, err := Compare(old, new, opts)
	if err != nil {
		t.Fatal(err)
	}
	row := res.Rows[0]
	if row.Method != "rounds" || row.Verdict != Worse || !row.Ratio.Contains(1.05) || row.Ratio.RelWidth() > 0.05 {
		t.Errorf("paired: %s %v %v, want slower by about 5%% with a narrow interval", row.Method, row.Verdict.Word("sec/op"), row.Ratio)
	}
	if !res.Interleaved || len(res.Warnings) != 0 {
		t.Errorf("Interleaved %v, warnings %q", res.Interleaved, res.Warnings)
	}
	// The same data as two runs of no session are independent samples.
	delete(old.Settings, bench.SettingMode) // Version shares the settings map
	unpaired, err := Compare(old, new, opts)
	if err != nil {
		t.Fatal(err)
	}
	if u := unpaired.Rows[0]; u.Method == "rounds" || u.Verdict == Worse {
		t.Errorf("unpaired: %s %v, want no slower verdict through 20%% drift", u.Method, u.Verdict.Word("sec/op"))
	}
}

func TestSplit(t *testing.T) {
	run := session(3, 1)
	delete(run.Settings, bench.SettingMode)
	old, new, err := Split(run)
	if err != nil || old.Label != "a" || new.Label != "b" {
		t.Errorf("Split of a two-version run: %v, %v, %v", old, new, err)
	}
	run.Measurements = run.Measurements[:5]
	if _, _, err := Split(run); err == nil || !strings.Contains(err.Error(), "holds one version") {
		t.Errorf("Split of a one-version run: %v", err)
	}
}

// TestRoundsMissing checks that a round with one version only (an
// interrupted session) is left out and named.
func TestRoundsMissing(t *testing.T) {
	run := session(6, 1)
	run.Measurements = run.Measurements[:len(run.Measurements)-5] // the last round's new process
	old, new, _ := Split(run)
	res, err := Compare(old, new, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if row := res.Rows[0]; row.Old.Forks != 5 || !strings.Contains(row.Note, "left out 1 processes") {
		t.Errorf("forks %d, note %q; want 5 paired rounds and the unpaired one named", row.Old.Forks, row.Note)
	}
}
