package reduce

import (
	"sync/atomic"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/internal/loop"
)

// A block scan cuts [0, n) into blocks of equal length (the last one
// shorter) and writes each block's prefix combinations with the carry of
// every block before it. A team of tasks, one per worker, claims blocks in
// increasing order from shared counters (in two lanes for a short scan on
// two workers: see laneSplit). A block is resolved in one of three ways:
//
//   - direct: the block just before it is resolved when it is claimed, so
//     its carry is known and it is scanned at once (a single pass over its
//     elements; with one worker every block goes this way);
//   - by look-back (Merrill and Garland, "Single-pass Parallel Prefix Scan
//     with Decoupled Look-back", 2016): it is folded to its aggregate, and
//     the blocks before it are read back to the nearest resolved one; its
//     inclusive prefix is published before it is scanned, so that the
//     blocks after it resolve without waiting for its scan, and the scan
//     reads the block again from the cache the fold brought it into;
//   - by hand-off: the look-back met a block with nothing published yet.
//     Merrill and Garland's GPU threads wait there; a task here publishes
//     its block as partial instead (its own aggregate and that of the run
//     of blocks back to the unpublished one) and claims the next block. The
//     task that publishes the inclusive prefix of a block checks the block
//     after it and takes it over if it is partial, and so on down the run.
//
// Nobody waits for another task, so a task that is slow to run (its
// worker busy, its goroutine descheduled, or its callback running a
// nested parallel loop that makes its worker help elsewhere) holds up no
// other task, and a panic in one stops nothing but its own task. A task
// that has handed off too many blocks in a row stops claiming: the
// block they wait for is held by a task that does not run (more workers
// than processors, as on a loaded machine), and every block it folds
// ahead is work that the held task will have to scan anyway, on a
// processor it shares.
//
// # Block states
//
// st[i] is written with the atomic operations below, and each write
// publishes the plain fields written before it (the Go memory model's
// synchronization through sync/atomic):
//
//	blockEmpty   -> blockPrefix   direct or look-back: pre[i] written first
//	blockEmpty   -> blockPartial  hand-off: agg[i], part[i], span[i] written first
//	blockPartial -> blockTaken    CAS by the one task that will scan block i
//	blockTaken   -> blockPrefix   pre[i] written first
//
// # Hand-off without loss
//
// A partial block i is taken by whichever task sees, after block i-1 has
// its prefix, that block i is partial: the task that publishes block i-1's
// prefix loads st[i] after its store, and the owner of block i loads
// st[i-1] after it stores blockPartial. Go's atomics are sequentially
// consistent, so of two stores each followed by a load of the other's
// word, at least one load sees the other store: at least one of the two
// tasks sees both and tries the CAS, and exactly one CAS succeeds. Every
// store of blockPrefix is followed by that check, so when the team is done
// every block has its prefix and was scanned exactly once.
type blockScan[E any] struct {
	n, block, blocks int
	identity         E
	op               func(E, E) E
	fold             func(lo, hi int) E
	scan             func(lo, hi int, carry E) E

	// The blocks are claimed in two lanes, [0, mid) and [mid, blocks)
	// (mid is 0 but for a short scan on two workers, see laneSplit); front
	// and back count the blocks claimed in each (Add by every task). The
	// first task claims from the front lane, the others from the back one,
	// and each turns to the other lane once its own is empty.
	mid         int
	front, back atomic.Int64
	// maxHandOffs is how many blocks in a row a task may hand off before it
	// stops claiming (see handOffsBase).
	maxHandOffs int
	// failed is set by a task whose callback panicked; the others stop
	// claiming blocks.
	failed atomic.Bool
	// st[i] is block i's state (see the type's doc).
	st []atomic.Uint32
	// agg[i] is block i's aggregate; written by its owner before st[i]
	// becomes blockPartial, read by the task that takes it.
	agg []E
	// part[i] is the combination of blocks span[i]..i and span[i]-1 is a
	// block that had nothing published when block i looked back; both are
	// written before st[i] becomes blockPartial and never change, and read
	// by later look-backs, which jump over the whole run at once.
	part []E
	span []int
	// pre[i] is the combination of blocks 0..i (block i's inclusive
	// prefix), written before st[i] becomes blockPrefix.
	pre []E
}

