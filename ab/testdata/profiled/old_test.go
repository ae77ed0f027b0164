//go:build !slower

package profiled

const (
	validateFactor = 1
	exitLater      = false
)
