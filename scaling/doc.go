// Package scaling finds benchmarks that measure one operation at several
// problem sizes and fits how their cost grows with the size, as Sestoft
// ("Microbenchmarks in Java and C#", 2013/2015, §4.3, §6 and §9) asks:
// measure execution time as a function of the problem size and look at it
// on logarithmic axes, where a cost that grows as n^b is a straight line of
// slope b.
//
// # Families
//
// A family is a set of benchmarks whose names, split at "/", agree in every
// part but one, and that part is a numeric parameter (ParseParam):
// Encode/json/size=64, Encode/json/size=1024 and Encode/json/size=4KiB are
// the family Encode/json/size=* with Base "Encode", Param "size" and
// Variant "json". Package, GOMAXPROCS and version must agree too. A family
// needs at least Options.MinPoints (3) distinct sizes: two points always lie
// on a line, so they could not show that a power law fits.
//
// # Points
//
// Each point's centre is the mean (or median) of the benchmark's
// measurements in the unit asked for, and its interval is the one
// `mbench run` and `mbench compare` give: the hierarchical bootstrap over
// forks and iterations within forks (stats.Hierarchical), widened to a
// Student-t interval for few forks (stats.Expand). A benchmark measured in
// one process, as `go test -count` output is, is resampled in blocks of
// consecutive iterations instead, as compare does.
//
// # Slope
//
// The fit is ordinary least squares on the logarithms,
//
//	log y_j = a + b·log x_j,   b = Σ (lx_j − mean lx)(ly_j − mean ly) / Σ (lx_j − mean lx)²
//
// (R: lm(log(y) ~ log(x)); numpy.polyfit(log(x), log(y), 1)). Its interval
// comes from the same bootstrap as the points': each replicate takes one
// resample of every point's forks, refits b, and the percentile interval of
// the replicates is widened by stats.Expansion for the fewest forks of any
// point (on the linear scale, since a slope may be zero or negative).
//
// The regression's own t interval, b ± t(k−2)·se(b) from the residuals, is
// not used. It would treat the k sizes as the sample, leaving 1 to 4
// degrees of freedom for the 3 to 6 sizes benchmarks usually have, and mix
// two things in one number: how precisely the times are known, and how far
// the points are from a straight line. Real costs are often not a straight
// line: a fixed cost per call dominates the small sizes, a cache boundary
// bends the middle. So the two are reported apart. Slope says what the
// measurements support about the fitted slope; Tail is the slope over the
// TailPoints largest sizes, closer to the asymptotic growth an algorithm's
// complexity describes; and Curved reports that the two differ beyond the
// bootstrap uncertainty of their difference (computed from the same
// replicates, so paired), that is, that one power law does not fit.
//
// # Words
//
// Family.Hint turns the slope interval into words: "≈ n^1.02 [0.98, 1.06],
// consistent with linear or n log n". A class is named when the interval
// meets the slopes it can show. Logarithmic factors have no fixed slope
// (log n over 10..1000 fits as n^0.24, over 10⁴..10⁶ as n^0.09), and a
// real cost has lower-order terms: a·n + b·n·log n fits anywhere between
// n^1 and the slope of n log n over the same sizes, depending on a and b.
// So a class with a logarithmic factor spans that whole range, computed
// over the family's own sizes, and an interval just above 1 is called
// consistent with linear or n log n, as it must: a fit of sizes a few
// decades apart cannot tell them apart. For a curved family the words come
// from Tail.
package scaling
