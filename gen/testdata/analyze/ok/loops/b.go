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
