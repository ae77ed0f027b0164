package ab

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/compare"
	"github.com/mbench/mbench/duet"
	"github.com/mbench/mbench/run"
	"github.com/mbench/mbench/shard"
	"github.com/mbench/mbench/stats"
	"github.com/mbench/mbench/store"
	"golang.org/x/sys/unix"
)

// A Config says what an interleaved session compares and how long it may
// take. Start from DefaultConfig.
type Config struct {
	// Old and New are the two versions' test binaries, one per package
	// (see Build), and their labels.
	Old, New           []run.Binary
	OldLabel, NewLabel string
	// Bench selects the benchmarks, as -test.bench does.
	Bench string
	// Pairing is how a round pairs the versions: PairingTurns (two live
	// processes taking turns iteration by iteration; it needs test
	// binaries built with the probe, Probed) or PairingProcesses (one
	// process of each, back to back).
	Pairing string
	// Probed reports whether Old and New carry the testing-package probe
	// (run.BuildProbed); without it a session pairs processes.
	Probed bool
	// Iter is the target duration of one iteration; Iterations the
	// measured iterations per process, after Warmup discarded ones.
	// MinOps is the fewest operations an iteration runs, whatever their
	// length: with two or more, the timed run is never a process's first
	// call of the benchmark, which the testing package makes untimed.
	Iter       time.Duration
	Iterations int
	Warmup     int
	MinOps     int
	// MinRounds and MaxRounds are the first and the last look of the
	// sequential decision (stats.NewSequence). Budget, when positive, ends
	// the session once the next round would not fit in it; when it is 0,
	// BenchmarkBudget times the number of benchmarks does (0: no limit).
	// Benchmarks decided early leave their share to the others.
	MinRounds, MaxRounds int
	Budget               time.Duration
	BenchmarkBudget      time.Duration
	// Timeout ends a process that runs longer.
	Timeout time.Duration
	// Benchmem also records B/op and allocs/op.
	Benchmem bool
	// Compare holds the analysis settings: Alpha is the error rate of the
	// whole sequential decision, spent over its looks.
	Compare compare.Options
	// Instance names the machine in the measurements' coordinates.
	Instance string
	// Log receives progress lines; nil discards them.
	Log io.Writer
	// Progress, if not nil, is called as each benchmark of a round
	// starts.
	Progress func(Progress)
	// Shard, unless it is the whole suite, compares one part of the
	// benchmarks both versions have (shard.Take), balanced by the basis
	// ShardBasis names or shard.FindBasis finds in the store.
	Shard      shard.Shard
	ShardBasis string
	// shardLog, if not nil, gets the shard's plan instead of Log.
	shardLog io.Writer
	// warnings are problems found before the session, for its Warnings;
	// noise is what mbench doctor -noise saw of the machine, for Note.
	warnings []string
	noise    string
}

// DefaultConfig holds the defaults of `mbench ab`, chosen by measurement
// (docs/eval/ab.md). A round is two live processes, one per version,
// taking turns: each of their 2 + 24 iterations of about 5ms is timed
// right after the other version's, so a slow phase of the machine, which
// lasts far longer than two iterations, slows both sides of a pair alike.
// Many short pairs give the round's median more to stand on than a few
// long ones in the same time; the two warm-up iterations and at least two
// operations per iteration put every benchmark in the steady state `go
// test` measures. Ten rounds before the first look give the interval's t
// nine degrees of freedom. The budget of 10s per benchmark, less than `go
// test -count 10` of both versions takes (docs/eval/ab.md), bounds the
// sessions of benchmarks that stay undecided; at about half a second a round it holds
// some 20 rounds, so the looks stop at 40 (10, 15, 23, 40).
var DefaultConfig = Config{
	Bench:           ".",
	Pairing:         PairingTurns,
	Iter:            5 * time.Millisecond,
	Iterations:      24,
	Warmup:          2,
	MinOps:          2,
	MinRounds:       10,
	MaxRounds:       40,
	BenchmarkBudget: 10 * time.Second,
	Timeout:         2 * time.Minute,
	Benchmem:        true,
	Compare: func() compare.Options {
		o := compare.DefaultOptions
		o.Alpha = 0.05
		return o
	}(),
}

// How a round pairs the two versions (Config.Pairing).
const (
	// PairingTurns runs one process of each version at the same time,
	// taking turns iteration by iteration through the probe's barrier
	// (duet.PairSpec.Turns), both on the same CPUs and at the
	// benchmark's GOMAXPROCS; a round's ratio is the median of its
	// paired iterations' ratios (stats.TurnRatio).
	PairingTurns = bench.PairingTurns
	// PairingProcesses runs one process of each version back to back; a
	// round's ratio is that of the processes' mean times
	// (stats.RoundRatio).
	PairingProcesses = bench.PairingProcesses
)

// Progress is where a session stands, for a progress line.
type Progress struct {
	// Round is the round going on; Benchmark the benchmark it runs now,
	// the Index-th of Active in the round.
	Round         int
	Benchmark     bench.Key
	Index, Active int
	// Decided counts the benchmarks whose verdict is decided, of Total.
	Decided, Total int
	// Elapsed is the session's time so far; Budget its limit (0: none).
	Elapsed, Budget time.Duration
}

