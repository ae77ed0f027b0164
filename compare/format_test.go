package compare

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mbench/mbench/bench"
)

// zeroRun is a run of one benchmark whose every iteration reports v in
// unit, as a benchmark that never allocates reports 0 B/op.
func zeroRun(label, unit string, v float64) *bench.Run {
	run := &bench.Run{Label: label}
	k := bench.Key{Package: "p", Name: "Intern", Procs: 2}
	for f := range 4 {
		for i := range 5 {
			run.Measurements = append(run.Measurements, bench.Measurement{
				Key: k, Coord: bench.Coord{Fork: f + 1, Iteration: i}, N: 100,
				Values: []bench.Value{{Value: 1e-7 * float64(10+i), Unit: "sec/op"}, {Value: v, Unit: unit}},
			})
		}
	}
	return run
}

// TestMachineFormatsWithoutRatio checks that the JSON and CSV forms stay
// valid when the change is not a ratio (0 → n B/op or allocs/op): JSON
// has no spelling for +Inf or NaN, so those numbers are null, CSV leaves
// them empty, and in both the row's note says why.
func TestMachineFormatsWithoutRatio(t *testing.T) {
	for _, unit := range []string{"B/op", "allocs/op"} {
		opts := DefaultOptions
		opts.Metric = unit
		opts.Replicates = 200
		res, err := Compare(zeroRun("old", unit, 0), zeroRun("new", unit, 32), opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Rows) != 1 || res.Rows[0].Verdict != Worse {
			t.Fatalf("%s: rows %+v, want one, worse", unit, res.Rows)
		}

		var js bytes.Buffer
		if err := res.Write(&js, JSON); err != nil {
			t.Fatalf("%s: JSON: %v", unit, err)
		}
		var doc struct {
			Rows []struct {
				Ratio, Lo, Hi, Resolution *float64
				Verdict, Note             string
			}
		}
		if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
			t.Fatalf("%s: invalid JSON: %v\n%s", unit, err, &js)
		}
		r := doc.Rows[0]
		if r.Ratio != nil || r.Lo != nil || r.Hi != nil || r.Resolution != nil {
			t.Errorf("%s: JSON ratio, lo, hi, resolution %v %v %v %v, want null", unit, r.Ratio, r.Lo, r.Hi, r.Resolution)
		}
		if r.Verdict != "more" || !strings.Contains(r.Note, "not a ratio") {
			t.Errorf("%s: JSON verdict %q, note %q; want more and a note saying the change is not a ratio", unit, r.Verdict, r.Note)
		}

		var cs bytes.Buffer
		if err := res.Write(&cs, CSV); err != nil {
			t.Fatalf("%s: CSV: %v", unit, err)
		}
		recs, err := csv.NewReader(&cs).ReadAll()
		if err != nil || len(recs) != 2 {
			t.Fatalf("%s: CSV: %v, %d records\n%s", unit, err, len(recs), &cs)
		}
		row := map[string]string{}
		for i, name := range recs[0] {
			row[name] = recs[1][i]
		}
		for _, name := range []string{"ratio", "lo", "hi", "resolution"} {
			if row[name] != "" {
				t.Errorf("%s: CSV %s %q, want empty", unit, name, row[name])
			}
		}
		if row["verdict"] != "more" || !strings.Contains(row["note"], "not a ratio") {
			t.Errorf("%s: CSV verdict %q, note %q; want more and a note saying the change is not a ratio", unit, row["verdict"], row["note"])
		}
		for _, bad := range []string{"Inf", "NaN"} {
			if strings.Contains(js.String(), bad) || strings.Contains(cs.String(), bad) {
				t.Errorf("%s: %s in the output:\n%s\n%s", unit, bad, &js, &cs)
			}
		}
	}
}

// TestWriteAllMachineFormats checks that several comparisons, one per
// metric, make one valid JSON array and one CSV table.
func TestWriteAllMachineFormats(t *testing.T) {
	var results []*Result
	for _, unit := range []string{"sec/op", "B/op", "allocs/op"} {
		opts := DefaultOptions
		opts.Metric = unit
		opts.Replicates = 200
		res, err := Compare(zeroRun("old", unit, 0), zeroRun("new", unit, 32), opts)
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, res)
	}
	var js bytes.Buffer
	if err := WriteAll(&js, JSON, results); err != nil {
		t.Fatal(err)
	}
	var arr []json.RawMessage
	if err := json.Unmarshal(js.Bytes(), &arr); err != nil || len(arr) != len(results) {
		t.Errorf("WriteAll JSON: %v, %d objects, want %d\n%s", err, len(arr), len(results), &js)
	}
	var cs bytes.Buffer
	if err := WriteAll(&cs, CSV, results); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&cs).ReadAll()
	if err != nil || len(recs) != 1+len(results) {
		t.Fatalf("WriteAll CSV: %v, %d records, want %d\n%s", err, len(recs), 1+len(results), &cs)
	}
	for i, rec := range recs[1:] {
		if got, want := rec[3], results[i].Metric; got != want {
			t.Errorf("WriteAll CSV row %d: metric %q, want %q", i+1, got, want)
		}
	}
	if fmt.Sprint(recs[0]) != fmt.Sprint(csvHeader) {
		t.Errorf("WriteAll CSV header %v, want %v", recs[0], csvHeader)
	}
}
