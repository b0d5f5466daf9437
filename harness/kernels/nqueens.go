package kernels

import (
	"fmt"
	"sync"

	"github.com/gofork/gofork/core"
)

// nqueens: libfork's version: copy the board, check the new queen against
// all placed ones, fork every valid child. A fork splits the set of valid
// columns of a row in halves, so every fork carries real work. NQueens
// forks down to the last queen (libfork's setting); NQueensGrain is nqueens
// as a user writes it, serial for the last NQGrain rows. n = 12: 14,200
// solutions, at both scales (the board is an array of NQN).
const (
	NQN    = 12    // the board's side
	NQWant = 14200 // solutions on it (OEIS A000170)
	// NQGrain is how many rows from the bottom NQueensGrain searches
	// serially: the last rows hold most nodes but little work each.
	NQGrain = 4
)

func init() {
	size := func(Scale) string { return fmt.Sprintf("n=%d", NQN) }
	add(&Kernel{
		Name:     "nqueens-cutoff",
		Suite:    SuiteMain,
		Order:    30,
		About:    "n-queens count, serial below the cutoff on both sides; baseline: goroutine+WaitGroup per split above it",
		Size:     size,
		Variants: []string{Serial, Gofork, Baseline},
		Baseline: "goroutines+WaitGroup",
		Cutoff:   fmt.Sprintf("the last %d rows searched serially", NQGrain),
		Setup: func(variant string, p int, _ Scale) (*Job, error) {
			return setupNQueens(variant, p, NQGrain)
		},
	})
	add(&Kernel{
		Name:     "nqueens",
		Suite:    SuiteMain,
		Order:    31,
		Kind:     ForkEverywhere,
		About:    "coarse irregular tasks: forks split the valid placements of a row; baseline: goroutine+WaitGroup per split",
		Size:     size,
		Variants: []string{Serial, Gofork, Baseline},
		Baseline: "goroutines+WaitGroup",
		Cutoff:   "none: forks down to the last queen",
		Setup: func(variant string, p int, _ Scale) (*Job, error) {
			return setupNQueens(variant, p, 0)
		},
	})
}

// setupNQueens prepares the n-queens count for variant, serial for the
// last grain rows (0: none, forks down to the last queen).
func setupNQueens(variant string, p, grain int) (*Job, error) {
	var got int
	j := &Job{Verify: func() error {
		if got != NQWant {
			return fmt.Errorf("nqueens(%d) = %d solutions, want %d", NQN, got, NQWant)
		}
		return nil
	}}
	switch variant {
	case Serial:
		j.Run = func() { got = NQueensSerial(NQBoard{}, 0) }
	case Gofork:
		pool := core.New(core.WithWorkers(p))
		nq := NQueens
		if grain > 0 {
			nq = NQueensGrain
		}
		root := func(w *core.Worker) int { return nq(w, NQArg{}) }
		j.Run = func() { got = core.RunValue(pool, root) }
		j.Close = pool.Close
		j.Pool = pool
	case Baseline:
		j.Run = func() { got = NQueensGoroutines(NQArg{}, grain) }
	default:
		return nil, fmt.Errorf("nqueens: no variant %q", variant)
	}
	return j, nil
}

// NQBoard holds the column of the queen of each filled row.
type NQBoard [NQN]int8

// nqValid returns the columns where a queen can go in row j of a, as a bit
// mask (libfork's ok() check, O(j) per column).
func nqValid(a *NQBoard, j int) uint32 {
	var mask uint32
	for col := int8(0); col < NQN; col++ {
		ok := true
		for i := 0; i < j; i++ {
			p := a[i]
			d := int8(j - i)
			if p == col || p == col-d || p == col+d {
				ok = false
				break
			}
		}
		if ok {
			mask |= 1 << col
		}
	}
	return mask
}

// NQueensSerial counts the solutions that extend a, whose rows below j are
// filled.
func NQueensSerial(a NQBoard, j int) int {
	if j == NQN {
		return 1
	}
	n := 0
	for m := nqValid(&a, j); m != 0; m &= m - 1 {
		b := a
		b[j] = int8(lowBit(m))
		n += NQueensSerial(b, j+1)
	}
	return n
}

func lowBit(m uint32) int {
	n := 0
	for m&1 == 0 {
		m >>= 1
		n++
	}
	return n
}

// NQArg is a board, the row to fill and the set of valid columns still to
// try (0: not computed yet). The zero NQArg is the empty board.
type NQArg struct {
	a    NQBoard
	j    int
	cols uint32
}

// NQueens counts the solutions that extend arg, forking down to the last
// queen.
func NQueens(w *core.Worker, arg NQArg) int {
	if arg.j == NQN {
		return 1
	}
	if arg.cols == 0 {
		arg.cols = nqValid(&arg.a, arg.j)
	}
	return nqCols(w, arg)
}

func nqCols(w *core.Worker, arg NQArg) int {
	m := arg.cols
	if m == 0 {
		return 0
	}
	if m&(m-1) == 0 { // one column: place the queen and go down a row
		b := arg.a
		b[arg.j] = int8(lowBit(m))
		return NQueens(w, NQArg{a: b, j: arg.j + 1})
	}
	left, right := nqSplit(m)
	x, y := core.Join(w, nqCols, NQArg{arg.a, arg.j, left}, nqCols, NQArg{arg.a, arg.j, right})
	return x + y
}

// nqSplit splits a set of columns (bits) into two halves of its bits.
func nqSplit(m uint32) (left, right uint32) {
	right = m
	for k := popcount(m) / 2; k > 0; k-- {
		right &= right - 1
	}
	return m &^ right, right
}

func popcount(m uint32) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}

// NQueensGrain is NQueens searching the last NQGrain rows serially.
func NQueensGrain(w *core.Worker, arg NQArg) int {
	if arg.j >= NQN-NQGrain {
		return NQueensSerial(arg.a, arg.j)
	}
	if arg.cols == 0 {
		arg.cols = nqValid(&arg.a, arg.j)
	}
	m := arg.cols
	if m == 0 {
		return 0
	}
	if m&(m-1) == 0 {
		b := arg.a
		b[arg.j] = int8(lowBit(m))
		return NQueensGrain(w, NQArg{a: b, j: arg.j + 1})
	}
	left, right := nqSplit(m)
	x, y := core.Join(w, NQueensGrain, NQArg{arg.a, arg.j, left}, NQueensGrain, NQArg{arg.a, arg.j, right})
	return x + y
}

// NQueensGoroutines is the Go baseline: the same splits as NQueens, or as
// NQueensGrain when grain > 0, with a goroutine and a WaitGroup per split.
func NQueensGoroutines(arg NQArg, grain int) int {
	if arg.j == NQN {
		return 1
	}
	if grain > 0 && arg.j >= NQN-grain {
		return NQueensSerial(arg.a, arg.j)
	}
	if arg.cols == 0 {
		arg.cols = nqValid(&arg.a, arg.j)
	}
	m := arg.cols
	if m == 0 {
		return 0
	}
	if m&(m-1) == 0 {
		b := arg.a
		b[arg.j] = int8(lowBit(m))
		return NQueensGoroutines(NQArg{a: b, j: arg.j + 1}, grain)
	}
	left, right := nqSplit(m)
	var x int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); x = NQueensGoroutines(NQArg{arg.a, arg.j, left}, grain) }()
	y := NQueensGoroutines(NQArg{arg.a, arg.j, right}, grain)
	wg.Wait()
	return x + y
}