// String says where the session is in words, for a status line: "round
// 3, benchmark 2 of 5: Sort-2; 1 of 7 decided; at most 1m20s left by
// the budget".
func (p Progress) String() string {
	s := fmt.Sprintf("round %d, benchmark %d of %d: %s; %d of %d decided", p.Round, p.Index, p.Active,
		strings.TrimPrefix(p.Benchmark.FullName(), "Benchmark"), p.Decided, p.Total)
	if p.Budget > 0 {
		s += fmt.Sprintf("; at most %v left by the budget", max(0, p.Budget-p.Elapsed).Round(time.Second))
	}
	return s
}

// Why a benchmark stopped.
const (
	StopDecided   = "decided"
	StopMaxRounds = "max rounds"
	StopBudget    = "budget"
	StopFailed    = "failed"
	StopCancelled = "interrupted"
)

// A Benchmark is one benchmark of a session.
type Benchmark struct {
	Key bench.Key
	// N is the operations per iteration, the same for both versions.
	N int
	// Iterations is the measured iterations per process in rounds in
	// turns: Config.Iterations, or fewer, down to minTurnIterations, when
	// MinOps operations last longer than Config.Iter, so that a round of
	// a benchmark of milliseconds per operation lasts about as long as
	// any other's.
	Iterations int
	// Rounds counts the rounds in which both versions ran.
	Rounds int
	// Stop says why no more rounds were run ("" while it goes on).
	Stop string
	// Err is the failure that ended it, naming the version; FailedOn is
	// that version's label, or "both versions".
	Err      error
	FailedOn string

	old, new run.Target
}

// A Session is an interleaved comparison of two versions, stored as one
// run.
type Session struct {
	ID       string
	Run      *bench.Run
	Sequence stats.Sequence
	// Benchmarks are those present in both versions, in the order of
	// discovery.
	Benchmarks []*Benchmark
	// OnlyOld and OnlyNew are benchmarks found in one version only.
	OnlyOld, OnlyNew []bench.Key
	// Rounds is the number of rounds run; Elapsed their wall time.
	Rounds  int
	Elapsed time.Duration
	// Warnings are problems that limit the result.
	Warnings []string
	// Shard is the part of the benchmarks the session compares (Config.Shard),
	// nil for all of them.
	Shard *shard.Plan
	// Profiles says why the profiled benchmarks changed
	// (Options.Profile), and ProfileElapsed how long profiling took.
	Profiles       []*Why
	ProfileElapsed time.Duration

	cfg      Config
	db       *store.Store
	rng      *rand.Rand
	failures []string // of benchmarks not in Benchmarks
}

// Versions returns the parts of the session's run that measured the old
// and the new version, which compare.Compare pairs round by round.
func (s *Session) Versions() (old, new *bench.Run) {
	return s.Run.Version(s.cfg.OldLabel), s.Run.Version(s.cfg.NewLabel)
}

// Compare analyses the session in one unit: the rows compare.Compare
// gives for the two versions at the error rate of one look, which is the
// rate every benchmark's decision was taken at.
func (s *Session) Compare(unit string) (*compare.Result, error) {
	opts := s.cfg.Compare
	opts.Metric = unit
	opts.Alpha = s.Sequence.LookAlpha()
	old, new := s.Versions()
	return compare.Compare(old, new, opts)
}

// Interleaved runs an interleaved session of cfg.Old against cfg.New and
// stores it in db. It returns the session also with an error, as long as
// the session was created: a cancelled context or failed benchmarks leave
// every finished process in the store and in Session.Run.
func Interleaved(ctx context.Context, cfg Config, db *store.Store, meta *bench.Run) (*Session, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	s := &Session{cfg: cfg, db: db, Sequence: stats.NewSequence(cfg.Compare.Alpha, cfg.MinRounds, cfg.MaxRounds), Warnings: cfg.warnings}
	s.rng = rand.New(rand.NewPCG(cfg.Compare.Seed, 0x616220726f756e64))
	if err := s.discover(ctx); err != nil {
		return nil, err
	}
	if err := s.shard(meta.Label); err != nil {
		return nil, err
	}
	run := *meta
	run.Settings = sessionSettings(meta.Settings, cfg, s.Sequence)
	if s.Shard != nil {
		maps.Copy(run.Settings, s.Shard.Settings())
	}
	// The order of the source, which the random order of the rounds
	// does not keep, for the tables.
	for _, b := range s.Benchmarks {
		run.Benchmarks = append(run.Benchmarks, b.Key)
	}
	id, err := db.CreateRun(&run)
	if err != nil {
		return nil, err
	}
	s.ID, s.Run = id, &run
	err = s.rounds(ctx)
	if ferr := db.Finish(id, time.Now(), store.EndStatus(ctx, err)); ferr != nil && err == nil {
		err = ferr
	}
	return s, err
}

