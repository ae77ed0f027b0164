// Package deploy holds recipes that run mbench on infrastructure teams
// already have: GitHub Actions workflows (github/) and Kubernetes manifests
// (k8s/). It has no code, only tests, which check the recipes as the
// platforms would (actionlint for the workflows; the fields and references
// a Kubernetes API server checks for the manifests) and check every mbench
// command in them, and in the documentation that shows them, against the
// commands and flags of the mbench built from this repository.
package deploy

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// A shellCommand is one simple command of a shell script: its words with
// quotes removed and its line, counted from 1 in the script. Expansions
// ($VAR, ${VAR}, $(...), $((...)), and GitHub's ${{ ... }}) are kept as
// written, one part of their word.
type shellCommand struct {
	words []string
	line  int
}

// shellKeywords may stand before the first word of a command; they are
// dropped, so that `if mbench ...; then` yields the command mbench.
var shellKeywords = map[string]bool{
	"if": true, "then": true, "else": true, "elif": true, "fi": true,
	"do": true, "done": true, "while": true, "until": true, "!": true,
	"{": true, "}": true, "time": true, "exec": true,
}

var assignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// shellCommands splits a POSIX shell script into its simple commands, as
// far as recipes need: quotes, backslash escapes and line continuations,
// comments, the separators ; & && | || and newlines, subshells, brace
// groups, redirections (dropped with their target), leading variable
// assignments and keywords (dropped), and command substitutions, whose
// commands are returned too. A `for` head is returned as a command, so
// that callers can see what its variable takes; `case` is not handled. An
// unterminated quote or expansion is an error
// naming its line.
func shellCommands(script string) ([]shellCommand, error) {
	l := &shellLexer{src: script, line: 1}
	if err := l.lex(); err != nil {
		return nil, err
	}
	return l.cmds, nil
}

type shellLexer struct {
	src  string
	pos  int
	line int

	word       strings.Builder
	inWord     bool
	redirect   bool // the next word is a redirection's target
	words      []string
	start      int // line of the command's first word
	cmds       []shellCommand
	nestedBase int // line of src's first line in the outer script, minus 1
}

func (l *shellLexer) lex() error {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == '\\':
			if l.pos+1 < len(l.src) {
				if l.src[l.pos+1] == '\n' {
					l.line++
				} else {
					l.add(l.src[l.pos+1 : l.pos+2])
				}
			}
			l.pos += 2
		case c == '\n':
			l.endCommand()
			l.line++
			l.pos++
		case c == ';' || c == '&' || c == '|' || c == '(' || c == ')':
			l.endCommand()
			l.pos++
		case c == ' ' || c == '\t' || c == '\r':
			l.endWord()
			l.pos++
		case c == '#' && !l.inWord:
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.pos++
			}
		case c == '>' || c == '<':
			if l.inWord && strings.Trim(l.word.String(), "0123456789") == "" {
				l.word.Reset() // a file descriptor: 2>&1
				l.inWord = false
			}
			l.endWord()
			l.pos++
			for l.pos < len(l.src) && strings.IndexByte(">&|", l.src[l.pos]) >= 0 {
				l.pos++
			}
			if l.pos < len(l.src) && l.src[l.pos-1] == '&' && l.src[l.pos] >= '0' && l.src[l.pos] <= '9' {
				l.pos++ // >&2 names no file
				continue
			}
			l.redirect = true
		case c == '\'':
			end := strings.IndexByte(l.src[l.pos+1:], '\'')
			if end < 0 {
				return l.errorf("unterminated single quote")
			}
			l.add(l.src[l.pos+1 : l.pos+1+end])
			l.countLines(l.src[l.pos+1 : l.pos+1+end])
			l.pos += end + 2
		case c == '"':
			if err := l.doubleQuoted(); err != nil {
				return err
			}
		case c == '$':
			if err := l.dollar(); err != nil {
				return err
			}
		default:
			l.add(l.src[l.pos : l.pos+1])
			l.pos++
		}
	}
	l.endCommand()
	return nil
}

func (l *shellLexer) errorf(format string, args ...any) error {
	return fmt.Errorf("line %d: %s", l.nestedBase+l.line, fmt.Sprintf(format, args...))
}

func (l *shellLexer) countLines(s string) { l.line += strings.Count(s, "\n") }

func (l *shellLexer) add(s string) {
	if !l.inWord && len(l.words) == 0 {
		l.start = l.line
	}
	l.inWord = true
	l.word.WriteString(s)
}

func (l *shellLexer) endWord() {
	if !l.inWord {
		return
	}
	if l.redirect {
		l.redirect = false
	} else {
		l.words = append(l.words, l.word.String())
	}
	l.word.Reset()
	l.inWord = false
}

func (l *shellLexer) endCommand() {
	l.endWord()
	l.redirect = false
	w := l.words
	l.words = nil
	for len(w) > 0 && (shellKeywords[w[0]] || assignment.MatchString(w[0])) {
		w = w[1:]
	}
	if len(w) == 0 || w[0] == "case" || w[0] == "esac" {
		return
	}
	l.cmds = append(l.cmds, shellCommand{words: w, line: l.nestedBase + l.start})
}

