package bisect

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// The log of a bisection reads like `git bisect log`: a line per commit
// judged, "good HASH subject", "bad HASH subject" or "skip HASH subject",
// each after a comment with the comparison behind it: the commits
// compared, each benchmark's ratio new/old with its interval and verdict,
// and the stored session. After each step of a search a comment says
// where the culprit stands: its most probable commit and the shortest
// range holding the required confidence.

// short names commit i of the path.
func (rep *Report) short(i int) string { return rep.Path[i].Short() }

// commit names commit i of the path with its subject.
func (rep *Report) commit(i int) string {
	return fmt.Sprintf("[%s] %s", rep.Path[i].Short(), rep.Path[i].Subject)
}

func (rep *Report) writeHead(w io.Writer) {
	n := len(rep.Path) - 1
	line := "the first-parent line"
	if rep.Merge != nil {
		line = "the merge's side, and the merge"
	}
	fmt.Fprintf(w, "# bisect %s..%s: %d commits on %s, looking for the first %s one (threshold %s, %s%% confidence)\n",
		rep.short(0), rep.short(n), n, line, rep.cfg.Search.Direction, percent(rep.cfg.Session.Compare.Threshold), trim(100*rep.cfg.Search.Confidence))
	fmt.Fprintf(w, "# good: %s\n# bad: %s\n", rep.commit(0), rep.commit(n))
}

// writeStep writes the log of one step.
func (rep *Report) writeStep(w io.Writer, st Step, o *sessions) {
	name := func(r Row) string {
		if k, ok := o.keys[r.Name]; ok {
			return k.FullName()
		}
		return r.Name
	}
	what := "search"
	switch st.Kind {
	case KindEndpoints:
		what = "endpoints"
	case KindNeighbour:
		what = "against its parent"
	case KindCheck:
		what = "check"
	}
	fmt.Fprintf(w, "# step %d, %s: %s against %s: ", rep.steps, what, rep.short(st.New), rep.short(st.Old))
	if f := st.Outcome.Failed; f != nil {
		fmt.Fprintf(w, "%s cannot be measured: %s\n", rep.short(f.Commit), f.Reason)
		fmt.Fprintf(w, "skip %s %s\n", rep.short(f.Commit), rep.Path[f.Commit].Subject)
		return
	}
	var rows []string
	for _, r := range st.Outcome.Rows {
		rows = append(rows, fmt.Sprintf("%s %s %v", name(r), ratio(r), r.Verdict))
	}
	fmt.Fprint(w, strings.Join(rows, "; "))
	var where []string
	if st.Outcome.Ref != "" {
		where = append(where, "session "+st.Outcome.Ref)
	}
	if st.Outcome.Note != "" {
		where = append(where, st.Outcome.Note)
	}
	if len(where) > 0 {
		fmt.Fprintf(w, " (%s)", strings.Join(where, ", "))
	}
	fmt.Fprintln(w)
	dir := st.Direction
	if st.Search < 0 {
		dir = rep.cfg.Search.Direction
	}
	a := answer(st.Outcome, dir)
	switch {
	case st.Kind == KindEndpoints && a == changed:
		fmt.Fprintf(w, "good %s %s\nbad %s %s\n", rep.short(st.Old), rep.Path[st.Old].Subject, rep.short(st.New), rep.Path[st.New].Subject)
	case st.Kind == KindSearch && a == changed:
		fmt.Fprintf(w, "bad %s %s\n", rep.short(st.New), rep.Path[st.New].Subject)
	case st.Kind == KindSearch && a == unchanged:
		fmt.Fprintf(w, "good %s %s\n", rep.short(st.New), rep.Path[st.New].Subject)
	}
	if st.Search >= 0 {
		fmt.Fprintf(w, "# culprit: most probably %s (%s); %s in %s\n", rep.short(st.Top), prob(st.TopProb), prob(st.RangeProb), rep.span(st.Lo, st.Hi))
	}
}

// span names the commits lo..hi of the path.
func (rep *Report) span(lo, hi int) string {
	if lo == hi {
		return rep.short(lo)
	}
	return fmt.Sprintf("%s..%s (%d commits)", rep.short(lo), rep.short(hi), hi-lo+1)
}