// Resume goes on with the interleaved session stored as run id in db,
// which an interrupt or a kill ended early. cfg names the same two
// versions, by the same labels; the session's own settings (iterations,
// looks, error rate, threshold, seed) replace cfg's. Each benchmark keeps
// its rounds and operations per iteration; the looks it passed are taken
// again on the rounds they saw, so they decide as they did; a round that
// ran one version only is left out by the analysis and not repeated.
func Resume(ctx context.Context, cfg Config, db *store.Store, id string) (*Session, error) {
	stored, err := db.Load(id)
	if err != nil {
		return nil, err
	}
	set := stored.Settings
	if set[bench.SettingMode] != bench.ModeInterleaved {
		return nil, fmt.Errorf("run %s is not an interleaved session", id)
	}
	if set[bench.SettingOld] != cfg.OldLabel || set[bench.SettingNew] != cfg.NewLabel {
		return nil, fmt.Errorf("run %s compares %s with %s, not %s with %s; give the same versions and labels",
			id, set[bench.SettingOld], set[bench.SettingNew], cfg.OldLabel, cfg.NewLabel)
	}
	if err := restoreSettings(&cfg, set); err != nil {
		return nil, fmt.Errorf("run %s: %v", id, err)
	}
	if err := cfg.check(); err != nil {
		return nil, err
	}
	s := &Session{cfg: cfg, db: db, ID: stored.ID, Run: stored, Sequence: stats.NewSequence(cfg.Compare.Alpha, cfg.MinRounds, cfg.MaxRounds), Warnings: cfg.warnings}
	if s.ID == "" {
		s.ID = id
	}
	// A fresh random stream: the resumed rounds need not repeat the order
	// of the ones already run.
	s.rng = rand.New(rand.NewPCG(cfg.Compare.Seed, uint64(len(stored.Measurements))))
	if err := s.discover(ctx); err != nil {
		return nil, err
	}
	if err := s.resumeShard(stored); err != nil {
		return nil, err
	}
	if err := s.restore(); err != nil {
		return nil, err
	}
	err = s.rounds(ctx)
	if ferr := db.Finish(s.ID, time.Now(), store.EndStatus(ctx, err)); ferr != nil && err == nil {
		err = ferr
	}
	return s, err
}

// restoreSettings sets cfg to the stored session's settings.
func restoreSettings(cfg *Config, set map[string]string) error {
	var errs []error
	parse := func(key string, f func(string) error) {
		if err := f(set[key]); err != nil {
			errs = append(errs, fmt.Errorf("setting %s: %v", key, err))
		}
	}
	parse(bench.SettingAlpha, func(v string) (err error) { cfg.Compare.Alpha, err = strconv.ParseFloat(v, 64); return })
	parse(bench.SettingThreshold, func(v string) (err error) { cfg.Compare.Threshold, err = strconv.ParseFloat(v, 64); return })
	parse(bench.SettingIterations, func(v string) (err error) { cfg.Iterations, err = strconv.Atoi(v); return })
	parse(bench.SettingWarmup, func(v string) (err error) { cfg.Warmup, err = strconv.Atoi(v); return })
	// Sessions stored before turns paired processes, with no minimum.
	cfg.Pairing, cfg.MinOps = PairingProcesses, 1
	if v := set[bench.SettingPairing]; v != "" {
		cfg.Pairing = v
	}
	if v := set[bench.SettingMinOps]; v != "" {
		parse(bench.SettingMinOps, func(v string) (err error) { cfg.MinOps, err = strconv.Atoi(v); return })
	}
	parse(bench.SettingIter, func(v string) (err error) { cfg.Iter, err = time.ParseDuration(v); return })
	parse(bench.SettingSeed, func(v string) (err error) { cfg.Compare.Seed, err = strconv.ParseUint(v, 10, 64); return })
	parse(bench.SettingLooks, func(v string) (err error) {
		looks := strings.Split(v, ",")
		if cfg.MinRounds, err = strconv.Atoi(looks[0]); err != nil {
			return err
		}
		cfg.MaxRounds, err = strconv.Atoi(looks[len(looks)-1])
		return err
	})
	cfg.Bench = set[bench.SettingBench]
	return errors.Join(errs...)
}

// restore sets each benchmark's state from the stored measurements: its
// operations per iteration, its rounds with both versions, and the
// decisions of the looks it passed.
func (s *Session) restore() error {
	n := map[bench.Key]int{}
	// The measured iterations of the old version in each benchmark's
	// first round, which every later round repeats.
	first := map[bench.Key]int{}
	iters := map[bench.Key]int{}
	for _, m := range s.Run.Measurements {
		s.Rounds = max(s.Rounds, m.Coord.SuiteRun)
		if m.Coord.Version != s.cfg.OldLabel {
			continue
		}
		n[m.Key] = m.N
		if r, ok := first[m.Key]; !ok || m.Coord.SuiteRun < r {
			first[m.Key], iters[m.Key] = m.Coord.SuiteRun, 0
		}
		if m.Coord.SuiteRun == first[m.Key] && m.Coord.Phase != bench.Warmup {
			iters[m.Key]++
		}
	}
	paired := s.pairedRounds()
	for _, b := range s.Benchmarks {
		b.N, b.Rounds, b.Iterations = n[b.Key], len(paired[b.Key]), cmp.Or(iters[b.Key], s.cfg.Iterations)
	}
	// Take the passed looks again, on the rounds each saw.
	for _, l := range s.Sequence.Looks {
		if err := s.lookAt(l, paired); err != nil {
			return err
		}
	}
	return nil
}

// pairedRounds returns, per benchmark, the rounds in which both versions
// stored a process, in increasing order.
func (s *Session) pairedRounds() map[bench.Key][]int {
	type seen struct{ old, new bool }
	byKey := map[bench.Key]map[int]*seen{}
	for _, m := range s.Run.Measurements {
		if byKey[m.Key] == nil {
			byKey[m.Key] = map[int]*seen{}
		}
		r := byKey[m.Key][m.Coord.SuiteRun]
		if r == nil {
			r = &seen{}
			byKey[m.Key][m.Coord.SuiteRun] = r
		}
		r.old = r.old || m.Coord.Version == s.cfg.OldLabel
		r.new = r.new || m.Coord.Version == s.cfg.NewLabel
	}
	out := map[bench.Key][]int{}
	for k, rounds := range byKey {
		for round, r := range rounds {
			if r.old && r.new {
				out[k] = append(out[k], round)
			}
		}
		slices.Sort(out[k])
	}
	return out
}

