package compare

import (
	"bytes"
	"fmt"
	"io"
)

// WriteAll writes several comparisons of the same inputs, one per metric,
// to w: text and markdown one after the other, JSON as an array of the
// objects Write gives, CSV as one table (its rows name their metric).
func WriteAll(w io.Writer, f Format, results []*Result) error {
	switch f {
	case JSON:
		if _, err := io.WriteString(w, "["); err != nil {
			return err
		}
		for i, r := range results {
			var buf bytes.Buffer
			if err := r.writeJSON(&buf); err != nil {
				return err
			}
			if i > 0 {
				io.WriteString(w, ",")
			}
			if _, err := w.Write(bytes.TrimRight(buf.Bytes(), "\n")); err != nil {
				return err
			}
		}
		_, err := io.WriteString(w, "]\n")
		return err
	case CSV:
		for i, r := range results {
			var buf bytes.Buffer
			if err := r.writeCSV(&buf); err != nil {
				return err
			}
			b := buf.Bytes()
			if i > 0 {
				// Drop the header line of all but the first table.
				if nl := bytes.IndexByte(b, '\n'); nl >= 0 {
					b = b[nl+1:]
				}
			}
			if _, err := w.Write(b); err != nil {
				return err
			}
		}
		return nil
	case Text, Markdown:
		for i, r := range results {
			if i > 0 {
				fmt.Fprintln(w)
			}
			if err := r.Write(w, f); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("unknown format %q", f)
}
