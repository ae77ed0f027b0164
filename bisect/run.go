package bisect

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/mbench/mbench/ab"
	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/internal/gitrev"
	"github.com/mbench/mbench/run"
	"github.com/mbench/mbench/store"
)

// Config says what a bisection of git revisions looks for. Start from
// DefaultConfig.
type Config struct {
	// Good and Bad are git revisions, Good before the change and an
	// ancestor of Bad, which has it. The commits searched are those of
	// the first-parent line from Good to Bad.
	Good, Bad string
	// AllParents, when a change is found at a merge commit, searches the
	// commits the merge brings in (the first-parent line of its second
	// parent), against the merge's first parent, for the one that brought
	// the change; and so on into merges found there.
	AllParents bool
	// Session is the template of every comparison, an interleaved ab
	// session: the module (Dir, Packages), the build, the rounds, and
	// Bench, the benchmarks. Its Compare.Threshold is the smallest change
	// that counts and Compare.Alpha a session's error rate. The bisection
	// sets its versions, labels and Resume.
	Session ab.Options
	// Search configures the search; a StepError of 0 takes
	// Session.Compare.Alpha.
	Search Options
	// Resume continues the bisection whose sessions were stored last:
	// Good, Bad, the benchmarks, packages and search options are taken
	// from them.
	Resume bool
	// Log receives the bisection's log as it goes (see Report.WriteLog);
	// nil discards it.
	Log io.Writer
}

// DefaultConfig is `mbench bisect` without flags: a slowdown, with ab's
// sessions.
var DefaultConfig = Config{Session: ab.DefaultOptions, Search: func() Options {
	o := DefaultOptions
	o.StepError = 0
	return o
}()}

// settings are the bisection's settings recorded with each session.
func (c *Config) settings() map[string]string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return map[string]string{
		bench.SettingBisectGood:       c.Good,
		bench.SettingBisectBad:        c.Bad,
		bench.SettingBisectBench:      c.Session.Bench,
		bench.SettingBisectPackages:   strings.Join(c.Session.Packages, "\n"),
		bench.SettingBisectThreshold:  f(c.Session.Compare.Threshold),
		bench.SettingBisectAlpha:      f(c.Session.Compare.Alpha),
		bench.SettingBisectDirection:  c.Search.Direction.String(),
		bench.SettingBisectConfidence: f(c.Search.Confidence),
		bench.SettingBisectStepError:  f(c.Search.StepError),
		bench.SettingBisectMaxSteps:   strconv.Itoa(c.Search.MaxSteps),
	}
}

// resume sets c to the settings of the bisection whose session db stored
// last.
func (c *Config) resume(db *store.Store) error {
	infos, err := db.Runs()
	if err != nil {
		return err
	}
	for _, ri := range infos {
		r, err := db.Load(ri.ID)
		if err != nil {
			return err
		}
		set := r.Settings
		if set[bench.SettingBisectGood] == "" {
			continue
		}
		var errs []error
		float := func(key string, dst *float64) {
			v, err := strconv.ParseFloat(set[key], 64)
			if err != nil {
				errs = append(errs, fmt.Errorf("setting %s: %v", key, err))
			}
			*dst = v
		}
		c.Good, c.Bad, c.Session.Bench = set[bench.SettingBisectGood], set[bench.SettingBisectBad], set[bench.SettingBisectBench]
		c.Session.Packages = nil
		if p := set[bench.SettingBisectPackages]; p != "" {
			c.Session.Packages = strings.Split(p, "\n")
		}
		float(bench.SettingBisectThreshold, &c.Session.Compare.Threshold)
		float(bench.SettingBisectAlpha, &c.Session.Compare.Alpha)
		float(bench.SettingBisectConfidence, &c.Search.Confidence)
		float(bench.SettingBisectStepError, &c.Search.StepError)
		c.Search.Direction = Slower
		if set[bench.SettingBisectDirection] == Faster.String() {
			c.Search.Direction = Faster
		}
		if c.Search.MaxSteps, err = strconv.Atoi(set[bench.SettingBisectMaxSteps]); err != nil {
			errs = append(errs, fmt.Errorf("setting %s: %v", bench.SettingBisectMaxSteps, err))
		}
		if err := errors.Join(errs...); err != nil {
			return fmt.Errorf("run %s: %v", ri.ID, err)
		}
		return nil
	}
	return fmt.Errorf("no bisection is stored in %s", db.Name())
}