func (c *Config) check() error {
	switch {
	case c.Pairing == PairingTurns && !c.Probed:
		return errors.New("ab: rounds in turns need test binaries built with the probe (run.BuildProbed)")
	case len(c.Old) == 0 || len(c.New) == 0:
		return errors.New("ab: no test binary for a version")
	case c.OldLabel == "" || c.NewLabel == "" || c.OldLabel == c.NewLabel:
		return fmt.Errorf("ab: the versions need two different labels, have %q and %q", c.OldLabel, c.NewLabel)
	case !(c.Compare.Alpha > 0 && c.Compare.Alpha < 1):
		return fmt.Errorf("ab: alpha %v is not between 0 and 1", c.Compare.Alpha)
	}
	return c.checkPlan()
}

// checkPlan reports iterations, rounds, budgets or a timeout a session
// cannot run with, naming their fields.
func (c *Config) checkPlan() error {
	if err := run.CheckPattern(c.Bench); err != nil {
		return err
	}
	switch {
	case c.Iter <= 0:
		return fmt.Errorf("Iter %v: want a positive duration", c.Iter)
	case c.Iterations < 1 || c.Warmup < 0:
		return fmt.Errorf("Iterations %d Warmup %d: want at least one measured iteration and no negative warm-up", c.Iterations, c.Warmup)
	case c.MinOps < 1:
		return fmt.Errorf("MinOps %d: want at least one operation per iteration", c.MinOps)
	case c.Pairing != PairingTurns && c.Pairing != PairingProcesses:
		return fmt.Errorf("Pairing %q: want %s or %s", c.Pairing, PairingTurns, PairingProcesses)
	case c.MinRounds < 2 || c.MaxRounds < c.MinRounds:
		return fmt.Errorf("MinRounds %d MaxRounds %d: want 2 ≤ min ≤ max", c.MinRounds, c.MaxRounds)
	case c.Budget < 0 || c.BenchmarkBudget < 0 || c.Timeout <= 0:
		return fmt.Errorf("Budget %v BenchmarkBudget %v Timeout %v: want no negative budget and a positive timeout", c.Budget, c.BenchmarkBudget, c.Timeout)
	}
	return nil
}

// sessionSettings records what a later analysis or Resume needs to read
// the session as it was run.
func sessionSettings(base map[string]string, cfg Config, seq stats.Sequence) map[string]string {
	out := map[string]string{}
	for k, v := range base {
		out[k] = v
	}
	looks := make([]string, len(seq.Looks))
	for i, l := range seq.Looks {
		looks[i] = strconv.Itoa(l)
	}
	for k, v := range map[string]string{
		bench.SettingMode:       bench.ModeInterleaved,
		bench.SettingOld:        cfg.OldLabel,
		bench.SettingNew:        cfg.NewLabel,
		bench.SettingLookAlpha:  strconv.FormatFloat(seq.LookAlpha(), 'g', -1, 64),
		bench.SettingPairing:    cfg.Pairing,
		bench.SettingMinOps:     strconv.Itoa(cfg.MinOps),
		bench.SettingAlpha:      strconv.FormatFloat(cfg.Compare.Alpha, 'g', -1, 64),
		bench.SettingLooks:      strings.Join(looks, ","),
		bench.SettingThreshold:  strconv.FormatFloat(cfg.Compare.Threshold, 'g', -1, 64),
		bench.SettingIter:       cfg.Iter.String(),
		bench.SettingIterations: strconv.Itoa(cfg.Iterations),
		bench.SettingWarmup:     strconv.Itoa(cfg.Warmup),
		bench.SettingSeed:       strconv.FormatUint(cfg.Compare.Seed, 10),
		bench.SettingBench:      cfg.Bench,
	} {
		out[k] = v
	}
	return out
}

func (s *Session) logf(format string, args ...any) {
	if s.cfg.Log != nil {
		fmt.Fprintf(s.cfg.Log, format+"\n", args...)
	}
}

// discover lists the benchmarks of both versions, as they will run:
// unpinned, at the process's GOMAXPROCS.
func (s *Session) discover(ctx context.Context) error {
	list := func(bins []run.Binary, version string) (map[bench.Key]run.Target, []bench.Key, error) {
		byKey := map[bench.Key]run.Target{}
		var keys []bench.Key
		for i := range bins {
			ts, err := run.Discover(ctx, &bins[i], s.cfg.Bench, nil, nil, s.cfg.Timeout)
			var fe *run.ForkError
			switch {
			case ctx.Err() != nil:
				return nil, nil, ctx.Err()
			case errors.As(err, &fe):
				// A benchmark that fails ends its own run, not the
				// binary's: the others are listed, and the failed one
				// is named.
				s.failures = append(s.failures, fmt.Sprintf("%s on %s: %s", strings.Join(failedBenchmarks(fe.Output), ", "), version, tail(fe)))
			case err != nil:
				return nil, nil, fmt.Errorf("%s: %w", version, err)
			}
			for _, t := range ts {
				byKey[t.Key] = t
				keys = append(keys, t.Key)
			}
		}
		return byKey, keys, nil
	}
	olds, oldKeys, err := list(s.cfg.Old, s.cfg.OldLabel)
	if err != nil {
		return err
	}
	news, newKeys, err := list(s.cfg.New, s.cfg.NewLabel)
	if err != nil {
		return err
	}
	for _, k := range oldKeys {
		if nt, ok := news[k]; ok {
			s.Benchmarks = append(s.Benchmarks, &Benchmark{Key: k, old: olds[k], new: nt})
		} else {
			s.OnlyOld = append(s.OnlyOld, k)
		}
	}
	for _, k := range newKeys {
		if _, ok := olds[k]; !ok {
			s.OnlyNew = append(s.OnlyNew, k)
		}
	}
	if len(s.OnlyOld)+len(s.OnlyNew) > 0 {
		s.Warnings = append(s.Warnings, fmt.Sprintf("benchmarks in one version only are not compared: %s only %v, %s only %v",
			s.cfg.OldLabel, keyNames(s.OnlyOld), s.cfg.NewLabel, keyNames(s.OnlyNew)))
	}
	if len(s.Benchmarks) == 0 {
		return &MissingError{Bench: s.cfg.Bench, OnlyOld: s.OnlyOld, OnlyNew: s.OnlyNew, Failures: s.failures}
	}
	return nil
}