// Block states, the values of blockScan.st.
const (
	// blockEmpty: nothing published; the block is not claimed, or its
	// owner is folding it or scanning it directly.
	blockEmpty uint32 = iota
	// blockPartial: agg, part and span are published and nobody scans the
	// block: the task that resolves the block before it takes it.
	blockPartial
	// blockTaken: a partial block that a task took; its prefix follows at
	// once.
	blockTaken
	// blockPrefix: pre is published; the block is scanned, or will be by
	// the task that published it.
	blockPrefix
)

// handOffsBase is how many blocks in a row a task hands off before it
// stops claiming, beyond those that the back lane folds ahead by design.
// At the start of a scan, a second task folds about scan/fold (two to
// three) blocks while the first scans its first one, and hands them all
// off: the bound leaves room for that.
const handOffsBase = 8

// laneSplit returns where the back lane of a scan of blocks on k tasks
// starts: a fifth of the way in for two tasks and at most laneMaxBlocks
// blocks, else at 0 (one lane).
//
// Two workers that claim blocks in turn each fold and scan nearly every
// block. With two lanes, the first worker scans the front lane directly
// while the second folds the back lane's first blocks; the first then
// takes those over and scans them directly too, while the second, its
// carry now known, scans the rest directly. That is the schedule of the
// two-phase scan that cuts [0, n) in three, a, b and c, folding b while a
// is scanned, then scanning b and c: balanced, it folds b = n/(2+r)
// elements when a fold takes r times as long as a scan, and r is about 1/2
// for data in the cache: b is then 2n/5, and a, the front lane, n/5. The
// blocks the first worker takes over were folded by the second a while
// before, so the scan must fit in the cache for it to read them there: at
// most laneMaxBlocks blocks (16 MiB of a prefix sum's src).
func laneSplit(blocks, k int) int {
	if k != 2 || blocks > laneMaxBlocks {
		return 0
	}
	return blocks / 5
}

// laneMaxBlocks is the most blocks a scan may have for laneSplit to cut it
// in two lanes.
const laneMaxBlocks = 64

// blockBounds returns block i of [0, n) cut into blocks of length block:
// [i*block, min((i+1)*block, n)). The product is taken in 64 bits, where it
// cannot overflow for the block of any index below n, so that a 32-bit int
// never holds more than n.
func blockBounds(i, block, n int) (lo, hi int) {
	lo = int(int64(i) * int64(block))
	return lo, lo + min(block, n-lo)
}

// blockCount returns the number of blocks of length block that cover n,
// without the n+block-1 that could pass int's range.
func blockCount(n, block int) int {
	return n/block + min(n%block, 1)
}

// runBlockScan scans [0, n) with the callbacks on pool, in blocks of length
// block, and returns the combination of everything. With one worker, or
// one block, it scans the blocks in order on the calling goroutine.
func runBlockScan[E any](pool *core.Pool, n, block int, identity E, op func(E, E) E,
	fold func(lo, hi int) E, scan func(lo, hi int, carry E) E) E {
	if n == 0 {
		return identity
	}
	blocks := blockCount(n, block)
	k := min(pool.Workers(), blocks)
	if k <= 1 {
		acc := identity
		for i := range blocks {
			lo, hi := blockBounds(i, block, n)
			acc = scan(lo, hi, acc)
		}
		return acc
	}
	b := &blockScan[E]{
		n: n, block: block, blocks: blocks, identity: identity, op: op, fold: fold, scan: scan,
		st:  make([]atomic.Uint32, blocks),
		agg: make([]E, blocks), part: make([]E, blocks), span: make([]int, blocks), pre: make([]E, blocks),
	}
	b.mid = laneSplit(blocks, k)
	// The back lane's task folds ahead about two blocks for every block of
	// the front lane, all handed off.
	b.maxHandOffs = handOffsBase + 3*b.mid
	team(pool, k, b.run)
	return b.pre[blocks-1]
}

// team runs task on k tasks of pool, which may run in parallel, and
// returns when all have returned.
func team(pool *core.Pool, k int, task func(w *core.Worker, t int)) {
	c := loop.Config{Pool: pool, Kind: loop.Simple, Simple: 1}
	loop.Split(uint64(k), struct{}{}, loop.Ops[struct{}]{
		LeafOn: func(w *core.Worker, a, b uint64, _ struct{}) struct{} {
			for t := a; t < b; t++ {
				task(w, int(t))
			}
			return struct{}{}
		},
	}, c, nil)
}

