package report

import (
	"bufio"
	"errors"
	"fmt"
	"html"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/google/pprof/profile"
	"github.com/mbench/mbench/profdiff"
)

// A Profile is the diff of the kept CPU profiles of one benchmark of an
// A/B session (mbench ab -profile), drawn as a diff flame graph.
type Profile struct {
	// Name is the benchmark, as its files are named: its package's last
	// element and its name.
	Name string
	Tree *profdiff.Node
	Unit string
	// Old and New are the files the tree was read from.
	Old, New string
}

// cpuSuffix ends the name of a kept CPU profile of the old version.
const cpuSuffix = ".old.cpu.pb.gz"

// profiles reads the kept profiles of the session runs of the report
// from dir/<run id>/, and says in the notes what it could not read.
func (r *Report) profiles(dir string) {
	seen := map[string]bool{}
	for _, s := range r.Sides {
		id := s.Run.ID
		if id == "" || seen[id] {
			continue
		}
		seen[id] = true
		files, _ := filepath.Glob(filepath.Join(dir, id, "*"+cpuSuffix))
		slices.Sort(files)
		for _, old := range files {
			p, err := readKept(old, strings.TrimSuffix(old, cpuSuffix)+".new.cpu.pb.gz")
			if err != nil {
				r.Notes = append(r.Notes, fmt.Sprintf("profiles of run %s: %v", id, err))
				continue
			}
			r.Profiles = append(r.Profiles, p)
		}
	}
}

// opsComment is the comment profdiff.Merge writes into a merged profile.
var opsComment = regexp.MustCompile(`^mbench: (\d+) processes, (\d+) operations$`)

// readKept reads the merged profiles of one benchmark's two versions.
func readKept(old, new string) (*Profile, error) {
	var ps [2][]profdiff.Process
	for i, path := range []string{old, new} {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		p, err := profile.Parse(bufio.NewReader(f))
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", filepath.Base(path), err)
		}
		ops := 0.0
		for _, c := range p.Comments {
			if m := opsComment.FindStringSubmatch(c); m != nil {
				ops, _ = strconv.ParseFloat(m[2], 64)
			}
		}
		if ops == 0 {
			return nil, fmt.Errorf("%s: no count of operations (not kept by mbench?)", filepath.Base(path))
		}
		ps[i] = []profdiff.Process{{Profile: p, Ops: ops}}
	}
	tree, unit, err := profdiff.Tree(ps[0], ps[1], profdiff.CPU)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Base(old), err)
	}
	return &Profile{Name: strings.TrimSuffix(filepath.Base(old), cpuSuffix), Tree: tree, Unit: unit, Old: old, New: new}, nil
}

// The diff flame graph's geometry.
const (
	flameWidth  = 960.0
	flameRow    = 17.0
	flameTop    = 26.0
	flameDepth  = 48   // rows drawn at most
	flameMinPx  = 0.75 // narrower frames are left out
	flameLabelW = 36.0 // narrower frames carry no label
)

// flame is a diff flame graph, drawn as an icicle: the root on top, each
// frame's callees below it, each as wide as the mean of its time per
// operation in the two versions, coloured by the change: vermillion for
// more time in the new version, blue for less, grey for none, the
// saturation growing with the change up to the largest in the graph. Each
// frame's <title> says its values and change.
type flame struct {
	title string
	p     *Profile
}

// WriteInlineSVG writes the flame graph for the page; it carries its own
// small <style>, as it uses none of plot.StyleSheet's classes.
func (f flame) WriteInlineSVG(w io.Writer) error { return f.WriteSVG(w) }

