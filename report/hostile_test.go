package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/compare"
)

// hostile are benchmark names, labels and units as a pull request from a
// fork may choose them: markdown links and images, HTML, pipes and
// backticks that end table cells and code spans, emphasis, autolinks,
// mentions, math, entities, escapes, block syntax, formula cells, and
// control characters for a terminal.
var hostile = []string{
	"[click](http://evil.example)",
	"</code><b>bold</b>",
	"<img/src=x/onerror=alert(1)>",
	"a|b|c",
	"x`y",
	"``z``",
	"*em*_em_~~gone~~",
	"![pixel](http://evil.example/p.png)",
	"http://evil.example/x",
	"www.evil.example",
	"someone@evil.example",
	"@everyone",
	"#1",
	"$x^2$",
	"&amp;&lt;",
	`\|\`,
	"-1+1",
	"=HYPERLINK(\"http://evil.example\")",
	"#_heading",
	":rocket:",
	"esc\x1b[31mred\x1b[0m",
	"line\nbreak\r",
	"tab\tand\u202eevil",
	"bad\xffutf8",
}

// hostileReport builds a report of two runs with the hostile names and
// labels, and hostile warnings and notes.
func hostileReport(t *testing.T) *Report {
	t.Helper()
	names := make([]string, len(hostile))
	for i, h := range hostile {
		names[i] = "B" + h // go test names begin with a capital
	}
	old := fixture("[old](http://evil.example)", names, 3, 0, 8, 1)
	new := fixture("<b>new</b>|x", names, 3, 0, 8, 1.3)
	for _, r := range []*bench.Run{old, new} {
		for i := range r.Measurements {
			if r.Measurements[i].Key.Name == names[0] {
				r.Measurements[i].Key.Package = "<script>alert(1)</script>"
			}
		}
	}
	rep, err := Build([]*bench.Run{old, new}, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hostile {
		rep.Notes = append(rep.Notes, "note about "+h)
	}
	c := rep.Comparisons[0]
	c.Metric = "<img/src=x>/op"
	c.OnlyOld = append(c.OnlyOld, bench.Key{Package: "p", Name: "[only](http://evil.example)"})
	for _, h := range hostile {
		c.Warnings = append(c.Warnings, h+": a warning that quotes it")
	}
	c.Rows[0].Note = "=cmd|' /C calc'!A0"
	return rep
}

// TestHostileNames renders hostile names, labels, units and notes in every
// format of a comparison (text, markdown, JSON, CSV) and of a report (HTML,
// markdown, text), and checks that no format interprets any of them: a
// terminal sees no control character, markdown no link, image, HTML,
// emphasis or extra table cell (and GitHub's renderer, when cmark-gfm is
// installed, produces none), JSON and CSV give the names back, CSV with
// formulas defused, and the page shows them as text. Before, names went
// into markdown as they were.
func TestHostileNames(t *testing.T) {
	rep := hostileReport(t)
	c := rep.Comparisons[0]
	write := func(w func(*bytes.Buffer) error) string {
		t.Helper()
		var b bytes.Buffer
		if err := w(&b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	for _, f := range compare.Formats {
		out := write(func(b *bytes.Buffer) error { return c.Write(b, f) })
		switch f {
		case compare.Text:
			checkTerminal(t, "compare text", out)
		case compare.Markdown:
			checkMarkdown(t, "compare markdown", out)
		case compare.JSON:
			checkJSON(t, out, c)
		case compare.CSV:
			checkCSV(t, out, c)
		}
	}
	checkTerminal(t, "report text", write(func(b *bytes.Buffer) error { return rep.Write(b, Text) }))
	checkMarkdown(t, "report markdown", write(func(b *bytes.Buffer) error { return rep.Write(b, Markdown) }))
	// The table of a report of one run, and its markdown without
	// comparisons.
	one, err := Build([]*bench.Run{hostileReport(t).Sides[0].Run}, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	checkMarkdown(t, "report markdown of one run", write(func(b *bytes.Buffer) error { return one.Write(b, Markdown) }))
	checkTerminal(t, "report text of one run", write(func(b *bytes.Buffer) error { return one.Write(b, Text) }))

	page := write(func(b *bytes.Buffer) error { return rep.Write(b, HTML) })
	for _, tag := range []string{"<script", "<img", "<b>", `<a href="http`} {
		if strings.Contains(page, tag) {
			t.Errorf("HTML: the page holds %q", tag)
		}
	}
	p := parse(t, page)
	for _, want := range []string{"</code><b>bold</b>", "[click](http://evil.example)", "<b>new</b>|x"} {
		if !strings.Contains(p.text, want) {
			t.Errorf("HTML: the page does not show %q as text", want)
		}
	}
	checkSelfContained(t, p)
}

