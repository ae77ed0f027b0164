package bisect

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// A Verdict is a comparison's verdict on one benchmark's time.
type Verdict int

const (
	NoChange Verdict = iota
	Slower
	Faster
	Inconclusive
)

func (v Verdict) String() string {
	switch v {
	case NoChange:
		return "no change"
	case Slower:
		return "slower"
	case Faster:
		return "faster"
	case Inconclusive:
		return "inconclusive"
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// opposite returns the other direction of a change.
func (v Verdict) opposite() Verdict {
	if v == Slower {
		return Faster
	}
	return Slower
}

// A Row is one benchmark's result in a comparison: the ratio of its time
// on the newer commit to its time on the older, with the ratio's interval.
type Row struct {
	Name          string
	Ratio, Lo, Hi float64
	Verdict       Verdict
}

// A Query asks an Oracle to compare commit New of the path with commit
// Old (positions in the path, Old < New) for the Repeat-th time: each
// repeat of a pair is a measurement of its own, independent of the
// others. Bench names the benchmarks to compare, nil for all that the
// oracle was set up with.
type Query struct {
	Old, New, Repeat int
	Bench            []string
}

// An Outcome is what an Oracle answers.
type Outcome struct {
	// Rows are the benchmarks compared.
	Rows []Row
	// Failed, if not nil, says that a commit of the pair cannot be
	// measured (it does not build, or a benchmark fails or is missing
	// there); Rows are then ignored.
	Failed *Failure
	// Ref says where the measurement is kept, for the log.
	Ref string
	// Note says what else the log should say of it (its rounds, say).
	Note string
}

// A Failure is a commit that cannot be measured, and why.
type Failure struct {
	Commit int
	Reason string
}

// An Oracle compares two commits of the path. Its answers may be wrong
// or undecided with some probability (see the package doc); an error
// ends the bisection.
type Oracle interface {
	Compare(ctx context.Context, q Query) (Outcome, error)
}

// Options configure a bisection. Start from DefaultOptions.
type Options struct {
	// Direction is the change looked for: Slower or Faster.
	Direction Verdict
	// StepError is the probability that a decided comparison is wrong,
	// ε of the likelihood (see the package doc).
	StepError float64
	// Confidence is the posterior probability at which a commit is the
	// culprit, and the least probability of a reported range.
	Confidence float64
	// MaxSteps bounds the comparisons of one search (the endpoints and
	// the checks not counted); 0 takes DefaultMaxSteps of the number of
	// commits.
	MaxSteps int
	// MaxUndecided is how many inconclusive comparisons of one pair of
	// commits the search takes before it stops asking: the commit is
	// then left untested, as a skipped one is.
	MaxUndecided int
	// MaxChanges bounds the changes searched for in one bisection.
	MaxChanges int
	// Bench, if not nil, names the benchmarks compared from the
	// endpoints on; nil compares all the oracle selects at the endpoints,
	// and those that changed after them.
	Bench []string
	// Log, if not nil, receives each step as it is taken.
	Log func(Step)
}

// DefaultOptions look for a slowdown at 95% confidence, taking a decided
// comparison to be wrong with probability 0.05, the error rate of an ab
// session (see the package doc).
var DefaultOptions = Options{
	Direction:    Slower,
	StepError:    0.05,
	Confidence:   0.95,
	MaxUndecided: 2,
	MaxChanges:   4,
}

// DefaultMaxSteps is the budget of comparisons of a search over n
// commits: three per halving of the range, and 12 more for the
// confidence and for wrong answers. A search of 32 commits may take 27
// comparisons, of 128 commits 33; the seeded simulations of the tests
// show how many a search takes at a given error rate.
func DefaultMaxSteps(n int) int {
	return 3*int(math.Ceil(math.Log2(float64(n+1)))) + 12
}

// Validate reports the first option out of range.
func (o *Options) Validate() error {
	switch {
	case o.Direction != Slower && o.Direction != Faster:
		return fmt.Errorf("direction %v: want slower or faster", o.Direction)
	case !(o.StepError > 0 && o.StepError < 0.5):
		return fmt.Errorf("step error %v: want a probability between 0 and 0.5", o.StepError)
	case !(o.Confidence > 0.5 && o.Confidence < 1):
		return fmt.Errorf("confidence %v: want a probability between 0.5 and 1", o.Confidence)
	case o.MaxSteps < 0 || o.MaxUndecided < 1 || o.MaxChanges < 1:
		return fmt.Errorf("max steps %d, max undecided %d, max changes %d: want at least 0, 1 and 1", o.MaxSteps, o.MaxUndecided, o.MaxChanges)
	}
	return nil
}

// Step kinds.
const (
	KindEndpoints = "endpoints" // the bad endpoint against the good one
	KindSearch    = "search"    // a commit against the reference of its search
	KindNeighbour = "neighbour" // the most probable culprit against its parent
	KindCheck     = "check"     // the stretch before or after a change
)

// A Step is one comparison of a bisection and what it taught.
type Step struct {
	Query
	Kind    string
	Outcome Outcome
	// Answer is what the step says of the change searched for: "changed",
	// "unchanged", "undecided", or "failed".
	Answer string
	// Search is the index of the search the step belongs to (in
	// Result.Changes), -1 for the endpoints and the checks; Top, TopProb,
	// Lo, Hi and RangeProb are that search's posterior after the step:
	// its most probable culprit and the smallest range of commits holding
	// at least Options.Confidence of it.
	Search    int
	Top       int
	TopProb   float64
	Lo, Hi    int
	RangeProb float64
	// Direction is the change the search looks for; Reference its
	// reference commit, the one before its range, and End the last
	// commit of its range, which is known to have changed.
	Direction      Verdict
	Reference, End int
}

// A Change is a step of the benchmarks found between two commits.
type Change struct {
	// Direction is Slower or Faster.
	Direction Verdict
	// From and To are the commits searched between: the change is after
	// From and at or before To.
	From, To int
	// Culprit is the most probable first commit of the change and Prob
	// its posterior probability; Found says that it reached
	// Options.Confidence.
	Culprit int
	Prob    float64
	Found   bool
	// Lo..Hi is the smallest range of commits that holds at least
	// Options.Confidence of the posterior, RangeProb of it.
	Lo, Hi    int
	RangeProb float64
	// Posterior is the probability of each commit From+1..To being the
	// culprit.
	Posterior []float64
	// Size is the comparison of the culprit with its parent: the step's
	// size (the first decided one, or else the last, undecided). It is
	// nil when that comparison was not made or failed.
	Size *Outcome
	// Steps counts the comparisons the search took.
	Steps int
}

// A Result is the outcome of a bisection of commits 0..N.
type Result struct {
	N int
	// Endpoints is the comparison of commit N with commit 0, and
	// Confirmed says that it showed the change looked for: without it no
	// search was made.
	Endpoints Outcome
	Confirmed bool
	// Changes are the changes found, in the order searched.
	Changes []Change
	// Checks are the stretches before and after each change, compared
	// to see whether they hold another change.
	Checks []Check
	// Unsearched are stretches whose checks showed a change that was not
	// searched for, once Options.MaxChanges changes were.
	Unsearched []Check
	// Skipped are the commits that could not be measured, and why.
	Skipped map[int]string
	// Steps are all comparisons, in order.
	Steps []Step
}

// A Check is a comparison of the first and the last commit of a stretch
// before or after a change.
type Check struct {
	From, To int
	// Shows is what the comparisons agreed the stretch shows: NoChange,
	// Slower or Faster; Inconclusive when they did not agree, stayed
	// undecided, or a commit could not be measured.
	Shows Verdict
	// Outcome is the comparison that decided it.
	Outcome Outcome
}

// Found reports whether the bisection confirmed the change and located
// every change it found to one commit at the required confidence.
func (r *Result) Found() bool {
	if !r.Confirmed || len(r.Changes) == 0 {
		return false
	}
	for _, c := range r.Changes {
		if !c.Found {
			return false
		}
	}
	return true
}

// ErrNoRange reports a path with no commit between the endpoints to
// search.
var ErrNoRange = errors.New("bisect: the path needs at least the two endpoints")

// pair is a pair of commits compared.
type pair struct{ old, new int }

// A bisector holds the state of one bisection.
type bisector struct {
	o     Oracle
	opts  Options
	bench []string
	// outcomes holds every comparison made, by pair, in repeat order.
	outcomes map[pair][]Outcome
	res      *Result
}

// Bisect finds the first commit of path positions 1..n at which the
// benchmarks changed in opts.Direction, asking o to compare commits. It
// confirms the change between the endpoints 0 and n first; then it runs a
// probabilistic bisection (see the package doc) and checks the stretches
// before and after the change it found, searching again where they show
// another change. The result holds everything learned also when Bisect
// returns an error.
func Bisect(ctx context.Context, o Oracle, n int, opts Options) (*Result, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if n < 1 {
		return nil, ErrNoRange
	}
	b := &bisector{o: o, opts: opts, bench: opts.Bench, outcomes: map[pair][]Outcome{}, res: &Result{N: n, Skipped: map[int]string{}}}
	return b.res, b.run(ctx, n)
}

func (b *bisector) run(ctx context.Context, n int) error {
	// The endpoints, compared again while undecided.
	end, err := b.decided(ctx, pair{0, n}, KindEndpoints)
	if err != nil {
		return err
	}
	p := b.outcomes[pair{0, n}]
	b.res.Endpoints = p[len(p)-1]
	if f := b.res.Endpoints.Failed; f != nil {
		return fmt.Errorf("bisect: the endpoints cannot be compared: %s", f.Reason)
	}
	if end == nil || answer(end.Outcome, b.opts.Direction) != changed {
		return nil
	}
	b.res.Confirmed = true
	// The later comparisons measure only what changed at the endpoints.
	if b.bench == nil {
		for _, r := range b.res.Endpoints.Rows {
			if r.Verdict == b.opts.Direction {
				b.bench = append(b.bench, r.Name)
			}
		}
	}
	type segment struct {
		from, to int
		dir      Verdict
	}
	queue := []segment{{0, n, b.opts.Direction}}
	for len(queue) > 0 && len(b.res.Changes) < b.opts.MaxChanges {
		sg := queue[0]
		queue = queue[1:]
		c, err := b.search(ctx, sg.from, sg.to, sg.dir)
		if err != nil {
			return err
		}
		// The stretch before the change and the one after it should
		// show no change; where one does, search it too.
		for _, part := range [][2]int{{sg.from, c.Lo - 1}, {c.Hi, sg.to}} {
			if part[1] <= part[0] || b.res.Skipped[part[0]] != "" || b.res.Skipped[part[1]] != "" {
				continue
			}
			st, dir, err := b.vote(ctx, pair{part[0], part[1]}, sg.dir)
			if err != nil {
				return err
			}
			ck := Check{From: part[0], To: part[1], Shows: Inconclusive}
			if st != nil {
				ck.Shows, ck.Outcome = dir, st.Outcome
			}
			b.res.Checks = append(b.res.Checks, ck)
			if ck.Shows == Slower || ck.Shows == Faster {
				queue = append(queue, segment{part[0], part[1], dir})
			}
		}
	}
	for _, sg := range queue {
		b.res.Unsearched = append(b.res.Unsearched, Check{From: sg.from, To: sg.to, Shows: sg.dir})
	}
	return nil
}

// decided returns the first decided comparison of p, comparing it again
// while it is undecided, until it has been undecided MaxUndecided times;
// nil when it stays undecided or a commit fails.
func (b *bisector) decided(ctx context.Context, p pair, kind string) (*Step, error) {
	undecided := 0
	for i := 0; undecided < b.opts.MaxUndecided; i++ {
		q := Query{Old: p.old, New: p.new, Repeat: i, Bench: b.bench}
		st := Step{Query: q, Kind: kind, Search: -1}
		if i < len(b.outcomes[p]) {
			st.Outcome = b.outcomes[p][i]
			st.Answer = answer(st.Outcome, b.opts.Direction)
		} else {
			var err error
			if st, err = b.compare(ctx, q, kind, -1, nil); err != nil {
				return nil, err
			}
		}
		if st.Outcome.Failed != nil {
			return nil, nil
		}
		if decided(st.Outcome) {
			return &st, nil
		}
		undecided++
	}
	return nil, nil
}

// vote compares p, the stretch a check covers, until the comparisons
// agree on what it shows: no change, as a first decided comparison shows
// it, or a change in direction dir or the opposite one, as two decided
// comparisons show it (of at most three, and twice MaxUndecided
// undecided ones). A check's stretch shows no change unless a change was missed, so
// one wrong comparison must not start a search. It returns the last
// comparison of the winner; nil when none won.
func (b *bisector) vote(ctx context.Context, p pair, dir Verdict) (*Step, Verdict, error) {
	votes := map[Verdict]int{}
	undecided := 0
	// Each of the (up to) two decided comparisons wanted may take
	// MaxUndecided undecided ones.
	for i := 0; undecided < 2*b.opts.MaxUndecided; i++ {
		q := Query{Old: p.old, New: p.new, Repeat: i, Bench: b.bench}
		st := Step{Query: q, Kind: KindCheck, Search: -1}
		if i < len(b.outcomes[p]) {
			st.Outcome = b.outcomes[p][i]
			st.Answer = answer(st.Outcome, dir)
		} else {
			var err error
			if st, err = b.compare(ctx, q, KindCheck, -1, nil); err != nil {
				return nil, NoChange, err
			}
		}
		if st.Outcome.Failed != nil {
			return nil, NoChange, nil
		}
		if !decided(st.Outcome) {
			undecided++
			continue
		}
		v := NoChange
		for _, d := range []Verdict{dir, dir.opposite()} {
			if answer(st.Outcome, d) == changed {
				v = d
				break
			}
		}
		votes[v]++
		switch {
		case votes[v] == 2, v == NoChange && len(votes) == 1:
			// No change is what a check expects: one comparison
			// that shows it is enough.
			return &st, v, nil
		case votes[NoChange]+votes[dir]+votes[dir.opposite()] == 3:
			return nil, NoChange, nil
		}
	}
	return nil, NoChange, nil
}

// Answers a comparison gives about a change.
const (
	changed   = "changed"
	unchanged = "unchanged"
	undecided = "undecided"
	failed    = "failed"
)

// answer says what o tells about a change in direction dir: changed when
// a benchmark changed that way, unchanged when every benchmark is decided
// and none did, undecided otherwise.
func answer(o Outcome, dir Verdict) string {
	if o.Failed != nil {
		return failed
	}
	if len(o.Rows) == 0 {
		return undecided
	}
	all := true
	for _, r := range o.Rows {
		if r.Verdict == dir {
			return changed
		}
		all = all && r.Verdict != Inconclusive
	}
	if all {
		return unchanged
	}
	return undecided
}

// decided reports whether every benchmark of o has a verdict.
func decided(o Outcome) bool {
	if o.Failed != nil || len(o.Rows) == 0 {
		return false
	}
	for _, r := range o.Rows {
		if r.Verdict == Inconclusive {
			return false
		}
	}
	return true
}

// compare asks the oracle, records the step, and notes a commit that
// cannot be measured. post, when not nil, is the search the step belongs
// to, which it updates before the step is logged.
func (b *bisector) compare(ctx context.Context, q Query, kind string, search int, post *posterior) (Step, error) {
	if q.Bench == nil {
		q.Bench = b.bench
	}
	out, err := b.o.Compare(ctx, q)
	if err != nil {
		return Step{}, err
	}
	p := pair{q.Old, q.New}
	b.outcomes[p] = append(b.outcomes[p], out)
	st := Step{Query: q, Kind: kind, Outcome: out, Search: search}
	dir := b.opts.Direction
	if post != nil {
		dir = post.dir
	}
	st.Answer = answer(out, dir)
	if f := out.Failed; f != nil && b.res.Skipped[f.Commit] == "" {
		b.res.Skipped[f.Commit] = f.Reason
	}
	if post != nil {
		switch {
		case kind == KindSearch && (st.Answer == changed || st.Answer == unchanged):
			post.update(func(k int) bool { return k <= q.New }, st.Answer == changed, b.opts.StepError)
		case kind == KindNeighbour && (st.Answer == changed || st.Answer == unchanged):
			post.update(func(k int) bool { return k == q.New }, st.Answer == changed, b.opts.StepError)
		}
		st.Direction, st.Reference, st.End = post.dir, post.from, post.to
		st.Top, st.TopProb = post.top()
		st.Lo, st.Hi, st.RangeProb = post.hpd(b.opts.Confidence)
	}
	b.res.Steps = append(b.res.Steps, st)
	if b.opts.Log != nil {
		b.opts.Log(st)
	}
	return st, nil
}

// search runs the probabilistic bisection of the commits from+1..to for
// the first one that changed in direction dir against commit from, which
// commit to is known to have.
func (b *bisector) search(ctx context.Context, from, to int, dir Verdict) (Change, error) {
	post := newPosterior(from, to, dir)
	index := len(b.res.Changes)
	b.res.Changes = append(b.res.Changes, Change{Direction: dir, From: from, To: to})
	maxSteps := b.opts.MaxSteps
	if maxSteps == 0 {
		maxSteps = DefaultMaxSteps(to - from)
	}
	steps := 0
	// The endpoints' comparison, or the check that started this
	// search, already says that to changed against from.
	var err error
	for steps < maxSteps {
		top, prob := post.top()
		var q Query
		kind := KindSearch
		if prob >= b.opts.Confidence {
			// Confirm the most probable culprit against its parent: the
			// comparison that also measures the change's size.
			// With the reference as the parent, it is a comparison of
			// the search.
			nb := pair{top - 1, top}
			if b.confirmed(nb, dir) || !b.testable(nb) {
				break
			}
			q = Query{Old: nb.old, New: nb.new, Repeat: len(b.outcomes[nb])}
			if nb.old != from {
				kind = KindNeighbour
			}
		} else {
			var ok bool
			if q, kind, ok = b.next(post); !ok {
				break
			}
		}
		if _, err = b.compare(ctx, q, kind, index, post); err != nil {
			break
		}
		steps++
	}
	c := &b.res.Changes[index]
	c.Culprit, c.Prob = post.top()
	c.Found = c.Prob >= b.opts.Confidence
	c.Lo, c.Hi, c.RangeProb = post.hpd(b.opts.Confidence)
	c.Posterior = post.p
	c.Steps = steps
	if c.Culprit > from {
		// The first decided comparison with the parent, or else the
		// last undecided one, whose ratio is still the best estimate.
		for _, o := range b.outcomes[pair{c.Culprit - 1, c.Culprit}] {
			if o.Failed != nil {
				continue
			}
			o := o
			c.Size = &o
			if decided(o) {
				break
			}
		}
	}
	return *c, err
}

// confirmed reports whether a comparison of p showed the change.
func (b *bisector) confirmed(p pair, dir Verdict) bool {
	for _, o := range b.outcomes[p] {
		if answer(o, dir) == changed {
			return true
		}
	}
	return false
}

// testable reports whether p can be compared again: neither commit failed
// and p has not been undecided MaxUndecided times.
func (b *bisector) testable(p pair) bool {
	if b.res.Skipped[p.old] != "" || b.res.Skipped[p.new] != "" {
		return false
	}
	n := 0
	for _, o := range b.outcomes[p] {
		if !decided(o) {
			n++
		}
	}
	return n < b.opts.MaxUndecided
}

// next returns the comparison to make next in a search: of those that
// can be made, the one that splits the posterior most evenly (see the
// package doc). A comparison of commit m with the reference splits it
// into P(culprit ≤ m) and the rest, a comparison of commit t with its
// parent into P(culprit = t) and the rest. On a tie, the comparison with
// the reference wins, and the earlier commit.
func (b *bisector) next(post *posterior) (Query, string, bool) {
	var best Query
	kind, bestDist := "", math.Inf(1)
	consider := func(p pair, k string, q float64) {
		if d := math.Abs(q - 0.5); d < bestDist && b.testable(p) {
			best, kind, bestDist = Query{Old: p.old, New: p.new, Repeat: len(b.outcomes[p])}, k, d
		}
	}
	cum := 0.0
	for m := post.from + 1; m < post.to; m++ {
		cum += post.p[m-post.from-1]
		consider(pair{post.from, m}, KindSearch, cum)
	}
	for t := post.from + 2; t <= post.to; t++ {
		consider(pair{t - 1, t}, KindNeighbour, post.p[t-post.from-1])
	}
	return best, kind, kind != ""
}

// A posterior is the probability of each commit from+1..to being the
// first that changed.
type posterior struct {
	from, to int
	dir      Verdict
	p        []float64
}

// newPosterior is the uniform prior.
func newPosterior(from, to int, dir Verdict) *posterior {
	p := make([]float64, to-from)
	for i := range p {
		p[i] = 1 / float64(len(p))
	}
	return &posterior{from: from, to: to, dir: dir, p: p}
}

// update is Bayes's rule for an answer that holds of the culprits k for
// which claim(k) is yes: the commits consistent with it keep weight 1−ε,
// the others ε.
func (post *posterior) update(claim func(k int) bool, yes bool, eps float64) {
	sum := 0.0
	for i := range post.p {
		if claim(post.from+1+i) == yes {
			post.p[i] *= 1 - eps
		} else {
			post.p[i] *= eps
		}
		sum += post.p[i]
	}
	for i := range post.p {
		post.p[i] /= sum
	}
}

// top returns the most probable culprit and its probability (the earlier
// on a tie).
func (post *posterior) top() (int, float64) {
	best := 0
	for i, v := range post.p {
		if v > post.p[best] {
			best = i
		}
	}
	return post.from + 1 + best, post.p[best]
}

// hpd returns the shortest range of commits lo..hi whose probability
// reaches level, and that probability; of ranges equally short, the most
// probable. The probabilities are positive, so the shortest range
// starting at each commit grows with the commit: two pointers find them
// all in one pass.
func (post *posterior) hpd(level float64) (lo, hi int, prob float64) {
	n := len(post.p)
	bestLo, bestHi, bestProb := 0, n-1, 1.0
	sum, j := 0.0, 0
	// A little slack so that rounding does not make a range that holds
	// level miss it.
	const slack = 1e-12
	for i := 0; i < n; i++ {
		for j < n && sum < level-slack {
			sum += post.p[j]
			j++
		}
		if sum < level-slack {
			break
		}
		if w, bw := j-1-i, bestHi-bestLo; w < bw || w == bw && sum > bestProb {
			bestLo, bestHi, bestProb = i, j-1, sum
		}
		sum -= post.p[i]
	}
	return post.from + 1 + bestLo, post.from + 1 + bestHi, min(bestProb, 1)
}
