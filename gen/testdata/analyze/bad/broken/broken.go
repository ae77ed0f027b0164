// Package broken does not build.
package broken

func f() int {
	return "one"
}
