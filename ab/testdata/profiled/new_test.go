//go:build slower

package profiled

const (
	validateFactor = 3
	exitLater      = true
)
