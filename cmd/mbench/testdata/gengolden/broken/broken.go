package broken

// Half halves x.
func Half(x int) int {
	//mbench:bench Half
	return x / undefinedTwo
}
