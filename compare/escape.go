package compare

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Benchmark names, labels, units and the warnings that quote them come from
// the inputs, and the inputs may come from anyone: a pull request from a
// fork names its own benchmarks, and CI recipes post the markdown of a
// comparison as a comment on it. So whatever the formats for people show
// of the inputs is escaped, for the reader the format is for:
//
//   - text, for a terminal: control characters (escape sequences, carriage
//     returns, newlines, tabs) and the bidirectional controls that reorder
//     what a terminal or editor shows are written as Go escapes, \x1b,
//     \u202e; bytes that are not UTF-8 as \xff (EscapeText).
//   - markdown, for GitHub: text goes through EscapeText first, so that no
//     newline starts a block; then every word that markdown or GitHub could
//     read as more than text — a link, an image, HTML, an entity, emphasis,
//     a table's pipe, a backtick, math, a mention, an issue reference, an
//     autolinked address or URL, an emoji code — becomes a code span, in
//     which GitHub interprets nothing (EscapeMarkdown, MarkdownCode).
//     Code spans rather than backslash escapes, because GitHub autolinks
//     addresses, mentions people and links issues after rendering, in all
//     text but code.
//   - CSV (encoding/csv quotes the rest): a cell of text that a spreadsheet
//     would take for a formula, beginning with =, +, -, @, a tab or a
//     carriage return, gets a leading apostrophe (csvCell).
//   - JSON: encoding/json, which also escapes <, > and &.

// EscapeText returns s with control characters, bidirectional controls
// and invalid UTF-8 written as Go escapes, so that a terminal shows s as
// the characters it holds and acts on none of them.
func EscapeText(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return r == utf8.RuneError || hidden(r) })
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for s = s[i:]; s != ""; {
		r, n := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[0])
		case hidden(r):
			switch {
			case r < 0x80:
				fmt.Fprintf(&b, `\x%02x`, r)
			default:
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteString(s[:n])
		}
		s = s[n:]
	}
	return b.String()
}

// hidden reports whether r is a control character or a bidirectional
// control (the "Trojan Source" characters, CVE-2021-42574).
func hidden(r rune) bool {
	switch {
	case unicode.IsControl(r):
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f,
		0x202a <= r && r <= 0x202e, 0x2066 <= r && r <= 0x2069:
		return true
	}
	return false
}

// EscapeMarkdown returns s, text that may come from the inputs, as
// markdown that shows it and nothing more: the words in which markdown or
// GitHub could see anything but text become code spans (see the comment
// at the top of this file), and the rest is left as it is, so that plain
// prose reads as prose. A code span s itself holds, `go test`, stays one.
// cell says that the text goes in a table cell, where pipes are escaped.
func EscapeMarkdown(s string, cell bool) string {
	s = strings.TrimSpace(EscapeText(s))
	var out strings.Builder
	for i, w := range markdownWords(s) {
		if i > 0 {
			out.WriteByte(' ')
		}
		// A code span of s keeps its pipes, which in a cell end it.
		plain := w.plain && !(cell && strings.Contains(w.text, "|"))
		if plain && (i > 0 || startsPlain(w.text)) {
			out.WriteString(w.text)
		} else {
			out.WriteString(MarkdownCode(w.text, cell))
		}
	}
	return out.String()
}

// startsPlain reports whether a line may begin with word without it
// starting a block (a list item, a heading, a quote, a thematic break):
// it begins with a letter.
func startsPlain(word string) bool {
	r, _ := utf8.DecodeRuneInString(word)
	return unicode.IsLetter(r)
}

// A markdownWord is a word of text, as EscapeMarkdown splits it: the
// characters between spaces, a code span (which may hold spaces) counting
// as characters of the word it is in. plain says that the word shows as
// it is: its text outside code spans is plain.
type markdownWord struct {
	text  string
	plain bool
}

// markdownWords splits s, which holds no newline, into words. Code spans
// are found as CommonMark finds them: a run of n backticks opens one, the
// next run of exactly n closes it, and a run that nothing closes is
// literal backticks.
func markdownWords(s string) []markdownWord {
	var (
		words []markdownWord
		start = 0
		prose strings.Builder // the word's text outside code spans
	)
	flush := func(end int) {
		if end > start {
			words = append(words, markdownWord{s[start:end], plainText(prose.String())})
		}
		prose.Reset()
	}
	for i := 0; i < len(s); {
		switch s[i] {
		case ' ':
			flush(i)
			i++
			start = i
		case '`':
			n := backticks(s[i:])
			if end := closingRun(s[i+n:], n); end >= 0 {
				i += n + end + n
				prose.WriteByte(' ')
				continue
			}
			prose.WriteString(s[i : i+n])
			i += n
		default:
			prose.WriteByte(s[i])
			i++
		}
	}
	flush(len(s))
	return words
}

// backticks returns the length of the run of backticks s begins with.
func backticks(s string) int {
	n := 0
	for n < len(s) && s[n] == '`' {
		n++
	}
	return n
}

// closingRun returns where in s the first run of exactly n backticks
// begins, or -1.
func closingRun(s string, n int) int {
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		k := backticks(s[i:])
		if k == n {
			return i
		}
		i += k
	}
	return -1
}

// markdownSpecial holds the characters with which markdown or GitHub may
// read a word as more than text: backslash escapes, code, emphasis and
// strikethrough, links and images, HTML and autolinks, entities, table
// cells, math, mentions and issue references.
const markdownSpecial = "\\`*_~[]<>&|$@#"

// plainText reports whether text, a word outside its code spans, shows
// as itself in GitHub's markdown. A colon is allowed last ("name:"), not
// within, where it may make a URL (http://), an emoji (:smile:) or a
// scheme (mailto:); "www." starts a link.
func plainText(text string) bool {
	if strings.ContainsAny(text, markdownSpecial) {
		return false
	}
	if i := strings.IndexByte(text, ':'); i >= 0 && i < len(text)-1 {
		return false
	}
	return !strings.Contains(strings.ToLower(text), "www.")
}

// MarkdownCode returns s, which may come from the inputs, as a markdown
// code span that shows it exactly: its fence is longer than any run of
// backticks in s, and a space pads s when it begins or ends with a
// backtick or a space (CommonMark strips one from each side). Control
// characters are escaped first (EscapeText); cell escapes pipes, which
// would end a table cell even in a code span (GitHub shows "\|" in a code
// span of a cell as "|").
func MarkdownCode(s string, cell bool) string {
	s = EscapeText(s)
	if s == "" {
		return ""
	}
	if cell {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	longest := 0
	for i := 0; i < len(s); {
		if s[i] == '`' {
			n := backticks(s[i:])
			longest = max(longest, n)
			i += n
			continue
		}
		i++
	}
	fence := strings.Repeat("`", longest+1)
	pad := ""
	if first, last := s[0], s[len(s)-1]; first == '`' || last == '`' || first == ' ' || last == ' ' {
		pad = " "
	}
	return fence + pad + s + pad + fence
}

// csvCell returns s as a CSV cell that a spreadsheet will not take for a
// formula: a cell that begins with =, +, -, @, a tab or a carriage return
// gets a leading apostrophe, as OWASP advises against CSV injection.
func csvCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
