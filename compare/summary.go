package compare

import (
	"io"
	"math"
	"strconv"
	"strings"
)

// A Summary counts the verdicts of a comparison, for the line that ends
// its text and markdown forms and for the counts of its JSON form.
type Summary struct {
	// Worse, Better and NoChange count the rows with those verdicts;
	// Inconclusive counts those that could not tell, TooFew included.
	// Higher and Lower count the changes of a metric whose better
	// direction is unknown.
	Worse, Better, NoChange, Inconclusive, Higher, Lower int
	// Geomean is the change of the geometric mean over the rows
	// (new/old - 1), NaN unless more than one row has one.
	Geomean float64
}

// Summary counts r's verdicts.
func (r *Result) Summary() Summary {
	s := Summary{Geomean: math.NaN()}
	for _, row := range r.Rows {
		switch row.Verdict {
		case Worse:
			s.Worse++
		case Better:
			s.Better++
		case NoChange:
			s.NoChange++
		case Higher:
			s.Higher++
		case Lower:
			s.Lower++
		default:
			s.Inconclusive++
		}
	}
	if r.Geomean.N > 1 {
		s.Geomean = r.Geomean.Ratio - 1
	}
	return s
}

// SummaryLine says r's verdicts in one line, in the words of its metric:
// "1 slower, 0 faster, 5 no change, 1 inconclusive; geomean +11.50%".
func (r *Result) SummaryLine() string {
	var b strings.Builder
	r.writeSummary(&b, false)
	return b.String()
}

// verdictColour is the colour of each verdict on a terminal (ANSI SGR
// codes): worse red, better green, what cannot tell yellow; no change,
// and a change whose direction is unknown, are not coloured.
var verdictColour = map[Verdict]string{Worse: "31", Better: "32", Inconclusive: "33", TooFew: "33"}

// paint colours s as verdict v when colour is set.
func paint(s string, v Verdict, colour bool) string {
	if c, ok := verdictColour[v]; ok && colour {
		return "\x1b[" + c + "m" + s + "\x1b[0m"
	}
	return s
}

// writeSummary writes SummaryLine to w, each count that is not 0
// coloured as its verdict when colour is set.
func (r *Result) writeSummary(w io.Writer, colour bool) {
	s := r.Summary()
	type part struct {
		n int
		v Verdict
	}
	parts := []part{{s.Worse, Worse}, {s.Better, Better}, {s.NoChange, NoChange}, {s.Inconclusive, Inconclusive}}
	if r.Better == 0 {
		parts[0], parts[1] = part{s.Higher, Higher}, part{s.Lower, Lower}
	}
	sep := ""
	for _, p := range parts {
		text := strconv.Itoa(p.n) + " " + r.Word(p.v)
		if p.n > 0 {
			text = paint(text, p.v, colour)
		}
		io.WriteString(w, sep+text)
		sep = ", "
	}
	if !math.IsNaN(s.Geomean) {
		io.WriteString(w, "; geomean "+pct(s.Geomean, true))
	}
}

// Coloured returns a writer to w on which the text form of a comparison
// (Result.Write, WriteAll) colours its verdicts for a terminal: slower
// red, faster green, inconclusive yellow. The caller decides whether w
// is a terminal that wants colour.
func Coloured(w io.Writer) io.Writer { return colourWriter{w} }

type colourWriter struct{ io.Writer }

// coloured reports whether w asks for colour (Coloured).
func coloured(w io.Writer) bool {
	_, ok := w.(colourWriter)
	return ok
}