// A Report is the outcome of a bisection of git revisions.
type Report struct {
	// Result is the search's; nil when the benchmarks are missing at the
	// good commit (Introduced).
	*Result
	// Path are the commits searched, Path[0] the good one.
	Path []gitrev.Commit
	// Good and Bad are the revisions as given.
	Good, Bad string
	// Introduced, when the benchmarks do not exist at the good commit, is
	// the first commit of Path where they do (0 when none was found);
	// Missing names them.
	Introduced int
	Missing    []string
	// Warnings are problems met on the way.
	Warnings []string
	// DB names the store.
	DB string
	// Merge, in the report of a merge's side (Sides), is the merge
	// commit; Sides are the searches of the sides of merges found as
	// changes, with Config.AllParents.
	Merge *gitrev.Commit
	Sides []*Report

	cfg    Config
	labels map[pair][]string
	keys   map[string]bench.Key
	// names are the benchmarks' names as `go test` prints them, by the
	// names of Row.
	names map[string]string
	steps int
}

// Run bisects cfg's revisions: it confirms that Bad is slower (or
// faster) than Good, finds the first commit at which the benchmarks
// changed, and checks for more changes (Bisect), each comparison an ab
// session stored in db. Bisecting the same revisions again reuses the
// stored sessions; an interrupted one is resumed. The user's working
// tree, index, branches and `git bisect` state are never touched: every
// commit is built in a scratch clone (ab, internal/gitrev). The report
// holds what was learned also when Run returns an error.
func Run(ctx context.Context, cfg Config, db *store.Store) (*Report, error) {
	if cfg.Resume {
		if err := cfg.resume(db); err != nil {
			return nil, err
		}
	}
	if cfg.Good == "" || cfg.Bad == "" {
		return nil, errors.New("give the good and the bad revision: -good REV -bad REV")
	}
	if cfg.Search.StepError == 0 {
		cfg.Search.StepError = cfg.Session.Compare.Alpha
	}
	if err := cfg.Search.Validate(); err != nil {
		return nil, err
	}
	check := cfg.Session
	check.OldRev, check.OldBin, check.NewBin, check.Resume = cfg.Good, "", "", ""
	if err := check.Check(); err != nil {
		return nil, err
	}
	if cfg.Session.Dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		cfg.Session.Dir = wd
	}
	path, err := gitrev.Path(ctx, cfg.Session.Dir, cfg.Good, cfg.Bad, true)
	if err != nil {
		return nil, err
	}
	// The sessions record the commits, whatever names they were given by.
	given := [2]string{cfg.Good, cfg.Bad}
	cfg.Good, cfg.Bad = path[0].Hash, path[len(path)-1].Hash
	rep := &Report{Path: path, Good: given[0], Bad: given[1], DB: db.Name(), cfg: cfg, names: map[string]string{}}
	o := &sessions{cfg: &rep.cfg, db: db, path: path, keys: map[string]bench.Key{}, labels: map[pair][]string{}}
	rep.labels, rep.keys = o.labels, o.keys
	opts := cfg.Search
	opts.Log = func(st Step) {
		rep.steps++
		if cfg.Log != nil {
			rep.writeStep(cfg.Log, st, o)
		}
	}
	if cfg.Log != nil {
		rep.writeHead(cfg.Log)
	}
	res, err := Bisect(ctx, o, len(path)-1, opts)
	rep.Result = res
	rep.Warnings = o.warnings
	for name, k := range o.keys {
		rep.names[name] = k.FullName()
	}
	if me := o.missing; err != nil && res != nil && len(res.Steps) > 0 && res.Steps[0].Outcome.Failed != nil &&
		res.Steps[0].Outcome.Failed.Commit == 0 && me != nil && len(me.OnlyNew) > 0 {
		return rep, rep.introduced(ctx, me)
	}
	if err != nil {
		return rep, err
	}
	if cfg.Log != nil {
		rep.writeEnd(cfg.Log)
	}
	if err := rep.mark(db); err != nil {
		return rep, err
	}
	if cfg.AllParents {
		return rep, rep.descend(ctx, db, 0)
	}
	return rep, nil
}

// mark records, with the session that compared each change's first
// commit with the reference of its search, what the bisection found there
// (bench.SettingBisectMark), for the history of the sessions to show.
func (rep *Report) mark(db *store.Store) error {
	for _, c := range rep.Changes {
		if !c.Found {
			continue
		}
		label := rep.historyLabel(c, c.Culprit)
		if label == "" {
			continue
		}
		id, err := db.Resolve(store.LabelPrefix + label)
		if err != nil {
			return err
		}
		mark := fmt.Sprintf("first %s commit of %s..%s (bisect), probability %s", c.Direction, rep.short(c.From), rep.short(c.To), prob(c.Prob))
		if err := db.SetSettings(id, map[string]string{bench.SettingBisectMark: mark}); err != nil {
			return err
		}
	}
	return nil
}

