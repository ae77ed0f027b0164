package markers

func k() int {
	n := 0
	//mbench:bench Dup
	n++
	return n
}
