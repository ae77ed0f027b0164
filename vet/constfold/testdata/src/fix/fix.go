// Package fix is the code under test for constfold's suggested fixes.
package fix

import (
	"math"
	"os"
)

func Mix(x, y int) int { return x*31 + y }

type Celsius float64

func (c Celsius) Fahrenheit() float64 { return float64(c)*9/5 + 32 }

func Round(v float32) uint16 {
	bits := math.Float32bits(v)
	return uint16((bits + 0x7fff + (bits>>16)&1) >> 16)
}

// Perm takes an os.FileMode, an alias of io/fs.FileMode.
func Perm(m os.FileMode) int { return int(m&0o777) * 3 }
