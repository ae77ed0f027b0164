package gitrev

import (
	"context"
	"fmt"
	"strings"
)

// A Commit is one commit of a path between two revisions.
type Commit struct {
	Hash    string
	Parents []string
	Subject string
}

// Short returns the commit's first 12 hex digits, as Revision.Short.
func (c Commit) Short() string { return c.Hash[:min(12, len(c.Hash))] }

// Path returns the commits from revision from to revision to of the git
// repository containing dir, from first and to last: with firstParent,
// the first-parent line of to back to from; otherwise every commit that
// to has and from has not, parents before children. from must be an
// ancestor of to. Path only reads the repository.
func Path(ctx context.Context, dir, from, to string, firstParent bool) ([]Commit, error) {
	top, err := toplevel(ctx, dir)
	if err != nil {
		return nil, err
	}
	var ends [2]string
	for i, rev := range []string{from, to} {
		if ends[i], err = verify(ctx, top, rev); err != nil {
			return nil, err
		}
	}
	if ends[0] == ends[1] {
		return nil, fmt.Errorf("%s and %s are the same commit", from, to)
	}
	if _, err := git(ctx, top, "merge-base", "--is-ancestor", ends[0], ends[1]); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%s is not an ancestor of %s", from, to)
	}
	args := []string{"log", "--reverse", "--topo-order", "--format=%H %P%x09%s"}
	if firstParent {
		args = append(args, "--first-parent")
	}
	out, err := git(ctx, top, append(args, ends[0]+".."+ends[1], "--")...)
	if err != nil {
		return nil, err
	}
	first, err := commit(ctx, top, ends[0])
	if err != nil {
		return nil, err
	}
	path := []Commit{first}
	for line := range strings.SplitSeq(out, "\n") {
		if line == "" {
			continue
		}
		c, err := parseCommit(line)
		if err != nil {
			return nil, err
		}
		path = append(path, c)
	}
	return path, nil
}

// commit returns the commit hash names in the repository top.
func commit(ctx context.Context, top, hash string) (Commit, error) {
	out, err := git(ctx, top, "log", "-1", "--format=%H %P%x09%s", hash, "--")
	if err != nil {
		return Commit{}, err
	}
	return parseCommit(out)
}

// parseCommit reads a line of git log --format='%H %P%x09%s'.
func parseCommit(line string) (Commit, error) {
	ids, subject, ok := strings.Cut(line, "\t")
	fields := strings.Fields(ids)
	if !ok || len(fields) == 0 {
		return Commit{}, fmt.Errorf("git log: unexpected line %q", line)
	}
	return Commit{Hash: fields[0], Parents: fields[1:], Subject: subject}, nil
}

// Side returns the commits that merge commit rev of the repository
// containing dir brings in from its second parent: the first-parent line
// of the second parent back to where it meets the first parent's history,
// oldest first.
func Side(ctx context.Context, dir, rev string) ([]Commit, error) {
	top, err := toplevel(ctx, dir)
	if err != nil {
		return nil, err
	}
	m, err := verify(ctx, top, rev)
	if err != nil {
		return nil, err
	}
	c, err := commit(ctx, top, m)
	if err != nil {
		return nil, err
	}
	if len(c.Parents) < 2 {
		return nil, fmt.Errorf("%s is not a merge commit", rev)
	}
	out, err := git(ctx, top, "log", "--reverse", "--topo-order", "--first-parent", "--format=%H %P%x09%s", c.Parents[0]+".."+c.Parents[1], "--")
	if err != nil {
		return nil, err
	}
	var side []Commit
	for line := range strings.SplitSeq(out, "\n") {
		if line == "" {
			continue
		}
		c, err := parseCommit(line)
		if err != nil {
			return nil, err
		}
		side = append(side, c)
	}
	return side, nil
}

// CommitOf returns the commit rev names in the repository containing dir.
func CommitOf(ctx context.Context, dir, rev string) (Commit, error) {
	top, err := toplevel(ctx, dir)
	if err != nil {
		return Commit{}, err
	}
	h, err := verify(ctx, top, rev)
	if err != nil {
		return Commit{}, err
	}
	return commit(ctx, top, h)
}
