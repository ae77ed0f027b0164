// Package plot draws mbench's figures from plain data, as SVG to inline in
// an HTML report or save as a file, and as PNG for documentation and CI
// artifacts.
//
// The kinds, one function each:
//
//	Forest   relative change per benchmark with its interval, sorted, the
//	         ±threshold band shaded, verdicts by colour and marker shape
//	Strip    every value per benchmark and version, the interval of the
//	         centre; up to five forks in lanes and shapes of their own
//	Trace    iterations of all forks in run order, every other fork
//	         shaded, warm-up marked, where the stopping criterion fired
//	Paired   old and new samples of an A/B session in time order, one axis
//	Scaling  value against a size parameter on log-log axes, error bars,
//	         the slope of the log-log fit per line ("≈ n^1.02 [0.98, 1.06]")
//	History  series across runs, intervals as bands, change points marked;
//	         small multiples in a grid for several series
//
// Every function returns a *Figure and never fails: data that leave nothing
// to draw (no rows, only NaN or infinite values) give a small figure that
// says so, so that a report stays whole. Values that cannot be placed
// (NaN, ±Inf, non-positive values on a log axis) are left out.
//
// # Drawn to be read
//
// A figure is 1200 pixels wide, a report's column, and its text is 13 to
// 16 pixels: a report shows it at its own size, and a file opens at a
// size that reads. Names are given short (Names leaves out the package
// path that all share, for the title to state once). Value axes show the
// bulk of the values: a value more than three interquartile ranges beyond
// the quartiles (Tukey's "far out") is drawn at the axis's edge, pointing
// out, with the count of such values, and an interval reaching past the
// bulk is cut at the edge with a chevron, so that one slow iteration in a
// hundred does not squeeze the rest into a line. Traces tell a hundred
// forks apart by shading every other one, not by a line each. Legends
// show only marks the figure draws.
//
// # Why a small SVG layer, and gonum/plot only for PNG
//
// Sestoft ("Microbenchmarks in Java and C#", 2015) asks for scatter plots
// and log-log plots of time against size with error bars, never smoothed
// curves: points, bars, straight segments and text. gonum.org/v1/plot
// draws these, but its SVG back end (vgsvg) writes fixed colours in a
// style attribute on every element, markers as arc paths, and no
// accessibility metadata: a page could not restyle it for a dark scheme,
// screen readers would get no name, and figures of many points cost more
// bytes than they need. So this package
// builds each figure as a short list of primitives (lines, polygons,
// rectangles, markers, text), each carrying one class, and writes the SVG
// itself: one element per primitive with coordinates to a tenth of a
// pixel, a <title> and an aria-label, the root classes
// "mbench-plot mbench-KIND", and a <style> scoped to .mbench-plot whose
// neutral colours are CSS custom properties (--mb-fg, --mb-bg, --mb-grid,
// --mb-band, --mb-muted) switched by prefers-color-scheme: dark. A page can
// override them; the SVG never fetches anything and names only a generic
// font family. A page of many figures holds StyleSheet once and writes
// each figure with WriteInlineSVG, which leaves the <style> out.
//
// The PNG is the same list of primitives drawn on gonum.org/v1/plot's
// vgimg canvas, in the light scheme, with its embedded Liberation Sans,
// whose metrics also lay out the SVG's text (Liberation Sans is
// metric-compatible with Arial and Helvetica, which a browser's generic
// sans-serif usually is). So both formats come from one code path, and
// rasterising and font handling, the parts worth a well-kept library, are
// gonum's.
//
// # Colours
//
// Series and verdicts use the palette of Okabe and Ito ("Color Universal
// Design", 2002), distinct for the common colour vision deficiencies; its
// mid-tone colours read on light and dark backgrounds alike. Colour never
// carries meaning alone: verdicts differ in shape (slower or more ▶,
// faster or less ◀, no change ●, inconclusive ◇ open), series and a few
// forks in marker shape, and warm-up values are open markers.
package plot