// A MissingError says that no benchmark a session selects is in both
// versions.
type MissingError struct {
	// Bench is the pattern that selects the benchmarks.
	Bench string
	// OnlyOld and OnlyNew are the benchmarks found in one version only;
	// Failures the benchmarks that failed while they were listed, naming
	// the version.
	OnlyOld, OnlyNew []bench.Key
	Failures         []string
}

func (e *MissingError) Error() string {
	return fmt.Sprintf("no benchmark matching -bench %q is in both versions", e.Bench)
}

// failedBenchmarks returns the names of the benchmarks a test binary's
// output reports as failed ("--- FAIL: BenchmarkX"), or "a benchmark".
func failedBenchmarks(output string) []string {
	var names []string
	for _, line := range strings.Split(output, "\n") {
		if name, ok := strings.CutPrefix(strings.TrimSpace(line), "--- FAIL: "); ok {
			names = append(names, strings.Fields(name)[0])
		}
	}
	if len(names) == 0 {
		return []string{"a benchmark"}
	}
	return names
}

// tail returns the error of a failed process with the last lines of its
// output that say why.
func tail(fe *run.ForkError) string {
	return fmt.Sprintf("%v: %s", fe.Err, why(fe.Output))
}

// profileRateNotice is what the runtime says when the profile rate is set
// before -test.cpuprofile starts the profiler (run.ProfileRateVar).
const profileRateNotice = "runtime: cannot set cpu profile rate until previous profile has finished."

// why returns the last lines of a test binary's output that say why it
// failed: not its results, headers or FAIL lines, nor the runtime's notice
// of a profile rate set early.
func why(output string) string {
	lines := strings.Split(strings.TrimSpace(output), "\n")
	var why []string
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "Benchmark") && !strings.HasPrefix(l, "--- FAIL") && l != "FAIL" && !strings.HasPrefix(l, "goos:") &&
			!strings.HasPrefix(l, "goarch:") && !strings.HasPrefix(l, "pkg:") && !strings.HasPrefix(l, "cpu:") && l != profileRateNotice {
			why = append(why, l)
		}
	}
	if len(why) > 3 {
		why = why[len(why)-3:]
	}
	return strings.Join(why, " | ")
}

func keyNames(keys []bench.Key) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.String()
	}
	return out
}

