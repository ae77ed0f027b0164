// Package markers holds bad markers.
package markers

import _ "unsafe"

//mbench:bench TopLevel
var x = 1

func f(xs []int) {
	s := 0
	//mbench:bench
	s++
	//mbench:bench lower
	s++
	//mbench:bench Two Words
	s++
	//mbench:bench Dup
	s++
	//mbench:bench End
}

func g() {
	//mbench:bench Blank

}

func h() int {
	//mbench:bench AfterBlank

	return x
}

//mbench:bench NoBody
//go:linkname nanotime runtime.nanotime
func nanotime() int64
