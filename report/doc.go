// Package report gathers what mbench knows about one, two or a series of
// runs — the comparison of two, the distribution and trace of every
// benchmark, the scaling of sub-benchmarks that vary a numeric parameter,
// the history of a suite across stored runs and the platform each run was
// measured on — and writes it as one self-contained HTML page, or as
// Markdown or text for where a page cannot go.
//
// The page needs no network when it is viewed: its figures are inline SVG,
// its style inline CSS, and it uses no script, so it reads the same in a
// browser without JavaScript, printed, and in light or dark mode. Every
// section has a stable anchor (comparison, paired, scaling, distributions,
// traces, history, platform), linked from the navigation, and appears only
// when its data exist, so that a link
// into a report of another run either finds the same kind of content or
// none. Benchmarks are listed in the order the input measured them, as
// benchstat lists them.
//
// Following Sestoft's "Microbenchmarks in Java and C#" (2015), results are
// shown as pictures of the data themselves — every fork's values, never a
// smoothed summary — next to the tables; the figures keep the report small
// by drawing at most a fixed budget of points, thinning evenly where a
// benchmark has more but keeping each fork's smallest and largest value
// (the tables and intervals always use every value). Figures span the
// page's column, one under another, and share one style sheet; the package
// path that every benchmark shares is stated once at the top and left out
// of names below.
package report
