package ab

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/compare"
	"github.com/mbench/mbench/internal/gitrev"
	"github.com/mbench/mbench/run"
	"github.com/mbench/mbench/shard"
	"github.com/mbench/mbench/store"
	"gonum.org/v1/gonum/stat/distuv"
)

// Options say what an interleaved session compares: two versions, as git
// revisions or prebuilt test binaries, how to build them, and how the
// session runs (Config, whose Old and New RunInterleaved sets, and
// Instance when it is empty).
// Start from DefaultOptions. The options are those of `mbench ab`; Check
// names them by their fields.
type Options struct {
	Config
	// Dir is the directory the package patterns are relative to, inside
	// the module and its git repository; "" is the current directory.
	// Packages are the patterns, "./..." when empty.
	Dir      string
	Packages []string
	// OldRev and NewRev are git revisions (NewRev gitrev.WorkingTree is
	// the working tree); OldBin and NewBin are prebuilt test binaries.
	// The old version is given once, as a revision or a pair of binaries.
	// Config.OldLabel and NewLabel, when set, name the versions instead
	// of their revisions or binaries.
	OldRev, NewRev string
	OldBin, NewBin string
	// Tags, GCFlags and CacheDir are those of run.BuildOptions.
	Tags, GCFlags, CacheDir string
	// Resume is the stored interleaved session to go on with (any
	// reference store.Resolve reads), "" for a new one.
	Resume string
	// Platform describes the machine; nil means run.Detect's.
	Platform *run.Platform
	// NoiseDir, if not "", is where mbench doctor -noise keeps this
	// machine's noise (run.SaveNoise): the session records it with its
	// platform and, with FromNoise, takes its iterations per round from
	// it (NoisePairs).
	NoiseDir  string
	FromNoise bool
	// Settings are recorded with the session's run, beside its own.
	Settings map[string]string
	// Head receives the description of the machine (run.Platform's
	// Header) once the versions are built, before the session starts; nil
	// discards it. Log receives the build's progress and the line that
	// starts the session; nil discards them. With Verbose, it receives the rounds as
	// they start too (Config.Log).
	Head, Log io.Writer
	Verbose   bool
	// Profile, unless its Which is ProfileNone, profiles the benchmarks
	// it selects once the session has ended (Session.Profile), keeping
	// the merged profiles under Profile.Dir/<session id>; when Profile.Dir
	// is "", under NoiseDir/profiles (beside the store).
	Profile ProfileConfig
}

// DefaultOptions are the options of `mbench ab` without flags: the
// working tree against a revision yet to be given.
var DefaultOptions = Options{Config: DefaultConfig, NewRev: gitrev.WorkingTree, Profile: DefaultProfileConfig}

// Check reports options that cannot run, naming them by their fields. It does not check Config.Compare, which compare.Compare
// checks.
func (o *Options) Check() error {
	switch {
	case (o.OldRev != "") == (o.OldBin != "" || o.NewBin != ""):
		return errors.New("give the old version once: a revision (OldRev), or test binaries (OldBin with NewBin)")
	case (o.OldBin == "") != (o.NewBin == ""):
		return errors.New("OldBin and NewBin go together")
	}
	if err := shard.Validate(o.Shard, o.ShardBasis); err != nil {
		return err
	}
	return o.Config.checkPlan()
}

