package store

import (
	"context"
	"errors"
	"testing"
)

func TestEndStatus(t *testing.T) {
	live := context.Background()
	cancelled, cancel := context.WithCancel(live)
	cancel()
	failed := errors.New("fork failed")
	for _, c := range []struct {
		ctx  context.Context
		err  error
		want string
	}{
		{live, nil, StatusComplete},
		{live, failed, StatusFailed},
		{cancelled, context.Canceled, StatusInterrupted},
		{cancelled, nil, StatusInterrupted},
	} {
		if got := EndStatus(c.ctx, c.err); got != c.want {
			t.Errorf("EndStatus(ctx err %v, %v) = %s, want %s", c.ctx.Err(), c.err, got, c.want)
		}
	}
}
