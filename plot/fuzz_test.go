package plot

import (
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"math"
	"testing"
)

// FuzzFigures draws every kind from arbitrary values, NaN, infinities,
// zeros and huge or tiny magnitudes included: each must give SVG that
// parses and holds no NaN or Inf, and never panic.
func FuzzFigures(f *testing.F) {
	f.Add([]byte{}, "x", uint8(3))
	f.Add(floatBytes(1, 2, 3, math.NaN(), math.Inf(1), -1, 0, 1e-300, 1e300), "<b>&", uint8(1))
	f.Add(floatBytes(0, 0, 0, 0, 0, 0), "", uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, name string, k uint8) {
		var v []float64
		for len(data) >= 8 {
			v = append(v, math.Float64frombits(binary.LittleEndian.Uint64(data)))
			data = data[8:]
		}
		at := func(i int) float64 {
			if len(v) == 0 {
				return math.NaN()
			}
			return v[i%len(v)]
		}
		iv := func(i int) Interval { return Interval{at(i), at(i + 1), at(i + 2)} }
		n := len(v)
		var rows []ForestRow
		var groups []StripGroup
		var forks []TraceFork
		var pairs []PairedPoint
		var pts []ScalingPoint
		var hist []HistoryPoint
		for i := range n {
			rows = append(rows, ForestRow{name, iv(i), []string{"slower", "faster", "no change", "inconclusive", name}[i%5]})
			groups = append(groups, StripGroup{name, name, [][]float64{v[:i]}, iv(i)})
			forks = append(forks, TraceFork{v[i:], int(k) - 2})
			pairs = append(pairs, PairedPoint{at(i), at(i + 1)})
			pts = append(pts, ScalingPoint{at(i), iv(i + 1)})
			hist = append(hist, HistoryPoint{name, iv(i)})
		}
		figs := []*Figure{
			Forest(name, rows, at(0)),
			Strip(name, name, groups),
			Trace(name, "sec/op", forks, int(k)),
			Paired(name, "B/op", pairs),
			Scaling(name, name, "sec/op", []ScalingLine{{name, pts, iv(0)}}),
			History(name, "sec/op", []HistorySeries{{name, hist, []int{int(k), -1}}}),
			History(name, "sec/op", []HistorySeries{{name, hist, nil}, {name, nil, nil}}),
		}
		for _, fig := range figs {
			var b bytes.Buffer
			if err := fig.WriteSVG(&b); err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(b.Bytes(), []byte("NaN")) || bytes.Contains(b.Bytes(), []byte("Inf")) {
				if !bytes.Contains([]byte(name), []byte("NaN")) && !bytes.Contains([]byte(name), []byte("Inf")) {
					t.Fatalf("%s: NaN or Inf in the SVG", fig.kind)
				}
			}
			if err := xml.Unmarshal(b.Bytes(), new(node)); err != nil {
				t.Fatalf("%s: SVG does not parse: %v", fig.kind, err)
			}
		}
	})
}

func floatBytes(vs ...float64) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}