// RunInterleaved builds the two versions of o, runs an interleaved session
// of them (Interleaved), or goes on with the one o.Resume names (Resume),
// and stores it in db. The checkouts of revisions are removed before it
// returns. Like Interleaved, it returns the session also with an error
// once the session has been created.
func RunInterleaved(ctx context.Context, o Options, db *store.Store) (*Session, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	opts := run.BuildOptions{Dir: o.Dir, Tags: o.Tags, GCFlags: o.GCFlags, CacheDir: o.CacheDir, Log: o.Log}
	if opts.Dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		opts.Dir = wd
	}
	platform := o.Platform
	if platform == nil {
		p := run.Detect(ctx, opts.Dir)
		platform = &p
	}
	c := o.Config
	if o.NoiseDir != "" && platform.Noise == nil {
		n, err := run.LoadNoise(o.NoiseDir)
		if err != nil {
			c.warnings = append(c.warnings, fmt.Sprintf("the machine's noise is not recorded: %v", err))
		}
		platform.Noise = n
	}
	if n := platform.Noise; n != nil {
		c.noise = fmt.Sprintf("%s (measured %v before)", n.Summary(), time.Since(n.Start).Round(time.Minute))
		if o.FromNoise && c.Pairing == PairingTurns {
			c.Iterations = NoisePairs(n)
			c.noise += fmt.Sprintf("; %d measured iterations per round for it", c.Iterations)
		}
	}
	patterns := o.Packages
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	version := func(side, rev, bin string, probe bool) (*Version, error) {
		if bin != "" {
			return Prebuilt(bin)
		}
		v, warning, err := buildRevision(ctx, side, rev, patterns, opts, probe)
		if warning != nil {
			c.warnings = append(c.warnings, warning.Error())
		}
		return v, err
	}
	old, err := version("old", o.OldRev, o.OldBin, c.Pairing == PairingTurns)
	if err != nil {
		return nil, err
	}
	defer old.Close()
	new, err := version("new", o.NewRev, o.NewBin, old.Probed)
	if err != nil {
		return nil, err
	}
	defer new.Close()

	c.Probed = old.Probed && new.Probed
	if c.Pairing == PairingTurns && !c.Probed {
		// Prebuilt binaries, or a toolchain the probe does not fit.
		c.Pairing = PairingProcesses
		c.warnings = append(c.warnings, "without the testing-package probe the rounds pair processes, one of each version back to back, not iterations in turns")
	}
	c.Old, c.New = old.Binaries, new.Binaries
	if c.Instance == "" {
		c.Instance = platform.Host
	}
	if o.Verbose && o.Log != nil {
		c.Log = o.Log
	}
	c.shardLog = o.Log
	if c.OldLabel == "" {
		c.OldLabel = old.Label
	}
	if c.NewLabel == "" {
		c.NewLabel = new.Label
	}
	if c.OldLabel == c.NewLabel {
		c.NewLabel += " (new)"
	}
	if o.Head != nil {
		fmt.Fprint(o.Head, platform.Header())
	}
	if o.Log != nil {
		fmt.Fprintf(o.Log, "%s against %s, interleaved (%s), %d to %d rounds per benchmark\n", c.NewLabel, c.OldLabel, c.Pairing, c.MinRounds, c.MaxRounds)
	}
	if o.Profile.Dir == "" && o.NoiseDir != "" {
		o.Profile.Dir = filepath.Join(o.NoiseDir, "profiles")
	}
	var s *Session
	if o.Resume != "" {
		id, err := db.Resolve(o.Resume)
		if err != nil {
			return nil, fmt.Errorf("Resume: %v", err)
		}
		s, err = Resume(ctx, c, db, id)
		return s.profile(ctx, o.Profile, err)
	}
	meta := &bench.Run{
		Label: c.OldLabel + ".." + c.NewLabel, Commit: new.Commit, Dirty: new.Dirty,
		Platform: platform.Bench(c.Instance), Start: time.Now(),
		Settings: map[string]string{bench.SettingOldCommit: old.Commit, bench.SettingNewCommit: new.Commit},
	}
	maps.Copy(meta.Settings, platform.NoiseSettings(meta.Start))
	maps.Copy(meta.Settings, o.Settings)
	s, err = Interleaved(ctx, c, db, meta)
	return s.profile(ctx, o.Profile, err)
}

// profile profiles the benchmarks of a session that ended with err, as
// pc says, while its versions are still there, and returns the session
// and err. The session's verdicts are stored before: profiling adds to
// the session and loses nothing of it, whatever fails.
func (s *Session) profile(ctx context.Context, pc ProfileConfig, err error) (*Session, error) {
	if s == nil || pc.Which == ProfileNone || ctx.Err() != nil {
		return s, err
	}
	results, rerr := s.Results()
	if rerr != nil {
		return s, err
	}
	if pc.Dir != "" {
		pc.Dir = filepath.Join(pc.Dir, s.ID)
	}
	if pc.Processes < 2 {
		s.Warnings = append(s.Warnings, fmt.Sprintf("profiling needs 2 processes of each version or more, not %d", pc.Processes))
		return s, err
	}
	start := time.Now()
	s.Profiles = s.Profile(ctx, pc, results)
	s.ProfileElapsed = time.Since(start)
	return s, err
}

