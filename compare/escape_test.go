package compare

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEscapeText(t *testing.T) {
	for in, want := range map[string]string{
		"Parse/n=10-2":         "Parse/n=10-2",
		"ünïcode µs":           "ünïcode µs",
		"esc\x1b[31m":          `esc\x1b[31m`,
		"a\nb\r\tc\x7f":        `a\x0ab\x0d\x09c\x7f`,
		"c1\u0085":             `c1\u0085`,
		"rtl\u202eright\u2066": `rtl\u202eright\u2066`,
		"bad\xff\xfe":          `bad\xff\xfe`,
		"\uFFFD kept":          "\uFFFD kept",
	} {
		if got := EscapeText(in); got != want {
			t.Errorf("EscapeText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEscapeMarkdown(t *testing.T) {
	for _, tc := range []struct {
		in   string
		cell bool
		want string
	}{
		{"sec/op (lower is better): mean of new vs old; 99% CI of new/old", false, "sec/op (lower is better): mean of new vs old; 99% CI of new/old"},
		{"as `go test -count N` gives", false, "as `go test -count N` gives"},
		{"x.A-2: need at least 8 samples", false, "x.A-2: need at least 8 samples"},
		{"see [click](http://evil.example) now", false, "see `[click](http://evil.example)` now"},
		{"</code><b>bold</b>", false, "`</code><b>bold</b>`"},
		{"a|b|c: x", false, "`a|b|c:` x"},
		{"a|b|c", true, "`a\\|b\\|c`"},
		{"old|new", true, "`old\\|new`"},
		{"x`y", false, "``x`y``"},
		{"`x", false, "`` `x ``"},
		{"www.evil.example and someone@evil.example", false, "`www.evil.example` and `someone@evil.example`"},
		{"emoji :rocket: here", false, "emoji `:rocket:` here"},
		{"1. list", false, "`1.` list"},
		{"- list", false, "`-` list"},
		{"# heading", false, "`#` heading"},
		{"two\nlines", false, "`two\\x0alines`"},
		{"  padded  ", false, "padded"},
		{"", false, ""},
	} {
		if got := EscapeMarkdown(tc.in, tc.cell); got != tc.want {
			t.Errorf("EscapeMarkdown(%q, %v) = %q, want %q", tc.in, tc.cell, got, tc.want)
		}
	}
}

func TestCSVCell(t *testing.T) {
	for in, want := range map[string]string{
		"Parse/n=10": "Parse/n=10", "=1+1": "'=1+1", "+1": "'+1", "-1": "'-1", "@SUM(A1)": "'@SUM(A1)",
		"\tx": "'\tx", "\rx": "'\rx", "": "", "a=b": "a=b",
	} {
		if got := csvCell(in); got != want {
			t.Errorf("csvCell(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzEscapeMarkdown checks EscapeMarkdown on any text: the result is one
// line; outside its code spans, as CommonMark finds them, it holds no
// character markdown or GitHub could read as more than text; in a cell, no
// pipe that is not escaped; and the code spans' contents, put back,
// hold every character of the text but the escaped ones.
func FuzzEscapeMarkdown(f *testing.F) {
	for _, s := range []string{"plain words", "[a](b)", "x`y `z` w", "``", "`", "a|b", "\\|", "<b>", " ` ", "1. x", "a\nb", "\xff", "www.x"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, cell bool) {
		out := EscapeMarkdown(s, cell)
		if strings.ContainsAny(out, "\n\r") || !utf8.ValidString(out) {
			t.Fatalf("EscapeMarkdown(%q) = %q: not one line of UTF-8", s, out)
		}
		var text strings.Builder
		for rest := out; rest != ""; {
			i := strings.IndexByte(rest, '`')
			if i < 0 {
				text.WriteString(rest)
				break
			}
			text.WriteString(rest[:i])
			n := backticks(rest[i:])
			end := closingRun(rest[i+n:], n)
			if end < 0 {
				t.Fatalf("EscapeMarkdown(%q) = %q: a backtick run that closes no code span", s, out)
			}
			span := rest[i+n : i+n+end]
			if cell && strings.Contains(strings.ReplaceAll(span, `\|`, ""), "|") {
				t.Fatalf("EscapeMarkdown(%q, cell) = %q: a pipe not escaped in a code span", s, out)
			}
			text.WriteByte(' ')
			rest = rest[i+n+end+n:]
		}
		words := strings.Fields(text.String())
		for i, w := range words {
			if !plainText(w) {
				t.Fatalf("EscapeMarkdown(%q) = %q: %q outside a code span", s, out, w)
			}
			if i == 0 && strings.HasPrefix(out, w) && !startsPlain(w) {
				t.Fatalf("EscapeMarkdown(%q) = %q: a line beginning %q", s, out, w)
			}
		}
	})
}
