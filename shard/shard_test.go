package shard

import (
	"fmt"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Shard
		err  string // substring of the error; "" for none
	}{
		{"1/1", Shard{1, 1}, ""},
		{"1/2", Shard{1, 2}, ""},
		{"2/2", Shard{2, 2}, ""},
		{"3/8", Shard{3, 8}, ""},
		{"1024/1024", Shard{1024, 1024}, ""},
		{"0/2", Shard{}, `"0/2": shards count from 1`},
		{"3/2", Shard{}, `"3/2": shard 3 of only 2`},
		{"a/b", Shard{}, `"a/b": not two numbers`},
		{"1/0", Shard{}, `"1/0": 0 shards`},
		{"", Shard{}, `"": not two numbers`},
		{"1", Shard{}, `"1": not two numbers`},
		{"1/2/3", Shard{}, `"1/2/3": not two numbers`},
		{"-1/2", Shard{}, `"-1/2": not two numbers`},
		{"+1/2", Shard{}, `"+1/2": not two numbers`},
		{" 1/2", Shard{}, `" 1/2": not two numbers`},
		{"1/1025", Shard{}, `"1/1025": 1025 shards`},
		{"1/99999999999999999999", Shard{}, "not two numbers"},
	} {
		got, err := Parse(c.in)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("Parse(%q): %v", c.in, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("Parse(%q) = %v, %v; want an error with %q", c.in, got, err, c.err)
		case c.err != "" && !strings.Contains(err.Error(), "1 ≤ i ≤ n ≤ 1024"):
			t.Errorf("Parse(%q): %v; want it to say what is valid", c.in, err)
		case got != c.want:
			t.Errorf("Parse(%q) = %v, want %v", c.in, got, c.want)
		}
		if err == nil && got.String() != c.in {
			t.Errorf("Parse(%q).String() = %q", c.in, got.String())
		}
	}
	if s := (Shard{}); !s.Whole() || s.String() != "" {
		t.Errorf("zero Shard: Whole %v, String %q", s.Whole(), s.String())
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"1/2", "0/2", "3/2", "a/b", "1/0", "", "1024/1024", "007/8"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := Parse(s)
		if err != nil {
			if !strings.Contains(err.Error(), fmt.Sprintf("%q", s)) {
				t.Fatalf("Parse(%q): error %q does not name the value", s, err)
			}
			return
		}
		if sh.Index < 1 || sh.Index > sh.Count || sh.Count > Max {
			t.Fatalf("Parse(%q) = %+v, out of range", s, sh)
		}
		again, err := Parse(sh.String())
		if err != nil || again != sh {
			t.Fatalf("Parse(%q) = %v, but its String %q parses as %v, %v", s, sh, sh.String(), again, err)
		}
	})
}