// run is task t of the team: it claims blocks until none is left, or it
// has handed off too many in a row.
func (b *blockScan[E]) run(w *core.Worker, t int) {
	ok := false
	defer func() {
		if !ok {
			b.failed.Store(true) // panicking: the other tasks stop claiming
		}
	}()
	for handOffs := 0; handOffs < b.maxHandOffs && !b.failed.Load(); {
		i, ok := b.claim(t == 0)
		if !ok {
			break
		}
		if b.resolve(i) {
			handOffs = 0
		} else {
			handOffs++
		}
		w.Poll() // between blocks: this task holds nothing another one needs
	}
	ok = true
}

// claim returns a block for a task to resolve, from the front lane first
// if front, else from the back lane first, and false when none is left.
func (b *blockScan[E]) claim(front bool) (int, bool) {
	if front {
		if i := b.front.Add(1) - 1; i < int64(b.mid) {
			return int(i), true
		}
	}
	if i := b.back.Add(1) - 1; i < int64(b.blocks-b.mid) {
		return b.mid + int(i), true
	}
	if !front {
		if i := b.front.Add(1) - 1; i < int64(b.mid) {
			return int(i), true
		}
	}
	return 0, false
}

// resolve resolves block i, which this task claimed, and scans it and every
// block it takes over, or publishes it as partial and reports false.
func (b *blockScan[E]) resolve(i int) bool {
	lo, hi := blockBounds(i, b.block, b.n)
	if i == 0 || b.st[i-1].Load() == blockPrefix { // pairs with the Store of blockPrefix
		carry := b.identity
		if i > 0 {
			carry = b.pre[i-1]
		}
		b.pre[i] = b.scan(lo, hi, carry)
		b.st[i].Store(blockPrefix) // publish pre[i]
		b.scanFrom(i+1, b.takeAfter(i))
		return true
	}
	a := b.fold(lo, hi)
	carry, from, ok := b.lookBack(i)
	if ok {
		b.pre[i] = b.op(carry, a)
		b.st[i].Store(blockPrefix) // publish pre[i] before the scan: later blocks need not wait for it
		last := b.takeAfter(i)
		b.scan(lo, hi, carry)
		b.scanFrom(i+1, last)
		return true
	}
	b.agg[i], b.part[i], b.span[i] = a, b.op(carry, a), from
	b.st[i].Store(blockPartial) // publish agg, part and span; then check block i-1 (see the type's doc)
	if b.st[i-1].Load() == blockPrefix && b.st[i].CompareAndSwap(blockPartial, blockTaken) {
		b.pre[i] = b.op(b.pre[i-1], a)
		b.st[i].Store(blockPrefix)
		last := b.takeAfter(i)
		b.scan(lo, hi, b.pre[i-1])
		b.scanFrom(i+1, last)
		return true
	}
	return false
}

// lookBack returns the combination of blocks 0..i-1 and true, reading back
// from block i-1 to the nearest block with a prefix. If it meets a block j
// with nothing published first, it returns the combination of blocks
// j+1..i-1, j+1 and false.
func (b *blockScan[E]) lookBack(i int) (E, int, bool) {
	acc := b.identity
	for j := i - 1; ; {
		switch b.st[j].Load() { // pairs with the Stores that publish pre, part and span
		case blockPrefix:
			return b.op(b.pre[j], acc), 0, true
		case blockPartial, blockTaken:
			acc = b.op(b.part[j], acc)
			j = b.span[j] - 1 // the span's first block is at least 1: block 0 is never partial
		case blockEmpty:
			return acc, j + 1, false
		default:
			panic("reduce: block scan: a block in an unknown state")
		}
	}
}

// takeAfter takes over the partial blocks after block i, whose prefix is
// published, publishing each one's prefix, and returns the last block
// taken (i if none). The caller scans them.
func (b *blockScan[E]) takeAfter(i int) int {
	for j := i + 1; j < b.blocks; j++ {
		// The load that follows every Store of blockPrefix; pairs with the
		// owner's Store of blockPartial and its load of st[j-1].
		if b.st[j].Load() != blockPartial || !b.st[j].CompareAndSwap(blockPartial, blockTaken) {
			return j - 1
		}
		b.pre[j] = b.op(b.pre[j-1], b.agg[j])
		b.st[j].Store(blockPrefix)
	}
	return b.blocks - 1
}

// scanFrom scans blocks first..last, which this task took over, each from
// the prefix of the block before it.
func (b *blockScan[E]) scanFrom(first, last int) {
	for j := first; j <= last; j++ {
		lo, hi := blockBounds(j, b.block, b.n)
		b.scan(lo, hi, b.pre[j-1])
	}
}