// checkTerminal fails t when out holds a character a terminal acts on
// other than newlines and tabs, or is not UTF-8.
func checkTerminal(t *testing.T, what, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("%s: not UTF-8", what)
	}
	for _, r := range out {
		if r == '\n' || r == '\t' {
			continue
		}
		if r < 0x20 || r == 0x7f || 0x80 <= r && r < 0xa0 || r == 0x202e {
			t.Errorf("%s: holds %U", what, r)
			return
		}
	}
	if !strings.Contains(out, `esc\x1b[31mred`) {
		t.Errorf("%s: the escape sequence is not shown escaped", what)
	}
}

// codeSpan matches what CommonMark reads as a code span, found left to
// right: a run of backticks to the next run of the same length.
var backtickRun = regexp.MustCompile("`+")

// outsideCode returns line without its code spans, as CommonMark finds
// them, and the contents of the spans.
func outsideCode(line string) (text string, spans []string) {
	var b strings.Builder
	for {
		open := backtickRun.FindStringIndex(line)
		if open == nil {
			b.WriteString(line)
			return b.String(), spans
		}
		n := open[1] - open[0]
		closed := -1
		for _, run := range backtickRun.FindAllStringIndex(line[open[1]:], -1) {
			if run[1]-run[0] == n {
				closed = open[1] + run[0]
				break
			}
		}
		if closed < 0 {
			// No closing run: literal backticks.
			b.WriteString(line[:open[1]])
			line = line[open[1]:]
			continue
		}
		b.WriteString(line[:open[0]])
		spans = append(spans, line[open[1]:closed])
		line = line[closed+n:]
	}
}

// intervalText matches an interval of changes or values in a table.
var intervalText = regexp.MustCompile(`\[[-+0-9.e%∞µnmkMGTi, ]*\]`)

// checkMarkdown fails t when out, markdown, could show more than text:
// outside code spans it may hold only the syntax the writers use (a
// heading, quotes, table pipes, "**" around a verdict), each table row as
// many cells as its header, and no hostile input may reach the page
// outside a code span. With cmark-gfm installed it also renders out as
// GitHub does and looks for links, images and HTML.
func checkMarkdown(t *testing.T, what, out string) {
	t.Helper()
	cells := 0
	for _, line := range strings.Split(out, "\n") {
		text, _ := outsideCode(line)
		text = strings.TrimPrefix(text, "> ")
		text = strings.TrimLeft(text, "#")
		if strings.HasPrefix(line, "|") {
			// GitHub splits cells at every pipe not escaped, code
			// spans or not.
			n := len(regexp.MustCompile(`(^|[^\\])\|`).FindAllString(strings.ReplaceAll(line, "||", "| |"), -1))
			if cells == 0 || strings.HasPrefix(line, "| benchmark") {
				cells = n
			} else if n != cells {
				t.Errorf("%s: a row of %d pipes under a header of %d:\n%s", what, n, cells, line)
			}
			text = strings.ReplaceAll(text, "|", "")
		} else {
			cells = 0
		}
		for _, v := range []string{"slower", "faster", "more", "less"} {
			text = strings.ReplaceAll(text, "**"+v+"**", v)
		}
		// Intervals are in brackets, which no line defines as a link.
		text = intervalText.ReplaceAllString(text, "")
		if i := strings.IndexAny(text, "\\`*_~[]<>&|$@#"); i >= 0 {
			t.Errorf("%s: %q outside a code span in\n%s", what, text[i], line)
		}
		for _, s := range []string{"://", "www.", ":rocket:"} {
			if strings.Contains(text, s) {
				t.Errorf("%s: %q outside a code span in\n%s", what, s, line)
			}
		}
	}
	if !strings.Contains(out, "``") {
		t.Errorf("%s: no code span with a longer fence for the backticks of a name:\n%s", what, out)
	}

	cmark, err := exec.LookPath("cmark-gfm")
	if err != nil {
		t.Logf("%s: cmark-gfm is not installed; not rendered", what)
		return
	}
	cmd := exec.Command(cmark, "-e", "table", "-e", "autolink", "-e", "strikethrough", "-e", "tagfilter")
	cmd.Stdin = strings.NewReader(out)
	page, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: cmark-gfm: %v", what, err)
	}
	html := string(page)
	for _, tag := range []string{"<a ", "<img", "<b>", "<em>", "<del>", "<script", "<h1", "<ol", "<ul"} {
		if strings.Contains(html, tag) {
			t.Errorf("%s: GitHub's renderer makes %q of\n%s\n%s", what, tag, out, html)
		}
	}
	for _, m := range regexp.MustCompile(`<strong>(.*?)</strong>`).FindAllStringSubmatch(html, -1) {
		if !slices.Contains([]string{"slower", "faster", "more", "less"}, m[1]) {
			t.Errorf("%s: bold text %q", what, m[1])
		}
	}
	for _, want := range []string{"a|b|c", "x`y", "&lt;/code&gt;&lt;b&gt;bold&lt;/b&gt;", "[click](http://evil.example)"} {
		if !regexp.MustCompile("<code>[^<]*" + regexp.QuoteMeta(want)).MatchString(html) {
			t.Errorf("%s: GitHub's renderer does not show %q as code:\n%s", what, want, html)
		}
	}
}