// rounds runs rounds until every benchmark has stopped.
func (s *Session) rounds(ctx context.Context) error {
	start := time.Now()
	var last time.Duration
	for {
		active := s.active()
		if len(active) == 0 {
			break
		}
		// Two rounds at least, the fewest an interval needs, whatever the
		// budget.
		if budget := s.budget(); budget > 0 && s.Rounds >= 2 && time.Since(start)+last > budget {
			for _, b := range active {
				b.Stop = StopBudget
			}
			s.Warnings = append(s.Warnings, fmt.Sprintf("the budget of %v ended the session after %d rounds with %d benchmarks undecided (-budget raises it)",
				budget.Round(time.Second), s.Rounds, len(active)))
			break
		}
		roundStart := time.Now()
		s.Rounds++
		s.logf("round %d: %d benchmarks, %v elapsed", s.Rounds, len(active), time.Since(start).Round(time.Second))
		s.rng.Shuffle(len(active), func(i, j int) { active[i], active[j] = active[j], active[i] })
		for i, b := range active {
			if s.cfg.Progress != nil {
				s.cfg.Progress(Progress{Round: s.Rounds, Benchmark: b.Key, Index: i + 1, Active: len(active),
					Decided: s.count(StopDecided), Total: len(s.Benchmarks), Elapsed: time.Since(start), Budget: s.budget()})
			}
			if err := s.pair(ctx, b); err != nil {
				s.Elapsed = time.Since(start)
				return err
			}
		}
		last = time.Since(roundStart)
		if err := s.look(); err != nil {
			s.Elapsed = time.Since(start)
			return err
		}
	}
	s.Elapsed = time.Since(start)
	failed := s.failures
	for _, b := range s.Benchmarks {
		if b.Err != nil {
			failed = append(failed, b.Err.Error())
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("benchmarks failed:\n\t%s", strings.Join(failed, "\n\t"))
	}
	return nil
}

// budget returns the session's time limit, 0 for none.
func (s *Session) budget() time.Duration {
	if s.cfg.Budget > 0 {
		return s.cfg.Budget
	}
	return s.cfg.BenchmarkBudget * time.Duration(len(s.Benchmarks))
}

// count returns the number of benchmarks that stopped for why.
func (s *Session) count(why string) int {
	n := 0
	for _, b := range s.Benchmarks {
		if b.Stop == why {
			n++
		}
	}
	return n
}

func (s *Session) active() []*Benchmark {
	var out []*Benchmark
	for _, b := range s.Benchmarks {
		if b.Stop == "" {
			out = append(out, b)
		}
	}
	return out
}

// pair runs one round of b: a process of each version, back to back, in a
// random order. Each process's iterations are stored when it ends. A
// failure of either version ends the benchmark, named with the version; a
// cancelled context ends the session.
func (s *Session) pair(ctx context.Context, b *Benchmark) error {
	if b.N == 0 {
		n, m, err := run.CalibrateWarm(ctx, &b.old, s.cfg.Iter, false, s.cfg.Timeout)
		if err != nil {
			return s.fail(ctx, b, s.cfg.OldLabel, "calibration", err)
		}
		b.N, b.Iterations = max(n, s.cfg.MinOps), s.cfg.Iterations
		if m != nil {
			if sec, ok := m.Get("sec/op"); ok && sec > 0 {
				if b.N, err = s.steadyN(ctx, &b.old, b.N, sec); err != nil {
					return s.fail(ctx, b, s.cfg.OldLabel, "calibration", err)
				}
				b.Iterations = turnIterations(s.cfg.Iterations, float64(b.N)*sec/s.cfg.Iter.Seconds())
			}
		}
	}
	if s.cfg.Pairing == PairingTurns {
		return s.turns(ctx, b)
	}
	sides := []struct {
		label  string
		target *run.Target
	}{{s.cfg.OldLabel, &b.old}, {s.cfg.NewLabel, &b.new}}
	if s.rng.IntN(2) == 1 {
		sides[0], sides[1] = sides[1], sides[0]
	}
	for _, side := range sides {
		ms, err := s.fork(ctx, side.target, b.N, side.label)
		if len(ms) > 0 {
			if serr := s.db.Append(s.ID, ms...); serr != nil {
				return fmt.Errorf("storing %s of %s: %w", b.Key, side.label, serr)
			}
			s.Run.Measurements = append(s.Run.Measurements, ms...)
		}
		if err != nil {
			return s.fail(ctx, b, side.label, fmt.Sprintf("round %d", s.Rounds), err)
		}
	}
	b.Rounds++
	return nil
}

// turns runs one round of b in turns: a process of each version at the
// same time, on the same CPUs, taking turns iteration by iteration
// (duet.PairSpec.Turns); which version takes the first turn is drawn. The
// round's iterations are stored together when both processes have ended:
// a durable write during a turn would slow the side whose turn it is.
func (s *Session) turns(ctx context.Context, b *Benchmark) error {
	sides := [2]*run.Target{&b.old, &b.new}
	labels := [2]string{s.cfg.OldLabel, s.cfg.NewLabel}
	swap := s.rng.IntN(2) == 1
	if swap {
		sides[0], sides[1] = sides[1], sides[0]
		labels[0], labels[1] = labels[1], labels[0]
	}
	count := s.cfg.Warmup + b.Iterations
	spec := duet.PairSpec{
		Old: duet.Side{Binary: *sides[0].Binary}, New: duet.Side{Binary: *sides[1].Binary},
		Pattern: b.old.Pattern, N: b.N, Count: count, Procs: b.old.Procs,
		Benchmem: s.cfg.Benchmem, Turns: true, CPUs: s.turnCPUs(b.old.Procs), Timeout: s.cfg.Timeout,
	}
	var ms [2][]bench.Measurement
	_, err := duet.RunPair(ctx, spec, func(p duet.Pair) bool {
		for side, it := range [2]duet.Iteration{p.Old, p.New} {
			i := len(ms[side])
			coord := bench.Coord{Version: labels[side], Instance: s.cfg.Instance, SuiteRun: s.Rounds, Fork: 1, Iteration: i}
			if i < s.cfg.Warmup {
				coord.Phase = bench.Warmup
			}
			ms[side] = append(ms[side], iterationMeasurement(b.Key, coord, it, s.cfg.Benchmem))
		}
		return true
	})
	if all := append(ms[0], ms[1]...); len(all) > 0 {
		if serr := s.db.Append(s.ID, all...); serr != nil {
			return fmt.Errorf("storing %s: %w", b.Key, serr)
		}
		s.Run.Measurements = append(s.Run.Measurements, all...)
	}
	if err == nil && len(ms[0]) < count {
		err = fmt.Errorf("%d of %d iterations paired", len(ms[0]), count)
	}
	if err != nil {
		version := "both versions"
		var pe *duet.PairError
		if errors.As(err, &pe) {
			output := pe.OldOutput + "\n" + pe.NewOutput
			switch pe.Side {
			case "old":
				version, output = labels[0], pe.OldOutput
			case "new":
				version, output = labels[1], pe.NewOutput
			}
			err = pe.Err
			if w := why(output); w != "" {
				err = fmt.Errorf("%v: %s", pe.Err, w)
			}
		}
		return s.fail(ctx, b, version, fmt.Sprintf("round %d", s.Rounds), err)
	}
	b.Rounds++
	return nil
}

// Steady operations per iteration: steadyN multiplies the operations by
// steadyGrowth while an iteration of them allocates more than
// steadyAllocRatio times as much per operation as one of steadyGrowth
// times as many, as long as an iteration lasts at most steadyMaxIter.
const (
	steadyGrowth     = 8
	steadyAllocRatio = 1.25
	steadyMaxIter    = 250 * time.Millisecond
)

// steadyN returns the operations per iteration, from n, at which t is in
// its steady state: where an iteration allocates, per operation, about as
// much as one of many more operations. The testing package collects the
// garbage before every timed run, which empties caches of sync.Pool and
// buffers a benchmark keeps across calls; at a few operations per
// iteration each run then pays for refilling them, where go test's
// iterations of a second amortise them (docs/eval/ab.md, "Steady
// state"). sec is the time of an operation.
func (s *Session) steadyN(ctx context.Context, t *run.Target, n int, sec float64) (int, error) {
	perOp := func(n, count int) (float64, error) {
		spec := run.ForkSpec{Binary: *t.Binary, Pattern: t.Pattern, Procs: t.Procs, BenchTime: strconv.Itoa(n) + "x",
			Count: count, Benchmem: true, Timeout: s.cfg.Timeout}
		bytes, seen := 0.0, 0
		err := run.RunFork(ctx, spec, func(m *bench.Measurement) bool {
			if m.Key != t.Key {
				return true
			}
			seen++
			bytes, _ = m.Get("B/op")
			return seen < count
		})
		return bytes, err
	}
	for float64(n*steadyGrowth)*sec <= steadyMaxIter.Seconds() {
		few, err := perOp(n, 3)
		if err != nil {
			return n, err
		}
		many, err := perOp(n*steadyGrowth, 2)
		if err != nil {
			return n, err
		}
		if few <= steadyAllocRatio*many+64 {
			return n, nil
		}
		s.logf("%s: %.0f B/op at %d operations an iteration, %.0f at %d: more operations", t.Key, few, n, many, n*steadyGrowth)
		n *= steadyGrowth
	}
	return n, nil
}

// minTurnIterations is the fewest measured iterations per process in a
// round in turns: enough pairs for a median.
const minTurnIterations = 6

// turnIterations returns the measured iterations per process in a round
// in turns of a benchmark whose iterations last long times Config.Iter:
// iterations, or proportionally fewer when long exceeds 1, but at least
// minTurnIterations.
func turnIterations(iterations int, long float64) int {
	if !(long > 1) {
		return iterations
	}
	return min(iterations, max(minTurnIterations, int(math.Ceil(float64(iterations)/long))))
}

// turnCPUs returns the CPUs both processes of a round in turns run on:
// all of this process's when the benchmark runs at a GOMAXPROCS of that
// many or more (procs 0: the default), or else procs of them, a window
// that moves round by round, so that a benchmark at GOMAXPROCS 1 has both
// versions on the same CPU in a round and visits every CPU over the
// session.
func (s *Session) turnCPUs(procs int) []int {
	var set unix.CPUSet
	if procs <= 0 || unix.SchedGetaffinity(0, &set) != nil {
		return nil
	}
	var cpus []int
	for c := 0; c < 1024; c++ { // CPU_SETSIZE
		if set.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	if procs >= len(cpus) {
		return nil
	}
	out := make([]int, procs)
	for j := range out {
		out[j] = cpus[(s.Rounds*procs+j)%len(cpus)]
	}
	return out
}

// fail records that b failed on one version; it returns an error only
// when the session itself must end.
func (s *Session) fail(ctx context.Context, b *Benchmark, version, when string, err error) error {
	if ctx.Err() != nil {
		b.Stop = StopCancelled
		return ctx.Err()
	}
	var fe *run.ForkError
	if errors.As(err, &fe) {
		err = errors.New(tail(fe))
	}
	b.Stop, b.Err, b.FailedOn = StopFailed, fmt.Errorf("%s failed on %s (%s): %w", b.Key, version, when, err), version
	s.logf("%v", b.Err)
	return nil
}

// fork runs one process of t with n operations per iteration and returns
// its iterations with their coordinates.
func (s *Session) fork(ctx context.Context, t *run.Target, n int, version string) ([]bench.Measurement, error) {
	spec := run.ForkSpec{Binary: *t.Binary, Pattern: t.Pattern, Procs: t.Procs, BenchTime: strconv.Itoa(n) + "x",
		Count: s.cfg.Warmup + s.cfg.Iterations, Benchmem: s.cfg.Benchmem, Timeout: s.cfg.Timeout}
	var ms []bench.Measurement
	err := run.RunFork(ctx, spec, func(m *bench.Measurement) bool {
		if m.Key != t.Key {
			return true
		}
		i := len(ms)
		m.Coord = bench.Coord{Version: version, Instance: s.cfg.Instance, SuiteRun: s.Rounds, Fork: 1, Iteration: i}
		if i < s.cfg.Warmup {
			m.Coord.Phase = bench.Warmup
		}
		ms = append(ms, *m)
		return len(ms) < s.cfg.Warmup+s.cfg.Iterations
	})
	if err == nil && len(ms) < s.cfg.Warmup+s.cfg.Iterations {
		err = fmt.Errorf("%d of %d iterations printed", len(ms), s.cfg.Warmup+s.cfg.Iterations)
	}
	return ms, err
}

// look analyses the benchmarks whose rounds reached a planned look and
// stops those whose verdict is decided, or that reached the last look.
func (s *Session) look() error {
	var due []*Benchmark
	for _, b := range s.active() {
		if s.Sequence.IsLook(b.Rounds) {
			due = append(due, b)
		}
	}
	return s.decide(due, s.Run)
}

// lookAt takes the look at l rounds for the active benchmarks that have at
// least l, on their first l rounds with both versions (paired, as
// pairedRounds gives them).
func (s *Session) lookAt(l int, paired map[bench.Key][]int) error {
	var due []*Benchmark
	keep := map[bench.Key]map[int]bool{}
	for _, b := range s.active() {
		if b.Rounds < l {
			continue
		}
		due = append(due, b)
		keep[b.Key] = map[int]bool{}
		for _, r := range paired[b.Key][:l] {
			keep[b.Key][r] = true
		}
	}
	if len(due) == 0 {
		return nil
	}
	sub := *s.Run
	sub.Measurements = nil
	for _, m := range s.Run.Measurements {
		if keep[m.Key][m.Coord.SuiteRun] {
			sub.Measurements = append(sub.Measurements, m)
		}
	}
	return s.decide(due, &sub)
}

// decide analyses run for the benchmarks due for a look and stops those
// whose verdict is decided or that reached the last look.
func (s *Session) decide(due []*Benchmark, r *bench.Run) error {
	if len(due) == 0 {
		return nil
	}
	opts := s.cfg.Compare
	opts.Metric = "sec/op"
	opts.Alpha = s.Sequence.LookAlpha()
	res, err := compare.Compare(r.Version(s.cfg.OldLabel), r.Version(s.cfg.NewLabel), opts)
	if err != nil {
		return err
	}
	rows := map[bench.Key]*compare.Row{}
	for i := range res.Rows {
		rows[res.Rows[i].Key] = &res.Rows[i]
	}
	for _, b := range due {
		row := rows[b.Key]
		switch {
		case row != nil && Decided(row.Ratio, s.cfg.Compare.Threshold):
			b.Stop = StopDecided
		case b.Rounds >= s.cfg.MaxRounds:
			b.Stop = StopMaxRounds
		}
	}
	return nil
}

// Decided reports whether a ratio's interval decides a verdict at the
// relevance threshold: it excludes 1 with the estimate beyond the
// threshold (a change), or it lies within ±threshold (no change).
func Decided(iv stats.Interval, threshold float64) bool {
	if math.IsNaN(iv.Lo) || math.IsNaN(iv.Hi) {
		return false
	}
	change := !iv.Contains(1) && (iv.Center > 1+threshold || iv.Center < 1-threshold)
	return change || (iv.Lo >= 1-threshold && iv.Hi <= 1+threshold)
}

// Stopped summarises why the benchmarks stopped, e.g. "12 decided, 2
// undecided at -max-rounds", in a fixed order.
func (s *Session) Stopped() string {
	counts := map[string]int{}
	for _, b := range s.Benchmarks {
		counts[b.Stop]++
	}
	var parts []string
	for _, why := range []string{StopDecided, StopMaxRounds, StopBudget, StopFailed, StopCancelled} {
		if counts[why] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[why], stopWords[why]))
		}
	}
	return strings.Join(parts, ", ")
}