func (rep *Report) writeEnd(w io.Writer) {
	for _, c := range rep.Changes {
		if c.Found {
			fmt.Fprintf(w, "# first %s commit: %s, probability %s\n", c.Direction, rep.commit(c.Culprit), prob(c.Prob))
		} else {
			fmt.Fprintf(w, "# first %s commit not found at %s%%: %s in %s\n", c.Direction, trim(100*rep.cfg.Search.Confidence), prob(c.RangeProb), rep.span(c.Lo, c.Hi))
		}
	}
}

// Write writes the bisection's outcome: whether the endpoints differ,
// each change found with its probability and size, the checks around it,
// the commits skipped, the history of the commits compared with the
// change point marked, and how to see it with mbench history.
func (rep *Report) Write(w io.Writer) error {
	n := len(rep.Path) - 1
	fmt.Fprintf(w, "bisect %s..%s: %d commits, %d comparisons, sessions in %s\n", rep.short(0), rep.short(n), n, rep.steps, rep.DB)
	name := func(r Row) string {
		if s, ok := rep.names[r.Name]; ok {
			return s
		}
		return r.Name
	}
	rows := func(o Outcome) string {
		var out []string
		for _, r := range o.Rows {
			out = append(out, fmt.Sprintf("%s %s %v", name(r), ratio(r), r.Verdict))
		}
		return strings.Join(out, "; ")
	}
	switch {
	case rep.Result == nil:
		return nil
	case rep.Introduced > 0:
		fmt.Fprintf(w, "%s do not exist at %s; they first exist at %s\n", strings.Join(rep.Missing, ", "), rep.commit(0), rep.commit(rep.Introduced))
		return nil
	case len(rep.Steps) == 0 || rep.Endpoints.Failed != nil:
		return nil
	case !rep.Confirmed:
		fmt.Fprintf(w, "%s is not %s than %s by more than %s: %s\n", rep.short(n), rep.cfg.Search.Direction, rep.short(0), percent(rep.cfg.Session.Compare.Threshold), rows(rep.Endpoints))
		return nil
	}
	fmt.Fprintf(w, "%s against %s: %s\n", rep.short(n), rep.short(0), rows(rep.Endpoints))
	for i, c := range rep.Changes {
		head := fmt.Sprintf("change %d", i+1)
		if len(rep.Changes) == 1 {
			head = "change"
		}
		if c.Found {
			fmt.Fprintf(w, "\n%s: first %s commit %s\n  probability %s, after %d comparisons\n", head, c.Direction, rep.commit(c.Culprit), prob(c.Prob), c.Steps)
		} else {
			fmt.Fprintf(w, "\n%s: %s, not located to one commit at %s%%: %s in %s, most probably %s (%s)\n", head, c.Direction,
				trim(100*rep.cfg.Search.Confidence), prob(c.RangeProb), rep.span(c.Lo, c.Hi), rep.short(c.Culprit), prob(c.Prob))
			for k := c.Lo; k <= c.Hi; k++ {
				fmt.Fprintf(w, "  %s  %s\n", rep.commit(k), prob(c.Posterior[k-c.From-1]))
			}
		}
		if c.Size != nil {
			fmt.Fprintf(w, "  against its parent %s: %s\n", rep.short(c.Culprit-1), rows(*c.Size))
		}
	}
	var checks []string
	for _, ck := range rep.Checks {
		s := fmt.Sprintf("%s..%s %v", rep.short(ck.From), rep.short(ck.To), ck.Shows)
		if ck.Shows == Inconclusive {
			s += " (a further change there cannot be ruled out)"
		}
		checks = append(checks, s)
	}
	if len(checks) > 0 {
		fmt.Fprintf(w, "\nchecked: %s\n", strings.Join(checks, "; "))
	}
	for _, u := range rep.Unsearched {
		fmt.Fprintf(w, "not searched: %s..%s shows a %s change\n", rep.short(u.From), rep.short(u.To), u.Shows)
	}
	if len(rep.Skipped) > 0 {
		fmt.Fprintln(w, "\nskipped:")
		var ks []int
		for k := range rep.Skipped {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		for _, k := range ks {
			fmt.Fprintf(w, "  %s: %s\n", rep.commit(k), rep.Skipped[k])
		}
	}
	for i, c := range rep.Changes {
		rep.writeHistory(w, i, c)
	}
	for _, sub := range rep.Sides {
		fmt.Fprintf(w, "\nthe merge %s brings in %d commits:\n", sub.commit(len(sub.Path)-1), len(sub.Path)-2)
		if err := sub.Write(w); err != nil {
			return err
		}
	}
	return nil
}

// writeHistory writes the commits of a change's search that were compared
// with its reference, in the order of the path, with the change marked,
// and the mbench history command that shows their sessions.
func (rep *Report) writeHistory(w io.Writer, i int, c Change) {
	fmt.Fprintf(w, "\nhistory of %s..%s against %s:\n", rep.short(c.From), rep.short(c.To), rep.short(c.From))
	var labels []string
	for k := c.From + 1; k <= c.To; k++ {
		o := rep.historyOutcome(c, k)
		if label := rep.historyLabel(c, k); label != "" {
			labels = append(labels, quote(label))
		}
		mark := ""
		switch {
		case c.Found && k == c.Culprit:
			mark = fmt.Sprintf("  <- first %s (%s)", c.Direction, prob(c.Prob))
		case !c.Found && k == c.Lo:
			mark = fmt.Sprintf("  <- first %s in here (%s)", c.Direction, prob(c.RangeProb))
		case !c.Found && k == c.Hi:
			mark = "  <- to here"
		}
		if o == nil {
			if mark != "" {
				fmt.Fprintf(w, "  %s  %-40s%s\n", rep.short(k), "", mark)
			}
			continue
		}
		var rs []string
		for _, r := range o.Rows {
			rs = append(rs, fmt.Sprintf("%s %-12v", ratio(r), r.Verdict))
		}
		fmt.Fprintf(w, "  %s  %-40s%s\n", rep.short(k), strings.Join(rs, " "), mark)
	}
	if len(labels) > 1 {
		fmt.Fprintf(w, "  mbench history -db %s %s\n", quote(rep.DB), strings.Join(labels, " "))
	}
}

// historyOutcome returns the comparison of commit k with the reference of
// change c's search that the history shows: the first decided one, or
// else the last; nil when there is none.
func (rep *Report) historyOutcome(c Change, k int) *Outcome {
	var o *Outcome
	for _, st := range rep.Steps {
		if st.Old == c.From && st.New == k && st.Outcome.Failed == nil {
			o = &st.Outcome
			if decided(st.Outcome) {
				break
			}
		}
	}
	return o
}

// historyLabel is the label of the session historyOutcome returns or,
// when commit k was not compared with the reference, of a decided
// comparison of k with its parent: the history of the sessions shows the
// newer commit of each. It is "" for none.
func (rep *Report) historyLabel(c Change, k int) string {
	if o := rep.historyOutcome(c, k); o != nil {
		return o.Ref
	}
	for _, st := range rep.Steps {
		if st.Old == k-1 && st.New == k && decided(st.Outcome) {
			return st.Outcome.Ref
		}
	}
	return ""
}

// quote quotes s for a shell when it needs it.
func quote(s string) string {
	if strings.ContainsAny(s, " '\"\\$*?[]()&;|<>") {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return s
}

// ratio formats a row's ratio and interval.
func ratio(r Row) string {
	return fmt.Sprintf("%.3f [%.3f, %.3f]", r.Ratio, r.Lo, r.Hi)
}

// prob formats a probability.
func prob(p float64) string {
	if p > 0.999 && p < 1 {
		return ">0.999"
	}
	return fmt.Sprintf("%.3g", p)
}

// percent formats a fraction as a percentage, "3%".
func percent(f float64) string { return trim(100*f) + "%" }

// trim formats x with at most two decimals and no trailing zeros.
func trim(x float64) string {
	s := strings.TrimRight(fmt.Sprintf("%.2f", x), "0")
	return strings.TrimSuffix(s, ".")
}