// WriteSVG writes the flame graph as a standalone <svg> element.
func (f flame) WriteSVG(w io.Writer) error {
	root := f.p.Tree
	if root == nil || root.Old+root.New <= 0 {
		return errors.New("report: an empty profile")
	}
	scale := flameWidth / ((root.Old + root.New) / 2)
	// The largest change of any frame drawn sets the colour scale.
	maxDelta := 0.0
	depth := 0
	var measure func(n *profdiff.Node, d int)
	measure = func(n *profdiff.Node, d int) {
		if d >= flameDepth || (n.Old+n.New)/2*scale < flameMinPx {
			return
		}
		depth = max(depth, d+1)
		maxDelta = max(maxDelta, math.Abs(n.New-n.Old))
		for _, c := range n.Children {
			measure(c, d+1)
		}
	}
	measure(root, 0)
	maxDelta = max(maxDelta, root.Old*0.01) // under 1% of the total is grey
	height := flameTop + float64(depth)*flameRow + 22
	b := bufio.NewWriter(w)
	label := fmt.Sprintf("%s: diff flame graph of CPU time per operation, %s → %s", f.title,
		nsText(root.Old), nsText(root.New))
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" class="mbench-plot mbench-flame" role="img" aria-label="%s" viewBox="0 0 %g %g" width="%g" height="%g">`,
		html.EscapeString(label), flameWidth, height, flameWidth, height)
	fmt.Fprintf(b, "<title>%s</title>", html.EscapeString(label))
	b.WriteString(`<style>.mbench-flame{font:11px sans-serif}.mbench-flame text{fill:var(--mb-fg,#222);pointer-events:none}` +
		`.mbench-flame .fr{stroke:var(--mb-bg,#fff);stroke-width:0.5}.mbench-flame .bg{fill:var(--mb-bg,#fff)}` +
		`@media (prefers-color-scheme: dark){.mbench-flame text{fill:var(--mb-fg,#ddd)}.mbench-flame .bg{fill:var(--mb-bg,#1b1b1b)}.mbench-flame .fr{stroke:var(--mb-bg,#1b1b1b)}}</style>`)
	fmt.Fprintf(b, `<rect class="bg" width="%g" height="%g"/>`, flameWidth, height)
	fmt.Fprintf(b, `<text x="4" y="16" font-weight="bold">%s</text>`, html.EscapeString(truncateText(f.title, 110)))
	total := root.Old
	var draw func(n *profdiff.Node, x float64, d int)
	draw = func(n *profdiff.Node, x float64, d int) {
		wd := (n.Old + n.New) / 2 * scale
		if d >= flameDepth || wd < flameMinPx {
			return
		}
		y := flameTop + float64(d)*flameRow
		delta := n.New - n.Old
		tip := fmt.Sprintf("%s: %s → %s per op (%s, %+.1f pts of the old total)", n.Func,
			nsText(n.Old), nsText(n.New), signedTime(delta), 100*delta/total)
		fmt.Fprintf(b, `<g><title>%s</title><rect class="fr" x="%.2f" y="%.2f" width="%.2f" height="%g" fill="%s"/>`,
			html.EscapeString(tip), x, y, wd, flameRow-1, flameColour(delta/maxDelta))
		if wd >= flameLabelW {
			fmt.Fprintf(b, `<text x="%.2f" y="%.2f">%s</text>`, x+3, y+12, html.EscapeString(truncateText(shortFunc(n.Func), int((wd-6)/6.2))))
		}
		b.WriteString("</g>")
		cx := x
		for _, c := range n.Children {
			draw(c, cx, d+1)
			cx += (c.Old + c.New) / 2 * scale
		}
	}
	draw(root, 0, 0)
	fmt.Fprintf(b, `<text x="4" y="%.2f">width: mean of both versions' time per op; vermillion: more time in the new version, blue: less; hover a frame for its change</text>`, height-7)
	b.WriteString("</svg>")
	return b.Flush()
}

// flameColour returns the fill of a frame whose change is t of the
// largest, t in [-1, 1]: Okabe–Ito vermillion for more time, blue for
// less, mixed with grey as t nears 0.
func flameColour(t float64) string {
	t = max(-1, min(1, t))
	grey := [3]float64{0xc8, 0xc8, 0xc8}
	to := [3]float64{0xD5, 0x5E, 0x00} // vermillion
	if t < 0 {
		to, t = [3]float64{0x00, 0x72, 0xB2}, -t // blue
	}
	var c [3]int
	for i := range c {
		c[i] = int(math.Round(grey[i] + (to[i]-grey[i])*math.Sqrt(t)))
	}
	return fmt.Sprintf("#%02x%02x%02x", c[0], c[1], c[2])
}

// signedTime formats a change in ns per op with its sign.
func signedTime(ns float64) string {
	sign := "+"
	if ns < 0 {
		sign = "−"
	}
	return sign + nsText(math.Abs(ns))
}

// nsText formats a time in nanoseconds in a readable unit: "400ns",
// "1.25µs", "0s".
func nsText(ns float64) string {
	switch a := math.Abs(ns); {
	case a == 0:
		return "0s"
	case a >= 1e9:
		return strconv.FormatFloat(ns/1e9, 'g', 3, 64) + "s"
	case a >= 1e6:
		return strconv.FormatFloat(ns/1e6, 'g', 3, 64) + "ms"
	case a >= 1e3:
		return strconv.FormatFloat(ns/1e3, 'g', 3, 64) + "µs"
	}
	return strconv.FormatFloat(ns, 'g', 3, 64) + "ns"
}

// shortFunc drops a function's import path but its last element:
// "encoding/json.(*decodeState).object" is "json.(*decodeState).object".
func shortFunc(name string) string {
	if i := strings.LastIndex(name, "/"); i >= 0 && !strings.Contains(name[:i], "(") {
		return name[i+1:]
	}
	return name
}

// truncateText cuts s to n characters, ending in "…" when cut.
func truncateText(s string, n int) string {
	r := []rune(s)
	if n < 2 {
		return ""
	}
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
