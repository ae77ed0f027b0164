package run

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mbench/mbench/compare"
	"github.com/mbench/mbench/stop"
)

// Stop codes, a run summary's short account of why a benchmark stopped;
// StopLegend explains the ones a summary uses, and the full reason of each
// benchmark is stored with the run (settings stop/<benchmark>).
const (
	stopStable  = "settled"    // the criterion found the forks stable
	stopMax     = "fork limit" // -f-max reached first
	stopFixed   = "all forks"  // a fixed configuration: -criterion static, -levels, -plan
	stopPartial = "cut short"  // the run ended before the benchmark did
	stopFailed  = "FAILED"     // a fork failed
	stopNone    = "no results" // no fork produced a measurement
	stopLevels  = "levels "    // prefix of a fixed configuration's own levels (-levels, -plan)
)

// StopCode says in a word or two why r stopped: settled, fork limit, all
// forks, cut short, FAILED, no results, or the levels of its fixed
// configuration ("levels 2,3,5").
func StopCode(r *Result) string {
	rep := r.Report
	switch {
	case r.Failed():
		return stopFailed
	case rep.Forks == 0 || rep.Measured == 0:
		return stopNone
	case rep.Criterion == stop.Static{}.Name() && strings.HasPrefix(rep.Reason, stopLevels):
		return rep.Reason // short, and it differs per benchmark under -plan
	case rep.Criterion == stop.Static{}.Name():
		return stopFixed
	case !rep.Done:
		return stopPartial
	case rep.Stable:
		return stopStable
	}
	return stopMax
}

// A Legend explains a stop code.
type Legend struct{ Code, Text string }

// StopLegend explains each of codes, once and in a fixed order, for a run
// with options o. The levels of fixed configurations share one entry.
func StopLegend(codes []string, o *Options) []Legend {
	all := []Legend{
		{stopStable, SettledWords(o)},
		{stopMax, fmt.Sprintf("-f-max %d forks ran and the results had not settled; more forks may narrow the interval", o.Config.ForksMax)},
		{stopFixed, "every fork of a fixed configuration ran (-criterion static, -levels, -plan)"},
		{stopPartial, "the run ended before the benchmark did"},
		{stopFailed, "a fork failed; its error is below"},
		{stopNone, "no fork produced a measurement"},
		{stopLevels + "S,I,D", "every fork of a fixed configuration ran: S suite runs × I forks × D iterations"},
	}
	var out []Legend
	for _, l := range all {
		if slices.ContainsFunc(codes, func(c string) bool {
			return c == l.Code || strings.HasPrefix(l.Code, stopLevels) && strings.HasPrefix(c, stopLevels)
		}) {
			out = append(out, l)
		}
	}
	return out
}

// SettledWords says in plain words when the criterion of o finds a
// benchmark's forks stable, as -criterion and its threshold set it: "one
// more fork changed the results' coefficient of variation by at most 1%
// (-criterion cv)".
func SettledWords(o *Options) string {
	t := o.CriterionOptions
	switch o.Criterion {
	case stop.CV{}.Name():
		return fmt.Sprintf("one more fork changed the results' coefficient of variation by at most %s (-criterion cv)", compare.Percent(t.CVThreshold)+"%")
	case stop.RCIW{}.Name():
		return fmt.Sprintf("one more fork changed the relative width of the results' confidence interval by at most %s (-criterion rciw)", compare.Percent(t.RCIWThreshold)+"%")
	case stop.KLD{}.Name():
		return fmt.Sprintf("one more fork left the distribution of the results alike, with probability above %g (-criterion kld)", t.KLDThreshold)
	}
	return "the results settled (-criterion " + o.Criterion + ")"
}

// A NoteGroup is one warning about the results and the benchmarks it
// applies to. A warning repeated for every line of a table teaches users to
// skip warnings; grouped, each is shown once.
type NoteGroup struct {
	Problem, Advice string
	// Names are the benchmarks', each with its own figure when the note
	// has one ("Sort-2 (1.8x)").
	Names []string
}

// String puts the group in a line: "problem in N benchmarks: a, b; advice",
// or "name: problem; advice" for a single benchmark.
func (g *NoteGroup) String() string {
	line := g.Names[0] + ": " + g.Problem
	if len(g.Names) > 1 {
		line = fmt.Sprintf("%s in %d benchmarks: %s", g.Problem, len(g.Names), strings.Join(g.Names, ", "))
	}
	return line + "; " + g.Advice
}

// Notes returns the warnings about results, from the stop controller and
// the hygiene checks (ResultWarnings in metric), grouped by warning in the
// order they first occur. name names a result's benchmark.
func Notes(results []*Result, metric string, name func(*Result) string) []*NoteGroup {
	var groups []*NoteGroup
	byKey := make(map[string]*NoteGroup)
	for _, r := range results {
		ns := ResultWarnings(r, metric)
		if !r.Failed() {
			// A failed benchmark stopped for its failure, reported apart.
			ns = append(r.Report.Warnings(), ns...)
		}
		for _, n := range ns {
			key := n.Problem + "\x00" + n.Advice
			g, ok := byKey[key]
			if !ok {
				g = &NoteGroup{Problem: n.Problem, Advice: n.Advice}
				byKey[key] = g
				groups = append(groups, g)
			}
			label := name(r)
			if n.Detail != "" {
				label += " (" + n.Detail + ")"
			}
			g.Names = append(g.Names, label)
		}
	}
	return groups
}
