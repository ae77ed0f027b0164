package shard

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mbench/mbench/bench"
)

// maxNamed is how many benchmarks a warning names before it says how many
// more there are.
const maxNamed = 3

// A Member is one of the stored runs of a label that a reader gathers into
// one result, as CheckRuns sees it.
type Member struct {
	ID string
	// Instance is the machine the run measured on.
	Instance string
	// Status is how the run ended; Complete is set when it completed.
	Status   string
	Complete bool
	// Shard, Basis and Suite are the shard the run claims (Claimed);
	// Shard is Whole for a run of the whole suite.
	Shard        Shard
	Basis, Suite string
	// Measured holds the keys the run measured, Planned those it set out
	// to measure.
	Measured, Planned map[bench.Key]bool
	// Dropped is set by CheckRuns when a complete run of the same shard
	// on the same instance replaces this one, which did not complete.
	Dropped bool
}

// Name names the run in a warning, with its shard.
func (m *Member) Name() string {
	if m.Shard.Whole() {
		return m.ID
	}
	return fmt.Sprintf("%s (shard %s)", m.ID, m.Shard)
}

// Claimed reads the shard a run's settings claim (Plan.Settings): the
// whole suite when they claim none, and an error when the claim is not a
// shard Parse reads.
func Claimed(settings map[string]string) (s Shard, basis, suite string, err error) {
	v, ok := settings[bench.SettingShard]
	if !ok {
		return Shard{}, "", "", nil
	}
	if s, err = Parse(v); err != nil {
		return Shard{}, "", "", fmt.Errorf("setting %s=%q is not i/n", bench.SettingShard, v)
	}
	return s, settings[bench.SettingShardBasis], settings[bench.SettingShardSuite], nil
}

// CheckRuns checks the runs of label that a reader gathers into one
// result, oldest first, and returns, as warnings naming the runs, what the
// reader should know. Of the runs that measured shards: runs that split
// the suite differently (by count, basis or suite), a shard measured
// twice on one instance, shards missing (of the split of the newest, with
// how many of the suite's benchmarks no run measured), and a benchmark
// measured by two different shards. Of two runs of the same shard on one
// instance, when one completed and the other did not (a failed shard run
// again), the incomplete one is marked Dropped: the reader gathers the
// complete one only. Of the runs of the whole suite: runs that set out to
// measure different benchmarks than the newest.
func CheckRuns(label string, runs []*Member) []error {
	var shards, whole []*Member
	for _, m := range runs {
		if m.Shard.Whole() {
			whole = append(whole, m)
		} else {
			shards = append(shards, m)
		}
	}
	return append(checkShards(label, shards), checkSuites(label, whole)...)
}

// checkShards checks the runs that measured shards, as CheckRuns says.
func checkShards(label string, shards []*Member) []error {
	if len(shards) == 0 {
		return nil
	}
	var warnings []error
	ref := shards[len(shards)-1]
	for _, p := range shards[:len(shards)-1] {
		var diffs []string
		if p.Shard.Count != ref.Shard.Count {
			diffs = append(diffs, fmt.Sprintf("%d vs %d shards", p.Shard.Count, ref.Shard.Count))
		}
		if p.Basis != ref.Basis {
			diffs = append(diffs, fmt.Sprintf("basis %q vs %q", p.Basis, ref.Basis))
		}
		if p.Suite != ref.Suite {
			diffs = append(diffs, fmt.Sprintf("suite %q vs %q", p.Suite, ref.Suite))
		}
		if diffs != nil {
			warnings = append(warnings, fmt.Errorf("runs %s and %s under label %s are shards of different splits (%s): their parts may overlap or leave benchmarks out",
				p.Name(), ref.Name(), label, strings.Join(diffs, "; ")))
		}
	}
	warnings = append(warnings, twice(label, shards)...)
	warnings = append(warnings, missing(label, shards, ref)...)
	return append(warnings, overlaps(label, shards)...)
}

// checkSuites checks that the runs of the whole suite set out to measure
// the same benchmarks, comparing each with the newest.
func checkSuites(label string, whole []*Member) []error {
	if len(whole) < 2 {
		return nil
	}
	var warnings []error
	ref := whole[len(whole)-1]
	for _, p := range whole[:len(whole)-1] {
		onlyP, onlyRef := difference(p.Planned, ref.Planned), difference(ref.Planned, p.Planned)
		if len(onlyP) == 0 && len(onlyRef) == 0 {
			continue
		}
		var only []string
		if len(onlyP) > 0 {
			only = append(only, "only in "+p.ID+": "+keyList(onlyP))
		}
		if len(onlyRef) > 0 {
			only = append(only, "only in "+ref.ID+": "+keyList(onlyRef))
		}
		warnings = append(warnings, fmt.Errorf("runs %s and %s under label %s measured different suites (%d vs %d benchmarks; %s)",
			p.ID, ref.ID, label, len(p.Planned), len(ref.Planned), strings.Join(only, "; ")))
	}
	return warnings
}

