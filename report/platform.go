package report

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mbench/mbench/bench"
)

// platform tabulates the sides' metadata: the run, where it was measured,
// and how it was configured (its settings, without the stop reasons, which
// the traces show). It is nil when no side records where it was measured.
func platform(sides []*Side) *Platform {
	p := &Platform{}
	known := false
	add := func(field string, platform bool, value func(*bench.Run) string) {
		row := PlatformRow{Field: field}
		for _, s := range sides {
			row.Values = append(row.Values, value(s.Run))
		}
		if slices.IndexFunc(row.Values, func(v string) bool { return v != "" }) < 0 {
			return
		}
		row.Differs = slices.ContainsFunc(row.Values, func(v string) bool { return v != row.Values[0] })
		if platform {
			known = true
			if row.Differs {
				p.Differs = append(p.Differs, field)
			}
		}
		p.Rows = append(p.Rows, row)
	}
	for _, s := range sides {
		p.Labels = append(p.Labels, s.Label)
	}
	add("run", false, func(r *bench.Run) string { return r.ID })
	add("commit", false, func(r *bench.Run) string {
		if r.Dirty {
			return r.Commit + " (dirty)"
		}
		return r.Commit
	})
	for i, f := range (&bench.Platform{}).Fields() {
		add(f[0], true, func(r *bench.Run) string { return r.Platform.Fields()[i][1] })
	}
	add("load before", false, func(r *bench.Run) string {
		if r.Load == nil {
			return ""
		}
		return strconv.FormatFloat(*r.Load, 'f', 2, 64)
	})
	add("start", false, func(r *bench.Run) string { return stamp(r.Start) })
	add("end", false, func(r *bench.Run) string { return stamp(r.End) })
	var keys []string
	for _, s := range sides {
		for k := range s.Run.Settings {
			// Per benchmark, not per run.
			if !strings.HasPrefix(k, bench.SettingStopPrefix) && !strings.HasPrefix(k, bench.SettingWarmupPrefix) && !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		add(k, false, func(r *bench.Run) string { return r.Settings[k] })
	}
	if !known {
		return nil
	}
	return p
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}
