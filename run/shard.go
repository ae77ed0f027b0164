package run

import (
	"slices"

	"github.com/mbench/mbench/shard"
)

// shard keeps of the prepared targets those of the job's shard.
func (p *Prepared) shard() error {
	j := &p.Job
	if j.Shard.Whole() {
		return nil
	}
	plan, err := shard.Take(j.ShardRuns, j.Shard, j.ShardBasis, keysOf(p.Targets), j.Label)
	if err != nil {
		return err
	}
	p.Shard = plan
	p.Targets = slices.DeleteFunc(p.Targets, func(t Target) bool { return !p.Shard.Has(t.Key) })
	return nil
}
