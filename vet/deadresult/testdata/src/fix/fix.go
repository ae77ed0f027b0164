package fix

func Twice(x int) int { return 2 * x }
