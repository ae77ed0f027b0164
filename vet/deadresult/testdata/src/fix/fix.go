package fix

import "time"

func Twice(x int) int { return 2 * x }

type Point struct{ X, Y int }

func Mirror(p Point) Point { return Point{p.Y, p.X} }

func Split(x int) (int, int) { return x / 2, x % 2 }

// Dur's first result has a type that fix_test.go cannot name without
// importing package time.
func Dur(x int) (time.Duration, bool) { return time.Duration(x) * 2, x > 0 }
