// Package bisect finds the commit at which benchmarks got slower (or
// faster), asking a noisy oracle to compare commits.
//
// Commits c₀ … cₙ lie on a path, c₀ the good endpoint and cₙ the bad one;
// the culprit is the first commit cₖ whose benchmarks differ from c₀'s by
// more than the threshold in the direction looked for. A comparison of
// cₘ with c₀ says whether k ≤ m. `git bisect` takes each answer as true;
// a benchmark comparison is not: an A/B session decides with an interval
// at an error rate, and it may stay undecided. Bisect therefore runs a
// probabilistic bisection (Horstein, "Sequential transmission using
// noiseless feedback", 1963; Burnashev & Zigangirov, "An interval
// estimation problem for controlled observations", 1974; Waeber, Frazier
// & Henderson, "Bisection search with noisy responses", 2013): it keeps a
// posterior π over the culprit and compares where an answer teaches most.
//
// # The likelihood
//
// The prior is uniform over c₁ … cₙ. A comparison of cₘ with the search's
// reference c₀ answers changed (a benchmark changed in the direction looked
// for), unchanged (every benchmark decided, none changed so), or
// undecided. With ε the probability that a decided answer is wrong and ι
// that of an undecided one:
//
//	                 k ≤ m (cₘ changed)   k > m (cₘ did not)
//	changed          (1−ι)(1−ε)            (1−ι)ε
//	unchanged        (1−ι)ε                (1−ι)(1−ε)
//	undecided        ι                     ι
//
// By Bayes's rule each decided answer multiplies π(k) by 1−ε for the
// culprits it agrees with and by ε for the others, and normalises; the
// factor 1−ι cancels. An undecided answer leaves π as it was: ι is taken
// to be the same whichever commit is the culprit. (It is not quite: a
// change near the threshold leaves a comparison undecided more often than
// no change does. Ignoring undecided answers then throws information away;
// the seeded simulations of the tests, with ι of 0.2 for a change and 0.1
// for none, show the ranges still hold the culprit as often as they
// claim.) A comparison of cₜ with its parent cₜ₋₁ answers changed exactly
// when k = t, and updates π by the same rule; it also measures the size
// of the change at cₜ.
//
// ε is an option. An ab session stops each benchmark when its interval at
// error rate α decides a verdict; a decided verdict is wrong only when the
// interval misses the true ratio, which happens with probability at most
// α, and less for a two-sided interval. DefaultOptions takes ε = 0.05,
// ab's default α. An oracle that answers for several benchmarks at once
// compares each at α over their number, so that by the union bound its
// answer about all of them is wrong with probability at most α too.
//
// # The search
//
// Each step makes the comparison whose answer splits π most evenly: of
// cₘ with the reference, splitting π into P(k ≤ m) and the rest (the
// posterior median of the papers), or of cₜ with its parent, splitting it
// into π(t) and the rest. For a binary answer wrong with probability ε, a
// split of q and 1−q gives the expected information
//
//	I(q) = H(q(1−ε) + (1−q)ε) − H(ε)
//
// (H the binary entropy), which grows as q nears ½. Each repeat of a pair
// is a new measurement, so that answers are independent given the culprit.
// The search stops when the most probable commit holds π ≥ Confidence and
// its comparison with its parent showed the change (or cannot be made), or
// after MaxSteps comparisons, or when no comparison is left to make. It
// reports that commit with its probability, and the shortest range of
// commits holding at least Confidence of π.
//
// While the model holds, answers independent given the culprit and wrong
// with probability at most ε, the posterior is the probability of each
// commit given all that was seen, at the moment the search stops as at any
// other: a culprit drawn from the prior lies in the reported range with
// probability at least Confidence. The tests check this on 1,000 seeded
// searches, and check that it fails when the true error rate exceeds ε.
//
// # Skipped commits, more changes
//
// A commit that does not build, or whose benchmarks fail or are missing,
// is skipped as `git bisect skip` skips it: no comparison involves it
// again, and the range reported may include it, since nothing then tells
// it from its neighbour. A pair that stayed undecided MaxUndecided times
// is not compared again.
//
// The search assumes one change between its endpoints. After it, the
// stretches before the range found (the reference to the commit before
// it) and after it (its last commit to the end) are compared: they should
// show no change. One decided comparison that shows no change is enough;
// a change needs two that agree, so that one wrong answer does not start
// a search. Where a stretch shows a change, it is searched in turn, for a
// change in either direction, up to MaxChanges changes. So two slowdowns
// between the endpoints are reported as two, each with its size, and a
// slowdown followed by a partial recovery as both.
//
// The Oracle is an interface, so that the search is tested on simulated
// histories whose culprits are known. Run bisects git revisions with an
// Oracle whose comparisons are interleaved ab sessions of two commits,
// each stored under a label that names them.
package bisect
