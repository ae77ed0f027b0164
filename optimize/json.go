package optimize

import (
	"strings"

	"github.com/mbench/mbench/bench"
)

// The JSON forms of reports, which docs/formats.md specifies.

func levelsOf(l bench.Levels) levelsJSON { return levelsWith(1, l) }

type choiceJSON struct {
	Levels levelsJSON   `json:"levels"`
	Metric bench.Number `json:"metric"`
	Stable bool         `json:"stable"`
	Result bench.Number `json:"result"`
	Change bench.Number `json:"change"`
}

func (c Choice) json() choiceJSON {
	return choiceJSON{levelsWith(c.Instances, c.Levels), bench.Number(c.Metric), c.Stable, bench.Number(c.Result), bench.Number(c.Change)}
}

type summaryJSON struct {
	Iterations int          `json:"iterations"`
	Seconds    float64      `json:"seconds"`
	Saving     bench.Number `json:"saving"`
	Stable     int          `json:"stable"`
	Within1    bench.Number `json:"within1"`
	Within3    bench.Number `json:"within3"`
	Within5    bench.Number `json:"within5"`
}

func (s Summary) json() summaryJSON {
	return summaryJSON{s.Iterations, s.Time.Seconds(), bench.Number(s.Saving), s.Stable, bench.Number(s.Within1), bench.Number(s.Within3), bench.Number(s.Within5)}
}

// json is the documented JSON form of a report.
func (r *Report) json() any {
	type row struct {
		Package string     `json:"pkg"`
		Name    string     `json:"name"`
		Procs   int        `json:"procs"`
		Full    choiceJSON `json:"full"`
		Plan    choiceJSON `json:"plan"`
		Minimum choiceJSON `json:"minimum"`
		Random  choiceJSON `json:"random"`
	}
	out := struct {
		Metric     string      `json:"metric"`
		Threshold  float64     `json:"threshold"`
		IterTime   string      `json:"iter_time"`
		Levels     levelsJSON  `json:"levels"`
		Benchmarks []row       `json:"benchmarks"`
		Full       summaryJSON `json:"full"`
		Plan       summaryJSON `json:"plan"`
		Minimum    summaryJSON `json:"minimum"`
		Random     summaryJSON `json:"random"`
	}{
		Metric: r.Options.Metric.String(), Threshold: r.Options.Threshold, IterTime: r.Options.IterTime.String(),
		Levels: levelsWith(r.Instances, r.Levels), Plan: r.Plan.json(), Minimum: r.Minimum.json(), Random: r.Random.json(),
		Full: summaryJSON{Iterations: r.FullIterations, Seconds: r.FullTime.Seconds(), Stable: -1, Within1: 1, Within3: 1, Within5: 1},
	}
	for _, res := range r.Results {
		out.Benchmarks = append(out.Benchmarks, row{res.Key.Package, res.Key.Name, res.Key.Procs,
			res.Full.json(), res.Plan.json(), res.Minimum.json(), res.Random.json()})
	}
	return out
}

type countsJSON struct {
	TP       int          `json:"tp"`
	FP       int          `json:"fp"`
	FN       int          `json:"fn"`
	TN       int          `json:"tn"`
	Reversed int          `json:"reversed"`
	FPR      bench.Number `json:"fpr"`
	FNR      bench.Number `json:"fnr"`
}

func (c Counts) json() countsJSON {
	return countsJSON{c.TP, c.FP, c.FN, c.TN, c.Reversed, bench.Number(c.FPR()), bench.Number(c.FNR())}
}

type detectionJSON struct {
	Change    bench.Number `json:"change"`
	Direction string       `json:"direction"`
}

// json is the documented JSON form of a replay.
func (r *ReplayReport) json() any {
	type comparison struct {
		Package string        `json:"pkg"`
		Name    string        `json:"name"`
		Procs   int           `json:"procs"`
		Levels  levelsJSON    `json:"levels"`
		Full    detectionJSON `json:"full"`
		Plan    detectionJSON `json:"plan"`
		Outcome string        `json:"outcome"`
	}
	type pair struct {
		Old         string       `json:"old"`
		New         string       `json:"new"`
		Comparisons []comparison `json:"comparisons"`
		Counts      countsJSON   `json:"counts"`
	}
	out := struct {
		MinChange float64    `json:"min_change"`
		Level     float64    `json:"level"`
		Pairs     []pair     `json:"pairs"`
		Counts    countsJSON `json:"counts"`
	}{MinChange: r.Options.MinChange, Level: r.Options.Bootstrap.Level, Counts: r.Counts.json()}
	for _, p := range r.Pairs {
		jp := pair{Old: p.Old, New: p.New, Counts: p.Counts.json()}
		for _, c := range p.Comparisons {
			jp.Comparisons = append(jp.Comparisons, comparison{c.Key.Package, c.Key.Name, c.Key.Procs, levelsWith(c.Instances, c.Levels),
				detectionJSON{bench.Number(c.Full.Change), c.Full.Direction.String()},
				detectionJSON{bench.Number(c.Plan.Change), c.Plan.Direction.String()},
				strings.ReplaceAll(c.Outcome().word(), " ", "-")})
		}
		out.Pairs = append(out.Pairs, jp)
	}
	return out
}