// maxDepth bounds how deep into merges of merges a bisection descends.
const maxDepth = 4

// descend searches the side of every merge commit found as a change:
// the commits the merge brings in, between the merge's first parent (the
// good end, as the change's parent) and the merge (the bad end).
func (rep *Report) descend(ctx context.Context, db *store.Store, depth int) error {
	if depth >= maxDepth || rep.Result == nil {
		return nil
	}
	for _, c := range rep.Changes {
		m := rep.Path[c.Culprit]
		if !c.Found || len(m.Parents) < 2 || c.Size == nil {
			continue
		}
		side, err := gitrev.Side(ctx, rep.cfg.Session.Dir, m.Hash)
		if err != nil {
			return err
		}
		parent, err := gitrev.CommitOf(ctx, rep.cfg.Session.Dir, m.Parents[0])
		if err != nil {
			return err
		}
		path := append(append([]gitrev.Commit{parent}, side...), m)
		sub := &Report{Path: path, Good: parent.Short(), Bad: m.Short(), DB: rep.DB, cfg: rep.cfg, Merge: &path[len(path)-1], names: rep.names}
		sub.cfg.Search.Direction = c.Direction
		o := &sessions{cfg: &sub.cfg, db: db, path: path, keys: map[string]bench.Key{}, labels: map[pair][]string{}}
		sub.labels = o.labels
		opts := sub.cfg.Search
		// The side's endpoints are the merge and its parent, whose
		// comparison measured what changed: compare the same.
		for _, r := range c.Size.Rows {
			opts.Bench = append(opts.Bench, r.Name)
		}
		o.keys = maps.Clone(rep.keys)
		log := rep.cfg.Log
		opts.Log = func(st Step) {
			sub.steps++
			if log != nil {
				sub.writeStep(log, st, o)
			}
		}
		if log != nil {
			fmt.Fprintf(log, "# the change is the merge %s: searching the %d commits it brings in\n", sub.commit(len(path)-1), len(side))
			sub.writeHead(log)
		}
		rep.Sides = append(rep.Sides, sub)
		res, err := Bisect(ctx, o, len(path)-1, opts)
		sub.Result = res
		sub.Warnings = o.warnings
		for name, k := range o.keys {
			sub.names[name] = k.FullName()
		}
		if err != nil {
			return err
		}
		if log != nil {
			sub.writeEnd(log)
		}
		if err := sub.mark(db); err != nil {
			return err
		}
		if err := sub.descend(ctx, db, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// introduced finds the first commit of the path at which the benchmarks
// missing at the good commit exist, by a binary search over the commits
// that lists their benchmarks (which does not depend on timing), and
// returns the error that ends the bisection there.
func (rep *Report) introduced(ctx context.Context, me *ab.MissingError) error {
	var patterns []string
	for _, k := range me.OnlyNew {
		rep.Missing = append(rep.Missing, k.FullName())
		patterns = append(patterns, run.Anchored(k.Name))
	}
	slices.Sort(patterns)
	pattern := strings.Join(slices.Compact(patterns), "|")
	o := rep.cfg.Session
	opts := run.BuildOptions{Dir: o.Dir, Tags: o.Tags, GCFlags: o.GCFlags, CacheDir: o.CacheDir, Log: o.Log}
	exists := func(i int) (bool, error) {
		v, err := ab.BuildRevision(ctx, rep.Path[i].Hash, o.Packages, opts)
		var re *ab.RevisionError
		if errors.As(err, &re) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		defer v.Close()
		found := 0
		for j := range v.Binaries {
			ts, err := run.Discover(ctx, &v.Binaries[j], pattern, nil, nil, o.Timeout)
			if ctx.Err() != nil {
				return false, ctx.Err()
			}
			if err == nil {
				found += len(ts)
			}
		}
		return found >= len(me.OnlyNew), nil
	}
	// The benchmarks exist at the last commit and not at the first.
	lo, hi := 0, len(rep.Path)-1
	for hi-lo > 1 {
		m := (lo + hi) / 2
		ok, err := exists(m)
		if err != nil {
			return err
		}
		if ok {
			hi = m
		} else {
			lo = m
		}
	}
	rep.Introduced = hi
	c := rep.Path[hi]
	if rep.cfg.Log != nil {
		fmt.Fprintf(rep.cfg.Log, "# %s first exist at [%s] %s\n", strings.Join(rep.Missing, ", "), c.Short(), c.Subject)
	}
	return fmt.Errorf("%s do not exist at %s: they first exist at %s (%s), where the search ends; to bisect from there, give -good %s",
		strings.Join(rep.Missing, ", "), rep.Good, c.Short(), c.Subject, c.Short())
}
