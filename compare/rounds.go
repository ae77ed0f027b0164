package compare

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/stats"
)

// Interleaved reports whether old and new are the two versions of one
// interleaved A/B session: the same run (by its id and settings) split by
// version, old holding the session's old version and new its new one,
// whatever their labels. Their processes were run in rounds, one of each
// version per round, and are compared round by round.
func Interleaved(old, new *bench.Run) bool {
	s, t := old.Settings, new.Settings
	return s[bench.SettingMode] == bench.ModeInterleaved && t[bench.SettingMode] == bench.ModeInterleaved && old.ID == new.ID &&
		s[bench.SettingOld] == t[bench.SettingOld] && s[bench.SettingNew] == t[bench.SettingNew] &&
		onlyVersion(old, s[bench.SettingOld]) && onlyVersion(new, s[bench.SettingNew])
}

// onlyVersion reports whether every measurement of r is of version v.
func onlyVersion(r *bench.Run, v string) bool {
	for i := range r.Measurements {
		if r.Measurements[i].Coord.Version != v {
			return false
		}
	}
	return true
}

// LookAlpha returns the error rate an interleaved session spent on each
// look of its sequential decision, which is the level its intervals must be
// read at; ok is false when r records none.
func LookAlpha(r *bench.Run) (alpha float64, ok bool) {
	a, err := strconv.ParseFloat(r.Settings[bench.SettingLookAlpha], 64)
	if err != nil || !(a > 0 && a < 1) {
		return 0, false
	}
	return a, true
}

// roundsRow fills in the row of an interleaved session: the processes of
// the two versions that ran in the same round (suite run) are paired, and
// stats.RoundRatio takes the geometric mean of their ratios with an interval
// over rounds, so that the machine's drift between rounds cancels. With
// turns, the processes ran at the same time taking turns, and
// stats.TurnRatio pairs their iterations too. Rounds
// with one side missing (a failed or interrupted process) are left out.
func roundsRow(row *Row, o, n *bench.Sample, opts Options, boot stats.Bootstrap, better int, turns bool) {
	row.Method = "rounds"
	if turns {
		row.Method = "turns"
	}
	byRound := make(map[int][]float64)
	for i, id := range n.IDs {
		byRound[id.SuiteRun] = n.Forks[i]
	}
	var olds, news [][]float64
	var all [2][]float64
	for i, id := range o.IDs {
		nf, ok := byRound[id.SuiteRun]
		if !ok {
			continue
		}
		olds, news = append(olds, o.Forks[i]), append(news, nf)
		all[0], all[1] = append(all[0], o.Forks[i]...), append(all[1], nf...)
	}
	row.Old = Side{Center: opts.Stat.Of(all[0]), N: len(all[0]), Forks: len(olds)}
	row.New = Side{Center: opts.Stat.Of(all[1]), N: len(all[1]), Forks: len(news)}
	row.Ratio = stats.Interval{Center: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Level: boot.Level}
	row.Resolution = math.NaN()
	if len(olds) < 2 {
		row.Verdict = TooFew
		row.Note = fmt.Sprintf("need at least 2 rounds with both versions for an interval; have %d", len(olds))
		return
	}
	if !positive(all[0]) || !positive(all[1]) {
		// Zeros (0 B/op, 0 allocs/op) have no logarithm: the same value
		// everywhere is no change, anything else is compared unpaired.
		if constant(all[0], all[1]) {
			row.Ratio = stats.Interval{Center: 1, Lo: 1, Hi: 1, Level: boot.Level}
			row.Verdict, row.Resolution = verdict(row.Ratio, opts.Threshold, better)
			return
		}
		compareRow(row, o, n, opts, boot, 2, better)
		row.Note = "values of 0: compared without the pairing"
		return
	}
	h := fnv.New64a()
	h.Write([]byte(row.Key.String()))
	r := rand.New(rand.NewPCG(opts.Seed, h.Sum64()))
	// The columns show what the ratio is built from, so that new/old
	// of them is the change (stats.RoundLevels, stats.TurnLevels).
	if turns {
		row.Ratio = stats.TurnRatio(olds, news, boot.Level)
		row.Old.Center, row.New.Center = stats.TurnLevels(olds, news)
	} else {
		row.Ratio = boot.RoundRatio(olds, news, r)
		row.Old.Center, row.New.Center = stats.RoundLevels(olds, news)
	}
	row.Verdict, row.Resolution = verdict(row.Ratio, opts.Threshold, better)
	if len(olds) < len(o.Forks) || len(news) < len(n.Forks) {
		row.Note = fmt.Sprintf("left out %d processes whose round has no process of the other version", len(o.Forks)+len(n.Forks)-2*len(olds))
	}
}

func positive(x []float64) bool {
	for _, v := range x {
		if !(v > 0) {
			return false
		}
	}
	return true
}

// constant reports whether every value of a and b is the same.
func constant(a, b []float64) bool {
	for _, x := range [][]float64{a, b} {
		for _, v := range x {
			if v != a[0] {
				return false
			}
		}
	}
	return len(a) > 0
}

// Sides returns the two sides of a comparison of inputs as mbench's
// commands take them: one input that holds two versions is compared
// within itself, old against new (Split); two inputs are the two sides,
// each of one version (Compare refuses a side that pools two).
// Its errors wrap ErrSides.
func Sides(inputs ...*bench.Run) (old, new *bench.Run, err error) {
	switch len(inputs) {
	case 1:
		old, new, err = Split(inputs[0])
	case 2:
		old, new, err = inputs[0], inputs[1], oneVersion(inputs...)
	default:
		err = fmt.Errorf("want two inputs, OLD and NEW, or one that holds two versions; got %d", len(inputs))
	}
	if err != nil {
		return nil, nil, sidesError{err}
	}
	return old, new, nil
}

// ErrSides is what the errors of Sides are (errors.Is): inputs that do
// not make the two sides of a comparison, which a command reports as a
// usage error.
var ErrSides = errors.New("inputs that are not two sides")

type sidesError struct{ error }

func (e sidesError) Is(target error) bool { return target == ErrSides }
func (e sidesError) Unwrap() error        { return e.error }

// Split returns the two versions of a run that measured two (an
// interleaved session, or `mbench run` with two labelled binaries) as the
// two sides of a comparison: the session's old and new versions, or the
// versions in the order they were first measured.
func Split(r *bench.Run) (old, new *bench.Run, err error) {
	if r.Settings[bench.SettingMode] == bench.ModeInterleaved {
		return r.Version(r.Settings[bench.SettingOld]), r.Version(r.Settings[bench.SettingNew]), nil
	}
	switch vs := r.Versions(); {
	case len(vs) < 2:
		return nil, nil, fmt.Errorf("%s holds one version; give two inputs, OLD and NEW, or one that holds two versions", r.Label)
	case len(vs) > 2:
		return nil, nil, fmt.Errorf("%s holds %d versions %q; give two inputs", r.Label, len(vs), vs)
	}
	vs := r.Versions()
	return r.Version(vs[0]), r.Version(vs[1]), nil
}
