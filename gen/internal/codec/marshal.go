package codec

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Marshal returns f as indented JSON, one variable a line with its value
// compact, so that a person can read it and the same file always has the
// same bytes.
func (f *File) Marshal() ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\n  \"segment\": %s,\n  \"package\": %s,\n  \"sets\": [", appendString(nil, f.Segment), appendString(nil, f.Package))
	for i, s := range f.Sets {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    {\n")
		if s.Exit != 0 {
			fmt.Fprintf(&b, "      \"exit\": %d,\n", s.Exit)
		}
		for j, list := range [][]Var{s.Inputs, s.Outputs} {
			b.WriteString([]string{`      "inputs": [`, `      "outputs": [`}[j])
			for k, v := range list {
				if k > 0 {
					b.WriteByte(',')
				}
				var val bytes.Buffer
				if err := json.Compact(&val, v.Value); err != nil {
					return nil, fmt.Errorf("set %d: %s: %v", i, v.Name, err)
				}
				fmt.Fprintf(&b, "\n        {\"name\": %s, \"type\": %s, \"value\": %s}", appendString(nil, v.Name), appendString(nil, v.Type), val.Bytes())
			}
			if len(list) > 0 {
				b.WriteString("\n      ")
			}
			b.WriteString("]")
			if j == 0 {
				b.WriteString(",\n")
			}
		}
		b.WriteString("\n    }")
	}
	if len(f.Sets) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("]\n}\n")
	return b.Bytes(), nil
}
