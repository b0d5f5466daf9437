package main

import (
	"fmt"
	"sync"

	"github.com/gofork/gofork/core"
)

// nqueens: count the placements of n non-attacking queens, forking one task
// per valid placement of the next queen, as libfork's benchmark does, in
// two rows: "nqueens" forks down to the last queen (libfork's setting),
// "nqueens-cutoff" is nqueens as a user writes it, searching serially from
// row nqueensCutRow on. The paper uses n=14; n=12 (14,200 solutions) runs in
// about 100 ms serially.
const (
	nqueensN      = 12
	nqueensNQuick = 11
	nqMax         = 16 // largest n the fixed-size board holds
	// nqueensCutRow: boards with this many queens placed are searched
	// serially. At n=12 its 4,080 leaves average ~30 µs on the 2-core EPYC
	// VM, at the -quick n=11 its 2,468 leaves ~9 µs.
	nqueensCutRow = 4
)

// nqueensSolutions are the published counts (OEIS A000170).
var nqueensSolutions = map[int]int{8: 92, 9: 352, 10: 724, 11: 2680, 12: 14200, 13: 73712, 14: 365596}

func init() {
	size := func(q bool) string { return fmt.Sprintf("n=%d", pick(q, nqueensN, nqueensNQuick)) }
	register(&benchmark{
		name:     "nqueens-cutoff",
		suite:    suiteMain,
		order:    30,
		about:    "n-queens count, serial below the cutoff on both sides; baseline: goroutine+WaitGroup per placement above it",
		size:     size,
		variants: []string{variantSerial, variantGofork, variantBaseline},
		baseline: "goroutines+WaitGroup",
		cutoff:   fmt.Sprintf("serial once %d queens are placed", nqueensCutRow),
		setup: func(variant string, p int, quick bool) (*job, error) {
			return setupNQueens(variant, p, quick, nqueensCutRow)
		},
	})
	register(&benchmark{
		name:     "nqueens",
		suite:    suiteMain,
		order:    31,
		kind:     kindForkEverywhere,
		about:    "coarse irregular tasks: one fork per valid queen placement; baseline: goroutine+WaitGroup per placement",
		size:     size,
		variants: []string{variantSerial, variantGofork, variantBaseline},
		baseline: "goroutines+WaitGroup",
		cutoff:   "none: a fork per valid placement, down to the last queen",
		setup: func(variant string, p int, quick bool) (*job, error) {
			return setupNQueens(variant, p, quick, 0)
		},
	})
}

// setupNQueens prepares the n-queens count for variant, serial from row
// cutRow on (0: none, a fork per placement down to the last queen).
func setupNQueens(variant string, p int, quick bool, cutRow int) (*job, error) {
	n := pick(quick, nqueensN, nqueensNQuick)
	want := nqueensSolutions[n]
	root := nqBoard{n: int8(n), cut: int8(n)}
	if cutRow > 0 {
		root.cut = int8(cutRow)
	}
	var got int
	j := &job{verify: func() error {
		if got != want {
			return fmt.Errorf("nqueens(%d) = %d solutions, want %d", n, got, want)
		}
		return nil
	}}
	switch variant {
	case variantSerial:
		j.run = func() {
			var board [nqMax]int8
			got = nqueensSerial(&board, n, 0)
		}
	case variantGofork:
		pool := core.New(core.WithWorkers(p))
		j.run = func() {
			got = core.RunValue(pool, func(w *core.Worker) int { return nqueensGofork(w, root) })
		}
		j.close = pool.Close
		j.pool = pool
	case variantBaseline:
		j.run = func() { got = nqueensGoroutines(root) }
	default:
		return nil, fmt.Errorf("nqueens: no variant %q", variant)
	}
	return j, nil
}

// nqOK reports whether a queen at (row, col) is safe from the queens in rows 0..row-1.
func nqOK(board *[nqMax]int8, row, col int) bool {
	for r := range row {
		c := int(board[r])
		if c == col || c-col == row-r || col-c == row-r {
			return false
		}
	}
	return true
}

// nqueensSerial is the best plain program: backtracking on one board.
func nqueensSerial(board *[nqMax]int8, n, row int) int {
	if row == n {
		return 1
	}
	count := 0
	for col := range n {
		if nqOK(board, row, col) {
			board[row] = int8(col)
			count += nqueensSerial(board, n, row+1)
		}
	}
	return count
}

// nqBoard is a partial placement, passed by value so a fork allocates
// nothing. From row cut on (n: never) the search is serial.
type nqBoard struct {
	board [nqMax]int8
	n     int8
	row   int8
	cut   int8
}

// nqSpan is the range [lo, hi) of the valid columns cols for board's next row.
type nqSpan struct {
	b      nqBoard
	cols   [nqMax]int8
	lo, hi int8
}

func nqueensGofork(w *core.Worker, b nqBoard) int {
	if b.row == b.n {
		return 1
	}
	if b.row >= b.cut {
		return nqueensSerial(&b.board, int(b.n), int(b.row))
	}
	s := nqSpan{b: b}
	for col := range int(b.n) {
		if nqOK(&b.board, int(b.row), col) {
			s.cols[s.hi] = int8(col)
			s.hi++
		}
	}
	if s.hi == 0 {
		return 0
	}
	return nqueensSpan(w, s)
}

// nqueensSpan forks the valid placements in halves until one is left.
func nqueensSpan(w *core.Worker, s nqSpan) int {
	if s.hi-s.lo == 1 {
		child := s.b
		child.board[child.row] = s.cols[s.lo]
		child.row++
		return nqueensGofork(w, child)
	}
	mid := s.lo + (s.hi-s.lo)/2
	left, right := s, s
	left.hi, right.lo = mid, mid
	a, b := core.Join(w, nqueensSpan, left, nqueensSpan, right)
	return a + b
}

// nqueensGoroutines is the Go baseline: a goroutine per valid placement,
// serial from row b.cut on.
func nqueensGoroutines(b nqBoard) int {
	if b.row == b.n {
		return 1
	}
	if b.row >= b.cut {
		return nqueensSerial(&b.board, int(b.n), int(b.row))
	}
	var wg sync.WaitGroup
	var counts [nqMax]int
	for col := range int(b.n) {
		if !nqOK(&b.board, int(b.row), col) {
			continue
		}
		child := b
		child.board[child.row] = int8(col)
		child.row++
		wg.Add(1)
		go func() {
			defer wg.Done()
			counts[col] = nqueensGoroutines(child)
		}()
	}
	wg.Wait()
	total := 0
	for _, c := range counts {
		total += c
	}
	return total
}
