package bench

// The keys of Run.Settings. A run's settings record how it was measured,
// and some tie it to the analysis that reads it back: a package writes
// them and another reads them, so each key is spelled here once, and
// writers and readers use the constant.

// Settings of mbench run (package run), how the run was configured.
const (
	// SettingCriterion is the stopping criterion (cv, rciw, kld,
	// static), or "levels" or "plan" for a fixed configuration.
	SettingCriterion = "criterion"
	// SettingIter is the iteration time, as time.Duration prints it;
	// the runs of mbench ab record it too.
	SettingIter = "iter"
	// SettingWarmupMin, SettingWarmupMax, SettingMeasure,
	// SettingForksMin, SettingForksMax and SettingWindow are the bounds
	// of a stopping criterion: warm-up iterations, measurement
	// iterations, forks, and the criterion's window.
	SettingWarmupMin = "wi-min"
	SettingWarmupMax = "wi-max"
	SettingMeasure   = "mi"
	SettingForksMin  = "f-min"
	SettingForksMax  = "f-max"
	SettingWindow    = "window"
	// SettingWarmupFixed is the warm-up iterations of a fixed
	// configuration (-levels, -plan).
	SettingWarmupFixed = "wi"
	// SettingLevels is the levels of mbench run -levels, as ParseLevels
	// reads them: suite runs, forks, iterations.
	SettingLevels = "levels"
	// SettingPlan is the plan file of mbench run -plan.
	SettingPlan = "plan"
	// SettingBenchmem, SettingCPUSet and SettingCPU are -benchmem,
	// -cpuset and -cpu.
	SettingBenchmem = "benchmem"
	SettingCPUSet   = "cpuset"
	SettingCPU      = "cpu"
	// SettingSeed is the seed of the run's random order (run, ab).
	SettingSeed = "seed"
	// SettingMinOps is the fewest operations an iteration runs (run, ab).
	SettingMinOps = "min-ops"
	// SettingVersions lists, as a JSON array, the versions a run
	// measured side by side in the order they were given (old before
	// new), since the order they were first measured in is random.
	SettingVersions = "versions"
	// SettingNoise is the machine's noise (run.Noise.Summary) when the
	// run started, and SettingNoiseAge how long before the start it was
	// measured, to the second.
	SettingNoise    = "noise"
	SettingNoiseAge = "noise-age"
)

// Settings per benchmark: the key is the prefix and the benchmark's name
// (StopSetting, WarmupSetting).
const (
	// SettingStopPrefix begins the setting that holds why a benchmark
	// stopped (stop.Report.Reason), "stable after N forks (…)" when its
	// criterion found it stable.
	SettingStopPrefix = "stop/"
	// SettingWarmupPrefix begins the setting that holds how the warm-up
	// of each of a benchmark's forks ended (stop.Report.WarmupSummary).
	SettingWarmupPrefix = "warmup/"
)

// StopSetting returns the key of the setting that holds why benchmark k
// of version (none: "") stopped: "stop/KEY" or "stop/KEY (VERSION)".
func StopSetting(k Key, version string) string {
	return SettingStopPrefix + benchmarkName(k, version)
}

// WarmupSetting returns the key of the setting that holds how the
// warm-ups of benchmark k of version ended, as StopSetting names it.
func WarmupSetting(k Key, version string) string {
	return SettingWarmupPrefix + benchmarkName(k, version)
}

func benchmarkName(k Key, version string) string {
	if version == "" {
		return k.String()
	}
	return k.String() + " (" + version + ")"
}