// difference returns the keys of a not in b.
func difference(a, b map[bench.Key]bool) []bench.Key {
	var out []bench.Key
	for k := range a {
		if !b[k] {
			out = append(out, k)
		}
	}
	return out
}

// twice warns of a shard measured twice on one instance, marking the
// incomplete runs Dropped where a complete one measured the same shard
// there.
func twice(label string, shards []*Member) []error {
	type claim struct {
		instance string
		shard    Shard
	}
	byClaim := make(map[claim][]*Member)
	var claims []claim
	for _, p := range shards {
		c := claim{p.Instance, p.Shard}
		if byClaim[c] == nil {
			claims = append(claims, c)
		}
		byClaim[c] = append(byClaim[c], p)
	}
	var warnings []error
	for _, c := range claims {
		ps := byClaim[c]
		if len(ps) < 2 {
			continue
		}
		var ids, complete, incomplete []string
		for _, p := range ps {
			ids = append(ids, p.ID)
			if p.Complete {
				complete = append(complete, p.ID)
			} else {
				incomplete = append(incomplete, p.ID+" ("+p.Status+")")
			}
		}
		w := fmt.Sprintf("runs %s under label %s all measured shard %s", strings.Join(ids, ", "), label, c.shard)
		if len(ps) == 2 {
			w = fmt.Sprintf("runs %s and %s under label %s both measured shard %s", ids[0], ids[1], label, c.shard)
		}
		if c.instance != "" {
			w += " on instance " + c.instance
		}
		if len(complete) > 0 && len(incomplete) > 0 {
			for _, p := range ps {
				p.Dropped = !p.Complete
			}
			w += fmt.Sprintf("; gathering the complete %s, leaving out %s",
				plural(len(complete), "run", "runs")+" "+strings.Join(complete, ", "), strings.Join(incomplete, ", "))
		} else {
			w += "; gathering all of them"
		}
		warnings = append(warnings, fmt.Errorf("%s", w))
	}
	return warnings
}

// missing warns of the shards of ref's split that no run kept measured,
// and of the suite's benchmarks none measured.
func missing(label string, shards []*Member, ref *Member) []error {
	present := make(map[int]bool)
	measured := make(map[bench.Key]bool)
	for _, p := range shards {
		if !p.Dropped && p.Shard.Count == ref.Shard.Count {
			present[p.Shard.Index] = true
			for k := range p.Measured {
				measured[k] = true
			}
		}
	}
	var gone []string
	for i := 1; i <= ref.Shard.Count; i++ {
		if !present[i] {
			gone = append(gone, Shard{i, ref.Shard.Count}.String())
		}
	}
	count := 0
	if c, _, ok := strings.Cut(ref.Suite, ":"); ok {
		count, _ = strconv.Atoi(c)
	}
	var w string
	if len(gone) > 0 {
		w = fmt.Sprintf("label %s: %s %s missing", label, plural(len(gone), "shard", "shards"), strings.Join(gone, ", "))
	}
	if count > len(measured) {
		if w == "" {
			w = fmt.Sprintf("label %s", label)
		}
		w += fmt.Sprintf(": %d of %d benchmarks not measured", count-len(measured), count)
	}
	if w == "" {
		return nil
	}
	return []error{fmt.Errorf("%s", w)}
}

// overlaps warns of benchmarks measured by two different shards.
func overlaps(label string, shards []*Member) []error {
	var warnings []error
	for a, p := range shards {
		for _, q := range shards[a+1:] {
			if p.Dropped || q.Dropped || p.Shard == q.Shard {
				continue
			}
			var both []bench.Key
			for k := range q.Measured {
				if p.Measured[k] {
					both = append(both, k)
				}
			}
			if len(both) > 0 {
				warnings = append(warnings, fmt.Errorf("runs %s and %s under label %s are different shards but both measured %s: %s",
					p.Name(), q.Name(), label, plural(len(both), "benchmark", "benchmarks"), keyList(both)))
			}
		}
	}
	return warnings
}

// keyList names keys sorted, at most maxNamed of them.
func keyList(keys []bench.Key) string {
	slices.SortFunc(keys, bench.Key.Compare)
	var names []string
	for _, k := range keys[:min(len(keys), maxNamed)] {
		names = append(names, k.FullName())
	}
	if len(keys) > maxNamed {
		names = append(names, fmt.Sprintf("… (%d more)", len(keys)-maxNamed))
	}
	return strings.Join(names, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
