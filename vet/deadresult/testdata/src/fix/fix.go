package fix

func Twice(x int) int { return 2 * x }

type Point struct{ X, Y int }

func Mirror(p Point) Point { return Point{p.Y, p.X} }

func Split(x int) (int, int) { return x / 2, x % 2 }
