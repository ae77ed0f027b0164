// Package q uses the summaries of package p, which reach it as facts.
package q

import "p"

func UseP(x int) int { return p.Add(x, 2) } // want UseP:"^pure, foldable$"

func UseImpure(x int) int { return p.SetGlobal(x) }
