package codec

import "encoding/json"

// A File is the recorded input sets of one segment, testdata/mbench/NAME.json:
//
//	{"segment":"NAME","package":"import/path","sets":[
//	   {"inputs":[{"name":"xs","type":"[]int","value":[3,1,2]}, ...],
//	    "outputs":[{"name":"sum","type":"int","value":6}, ...]}]}
type File struct {
	Segment string `json:"segment"`
	Package string `json:"package"`
	Sets    []Set  `json:"sets"`
}

// A Set is one execution of the segment: its inputs before, its outputs
// (and mutated inputs) after. Exit says how the execution left the
// segment: 0 at its end, k by its k-th exit (a return, or a branch to a
// statement outside it); after a return, the outputs are the mutated
// inputs and the values returned ("return 0", ...).
type Set struct {
	Exit    int   `json:"exit,omitempty"`
	Inputs  []Var `json:"inputs"`
	Outputs []Var `json:"outputs"`

	file  string // where the set was loaded from, for messages
	index int
}

// A Var is one recorded variable. Type is the variable's type as the
// package writes it; Value is its encoding by Encode.
type Var struct {
	Name  string          `json:"name"`
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
}