// NoisePairs returns the measured iterations per round in turns for a
// machine with noise n: the fewest, from DefaultConfig's 24 to 48 in steps
// of 4, for which the median of a round's paired ratios is disturbed with
// a probability of at most 1%. A pair is taken as disturbed when either of
// its two turns meets a slow phase, which happens with probability about
// 2s for the largest fraction s of slow time on any CPU (doctor -noise),
// and the median is disturbed when half the pairs or more are. A machine
// whose CPUs are slow 10% of the time or less gets 24, 14% gets 32, 17%
// or more gets 48.
func NoisePairs(n *run.Noise) int {
	s := 0.0
	for _, c := range n.CPUs {
		s = max(s, c.SlowFraction)
	}
	p := min(2*s, 1)
	for m := DefaultConfig.Iterations; m < 48; m += 4 {
		if binomialTail(m, m/2, p) <= 0.01 {
			return m
		}
	}
	return 48
}

// binomialTail returns P(X ≥ k) for X ~ Binomial(n, p).
func binomialTail(n, k int, p float64) float64 {
	return 1 - distuv.Binomial{N: float64(n), P: p}.CDF(float64(k-1))
}

// Parallel returns the configuration of the parallel mode (`mbench ab
// -parallel`, `mbench duet`) for the versions of o, with the analysis
// options. given reports which of o's settings were chosen rather than
// left at their defaults, by their fields' names in Options: those the two
// modes share (Iterations, Warmup, Iter, Timeout, MaxRounds for the runs,
// Compare.Alpha, Compare.Threshold, Compare.Replicates, Compare.Seed)
// carry over when given, and the parallel mode's defaults hold otherwise.
// Given settings of the interleaved mode only (MinRounds, Budget, Resume)
// are an error, a *ModeError.
func (o *Options) Parallel(given func(field string) bool) (ParallelConfig, compare.Options, error) {
	c, opts := DefaultParallelConfig, compare.DefaultOptions
	for _, field := range []string{"MinRounds", "Budget", "Resume"} {
		if given(field) {
			return c, opts, &ModeError{Field: field}
		}
	}
	ac := &o.Config
	c.Dir, c.Packages = o.Dir, o.Packages
	c.OldRev, c.NewRev, c.OldBin, c.NewBin = o.OldRev, o.NewRev, o.OldBin, o.NewBin
	c.OldLabel, c.NewLabel = ac.OldLabel, ac.NewLabel
	c.Bench, c.Tags, c.GCFlags, c.CacheDir, c.Benchmem = ac.Bench, o.Tags, o.GCFlags, o.CacheDir, ac.Benchmem
	c.Verbose, c.Platform, c.Instance = o.Verbose, o.Platform, ac.Instance
	c.Shard, c.ShardBasis = ac.Shard, ac.ShardBasis
	for _, s := range []struct {
		field string
		set   func()
	}{
		{"Iterations", func() { c.Iters = ac.Iterations }},
		{"Warmup", func() { c.Warmup = ac.Warmup }},
		{"Iter", func() { c.Iter = ac.Iter }},
		{"Timeout", func() { c.Timeout = ac.Timeout }},
		{"MaxRounds", func() { c.Runs = ac.MaxRounds }},
		{"Compare.Alpha", func() { opts.Alpha = ac.Compare.Alpha }},
		{"Compare.Threshold", func() { opts.Threshold = ac.Compare.Threshold }},
		{"Compare.Replicates", func() { opts.Replicates = ac.Compare.Replicates }},
		{"Compare.Seed", func() { opts.Seed = ac.Compare.Seed }},
	} {
		if given(s.field) {
			s.set()
		}
	}
	c.Seed = opts.Seed
	return c, opts, nil
}

// A ModeError is a setting of the interleaved mode given to the parallel
// one; Field is its field in Options.
type ModeError struct{ Field string }

func (e *ModeError) Error() string {
	return e.Field + " applies to the interleaved mode, not to the parallel one"
}
