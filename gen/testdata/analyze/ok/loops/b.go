package loops

var other [4]int

func init() {
	for i := range other {
		other[i] = -i
	}
}

// Each is a function literal at package level.
var Each = func(xs []int) (n int) {
	for range xs {
		n++
	}
	return n
}

// Labelled continues its own loop by its label.
func Labelled(xs []int) int {
	n := 0
top:
	for _, x := range xs {
		if x < 0 {
			continue top
		}
		n++
	}
	return n
}