// checkJSON fails t when the JSON form does not give back the names and
// labels of c.
func checkJSON(t *testing.T, out string, c *compare.Result) {
	t.Helper()
	var doc struct {
		Old, New string
		Rows     []struct{ Pkg, Name string }
		Warnings []string
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("JSON: %v", err)
	}
	if doc.Old != c.OldLabel || doc.New != c.NewLabel || len(doc.Rows) != len(c.Rows) {
		t.Errorf("JSON: %q, %q, %d rows; want %q, %q, %d", doc.Old, doc.New, len(doc.Rows), c.OldLabel, c.NewLabel, len(c.Rows))
	}
	for i, row := range doc.Rows {
		// JSON holds text, so encoding/json writes bytes that are not
		// UTF-8 as U+FFFD.
		want := strings.ToValidUTF8(c.Rows[i].Key.Name, "\uFFFD")
		if row.Name != want || row.Pkg != c.Rows[i].Key.Package {
			t.Errorf("JSON: row %d is %q %q, want %q %q", i, row.Pkg, row.Name, c.Rows[i].Key.Package, want)
		}
	}
	if strings.ContainsAny(out, "<>") {
		t.Errorf("JSON: < or > unescaped")
	}
}

// checkCSV fails t when the CSV form does not give back the names of c,
// in 17 columns, with formulas defused.
func checkCSV(t *testing.T, out string, c *compare.Result) {
	t.Helper()
	records, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatalf("CSV: %v", err)
	}
	if len(records) != len(c.Rows)+1 {
		t.Fatalf("CSV: %d records, want %d", len(records), len(c.Rows)+1)
	}
	for i, rec := range records[1:] {
		if len(rec) != 18 {
			t.Errorf("CSV: record %d has %d fields", i, len(rec))
			continue
		}
		name := c.Rows[i].Key.Name
		if strings.ContainsAny(name[:1], "=+-@\t\r") {
			name = "'" + name
		}
		if rec[1] != name {
			t.Errorf("CSV: name %q, want %q", rec[1], name)
		}
		for _, cell := range rec {
			if cell != "" && strings.ContainsAny(cell[:1], "=+@\t\r") {
				t.Errorf("CSV: a cell a spreadsheet computes: %q", cell)
			}
		}
	}
	if note := records[1][16]; note != "'"+c.Rows[0].Note {
		t.Errorf("CSV: note %q, want it defused", note)
	}
}