// stopWords says why benchmarks stopped, after their count.
var stopWords = map[string]string{
	StopDecided:   "decided",
	StopMaxRounds: "undecided at -max-rounds",
	StopBudget:    "undecided when the time budget ran out",
	StopFailed:    "failed",
	StopCancelled: "interrupted",
}

// Units returns the units the session measured that a comparison reports:
// time, then B/op and allocs/op when recorded.
func (s *Session) Units() []string {
	units := []string{"sec/op"}
	used := s.Run.UnitsUsed()
	for _, u := range []string{"B/op", "allocs/op"} {
		if slices.Contains(used, u) {
			units = append(units, u)
		}
	}
	return units
}

// Results compares the session in each unit it measured (Units), as
// Compare does. A unit with nothing to compare is left out, as long as
// another has rows: a session interrupted before any allocation was
// recorded still reports its times.
func (s *Session) Results() ([]*compare.Result, error) {
	var out []*compare.Result
	for _, u := range s.Units() {
		res, err := s.Compare(u)
		if err != nil {
			if len(out) > 0 {
				continue
			}
			return nil, err
		}
		out = append(out, res)
	}
	if len(out) == 0 {
		return nil, errors.New("nothing to compare")
	}
	return out, nil
}

// Note says what the session's figures hold for, for the end of the text
// report: the error rate over the whole sequential decision and per look,
// and how the benchmarks stopped.
func (s *Session) Note() string {
	how := "one process of each version per round, back to back"
	if s.cfg.Pairing == PairingTurns {
		how = fmt.Sprintf("per round a process of each version at once, taking turns for %d iterations (fewer, down to %d, when an operation is long) after %d warm-up; a round's ratio is the median of its paired iterations'", s.cfg.Iterations, minTurnIterations, s.cfg.Warmup)
	}
	looks := make([]string, len(s.Sequence.Looks))
	for i, n := range s.Sequence.Looks {
		looks[i] = strconv.Itoa(n)
	}
	note := fmt.Sprintf("interleaved: %d rounds in %v (%s); %s; verdicts looked at after rounds %s, with intervals at %s%% at each look, %s%% over all; figures at the GOMAXPROCS in each name",
		s.Rounds, s.Elapsed.Round(time.Second), s.Stopped(), how, strings.Join(looks, ", "),
		compare.Percent(1-s.Sequence.LookAlpha()), compare.Percent(1-s.Sequence.Alpha))
	if s.cfg.noise != "" {
		note += "\nmachine " + s.cfg.noise
	}
	if len(s.Profiles) > 0 {
		note += fmt.Sprintf("\nprofiling: %s in %v, after the verdicts", benchmarks(len(s.Profiles)), s.ProfileElapsed.Round(time.Second))
	}
	return note
}