// Settings of a run that measured one shard of a suite (mbench run -shard,
// mbench ab -shard). Together they let a reader that gathers the runs of one
// label tell whether the shards fit: two runs claiming the same part, parts
// planned from different bases, parts missing, or parts of different suites.
const (
	// SettingShard is the part the run measured, "i/n": shard i of n,
	// counting from 1.
	SettingShard = "shard"
	// SettingShardBasis is what the partition was balanced by: the id of
	// the stored run whose times planned it (several, comma-separated,
	// when the runs of one label planned it together), or ShardBasisHash
	// when no run of the suite was known and keys were spread by a stable
	// hash. Shards of one suite agree on their parts only when they agree
	// on it.
	SettingShardBasis = "shard.basis"
	// SettingShardSuite identifies the whole suite that was partitioned,
	// before any shard was taken out of it: SuiteID of its keys.
	SettingShardSuite = "shard.suite"
	// ShardBasisHash is the SettingShardBasis of a partition made by
	// hash.
	ShardBasisHash = "hash"
)

// Settings of a run that holds an interleaved A/B session (package ab),
// by which package compare recognises and reads it: the session's mode,
// the labels of its two versions, the error rate of each look of its
// sequential decision, and how a round paired the versions.
const (
	SettingMode      = "ab-mode"
	SettingOld       = "ab-old"
	SettingNew       = "ab-new"
	SettingLookAlpha = "ab-look-alpha"
	// ModeInterleaved is the SettingMode of an interleaved session.
	ModeInterleaved = "interleaved"
	// SettingPairing is how a round paired the versions: PairingTurns
	// or PairingProcesses (also when it is missing: sessions stored
	// before turns).
	SettingPairing   = "ab-pairing"
	PairingTurns     = "turns"
	PairingProcesses = "processes"
	// SettingOldCommit and SettingNewCommit are the commits of the two
	// versions.
	SettingOldCommit = "ab-old-commit"
	SettingNewCommit = "ab-new-commit"
	// SettingAlpha, SettingLooks, SettingThreshold and SettingBench are
	// the session's error rate, the rounds at which it looks at the data
	// (comma-separated), its threshold and its -bench pattern;
	// SettingIterations the measured iterations of a process, and
	// SettingWarmup the warm-up iterations before them (also of a duet).
	SettingAlpha      = "ab-alpha"
	SettingLooks      = "ab-looks"
	SettingThreshold  = "threshold"
	SettingBench      = "bench"
	SettingIterations = "iterations"
	SettingWarmup     = "warmup"
)

// Settings of the two runs of a duet (mbench duet, mbench ab -parallel),
// by which package compare pairs them: both carry the same SettingDuet,
// the session's id, and SettingDuetSide says which side each is.
const (
	SettingDuet     = "duet"
	SettingDuetSide = "duet-side"
	DuetSideOld     = "old"
	DuetSideNew     = "new"
	// SettingRuns, SettingIters, SettingCPUs and SettingFiller are the
	// duet's runs of pairs, iterations per run, the two CPUs
	// ("old,new") and whether the side that finished first ran its body
	// untimed until the other ended.
	SettingRuns   = "runs"
	SettingIters  = "iters"
	SettingCPUs   = "cpus"
	SettingFiller = "filler"
)

// Settings of a bisection (package bisect), recorded with each of its
// sessions, from which `mbench bisect -resume` takes it up again: its
// revisions (as commits), the -bench pattern and packages (one a line),
// the threshold and error rate of its sessions, the direction of the
// change looked for (slower or faster), the confidence required, the
// error rate a decided session is taken to have, and the most
// comparisons a search takes (0: the default).
const (
	SettingBisectGood       = "bisect-good"
	SettingBisectBad        = "bisect-bad"
	SettingBisectBench      = "bisect-bench"
	SettingBisectPackages   = "bisect-packages"
	SettingBisectThreshold  = "bisect-threshold"
	SettingBisectAlpha      = "bisect-alpha"
	SettingBisectDirection  = "bisect-direction"
	SettingBisectConfidence = "bisect-confidence"
	SettingBisectStepError  = "bisect-step-error"
	SettingBisectMaxSteps   = "bisect-max-steps"
	// SettingBisectMark, on the session that compared a change's first
	// commit with the reference of its search, says what the bisection
	// found there ("first slower commit, probability 0.99"), for the
	// history of the sessions to mark.
	SettingBisectMark = "bisect-mark"
)