// doubleQuoted reads a double-quoted string at l.pos: backslash escapes
// only $ ` " \ and newline there, and expansions stay expansions.
func (l *shellLexer) doubleQuoted() error {
	l.add("")
	line := l.line
	l.pos++
	for {
		if l.pos >= len(l.src) {
			l.line = line
			return l.errorf("unterminated double quote")
		}
		switch c := l.src[l.pos]; c {
		case '"':
			l.pos++
			return nil
		case '\\':
			if l.pos+1 < len(l.src) && strings.IndexByte("$`\"\\\n", l.src[l.pos+1]) >= 0 {
				if l.src[l.pos+1] == '\n' {
					l.line++
				} else {
					l.add(l.src[l.pos+1 : l.pos+2])
				}
				l.pos += 2
				continue
			}
			l.add(`\`)
			l.pos++
		case '$':
			if err := l.dollar(); err != nil {
				return err
			}
		default:
			if c == '\n' {
				l.line++
			}
			l.add(l.src[l.pos : l.pos+1])
			l.pos++
		}
	}
}

// dollar reads an expansion at l.pos into the current word, as written.
// The commands of a command substitution $(...) are lexed too.
func (l *shellLexer) dollar() error {
	rest := l.src[l.pos:]
	var end int
	switch {
	case strings.HasPrefix(rest, "${{"):
		end = strings.Index(rest, "}}")
		if end < 0 {
			return l.errorf("unterminated ${{")
		}
		end += 2
	case strings.HasPrefix(rest, "${"):
		end = strings.IndexByte(rest, '}')
		if end < 0 {
			return l.errorf("unterminated ${")
		}
		end++
	case strings.HasPrefix(rest, "$("):
		end = matchParen(rest[1:])
		if end < 0 {
			return l.errorf("unterminated $(")
		}
		end += 2
		if !strings.HasPrefix(rest, "$((") {
			inner := &shellLexer{src: rest[2 : end-1], line: 1, nestedBase: l.nestedBase + l.line - 1}
			if err := inner.lex(); err != nil {
				return err
			}
			l.cmds = append(l.cmds, inner.cmds...)
		}
	default:
		end = 1
	}
	l.add(rest[:end])
	l.countLines(rest[:end])
	l.pos += end
	return nil
}

// matchParen returns the index in s of the parenthesis closing s[0], or
// -1; quoted parentheses do not count.
func matchParen(s string) int {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '\\':
			i++
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

func TestShellCommands(t *testing.T) {
	for _, tc := range []struct {
		script string
		want   string // commands joined by " ; ", words by "|", each prefixed by its line
	}{
		{`mbench run -label x ./...`, `1:mbench|run|-label|x|./...`},
		{"mbench ab -old \"origin/$BASE_REF\" \\\n  -shard \"${{ matrix.shard }}/4\" ./...",
			`1:mbench|ab|-old|origin/$BASE_REF|-shard|${{ matrix.shard }}/4|./...`},
		{"set -eu\n# mbench run -no\nstatus=0\nmbench compare -fail \"pr-$PR\" >c.md || status=$?\nexit \"$status\"",
			`1:set|-eu ; 4:mbench|compare|-fail|pr-$PR ; 5:exit|$status`},
		{"for db in shards/*/shard.db; do\n  mbench store copy \"$db\" all.db\ndone",
			`1:for|db|in|shards/*/shard.db ; 2:mbench|store|copy|$db|all.db`},
		{`if ! mbench run 2>&1 >log; then echo 'a "b" $c'; fi`, `1:mbench|run ; 1:echo|a "b" $c`},
		{`x=$(mbench runs -db "$(pwd)/db" | head -1)`, `1:pwd ; 1:mbench|runs|-db|$(pwd)/db ; 1:head|-1`},
		{`mbench run -shard "$((JOB_COMPLETION_INDEX + 1))/4" -label a\ b`, `1:mbench|run|-shard|$((JOB_COMPLETION_INDEX + 1))/4|-label|a b`},
		{`{ echo a; cat b; } >c; A=1 B=2 mbench help`, `1:echo|a ; 1:cat|b ; 1:mbench|help`},
		{"echo \"a\nb\"\nmbench", "1:echo|a\nb ; 3:mbench"},
		{`mbench run >&2 ./...`, `1:mbench|run|./...`},
	} {
		cmds, err := shellCommands(tc.script)
		if err != nil {
			t.Errorf("%q: %v", tc.script, err)
			continue
		}
		var got []string
		for _, c := range cmds {
			got = append(got, fmt.Sprintf("%d:%s", c.line, strings.Join(c.words, "|")))
		}
		if g := strings.Join(got, " ; "); g != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.script, g, tc.want)
		}
	}
	for _, bad := range []string{`echo 'a`, `echo "a`, "echo a\necho \"$(b", `echo ${{ a`, `echo ${a`} {
		if _, err := shellCommands(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func FuzzShellCommands(f *testing.F) {
	for _, s := range []string{`mbench run -x "a b" 'c' $(d e) $((1+2)) ${{ x }} >f 2>&1; g || h && i | j & k`, "a \\\n b # c\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cmds, err := shellCommands(s)
		if err != nil && !strings.HasPrefix(err.Error(), "line ") {
			t.Errorf("%q: error %q names no line", s, err)
		}
		for _, c := range cmds {
			if len(c.words) == 0 || c.line < 1 || c.line > strings.Count(s, "\n")+1 {
				t.Errorf("%q: command %q at line %d", s, c.words, c.line)
			}
		}
	})
}
