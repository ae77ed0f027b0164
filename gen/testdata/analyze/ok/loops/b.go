package loops

var other [4]int

func init() {
	for i := range other {
		other[i] = -i
	}
}
