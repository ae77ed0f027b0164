package fix

import "time"

func Twice(x int) int { return 2 * x }

type Point struct{ X, Y int }

func Mirror(p Point) Point { return Point{p.Y, p.X} }

func Split(x int) (int, int) { return x / 2, x % 2 }

// Dur's first result has a type that fix_test.go cannot name without
// importing package time.
func Dur(x int) (time.Duration, bool) { return time.Duration(x) * 2, x > 0 }

type Pair[T ~int | ~float64] struct{ A, B T }

func (p Pair[T]) Sum() T { return p.A*2 + p.B }

func Add[T ~int | ~float64](x, y T) T { return x*2 + y }
