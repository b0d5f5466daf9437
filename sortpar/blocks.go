package sortpar

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gofork/gofork/core"
)

// In-place block partitioning, the distribution step shared by the radix
// sort and the samplesort: the scheme of IPS4o (Axtmann, Witt, Ferizovic and
// Sanders, "Engineering In-place (Shared-memory) Sorting Algorithms", ACM
// TOPC 2022). It moves the elements of a range into up to maxBuckets
// buckets, given a function that names each element's bucket, using
// O(t·k·b) memory besides the range for t stripes, k buckets and blocks of
// b elements, whatever the range's length.
//
//  1. Classification (the t stripes in parallel). Each stripe, a run of
//     whole blocks of the range, reads its elements in order into one
//     buffer block per bucket. A full buffer is written back as a block to
//     the stripe's front, over elements already read, and the block's
//     bucket is written to its slot's label. A stripe ends as full blocks,
//     each of one bucket, followed by free space; the elements of its
//     partly filled buffers are not in the range.
//  2. Bucket regions. The counts give bucket j its place [S_j, S_j+1) in
//     the result; region j is the run of blocks from S_j rounded up to the
//     block size to S_j+1 rounded up, so regions tile the range and bucket
//     j has no more full blocks than region j has slots. The full blocks of
//     each region are moved to its front (only needed where a stripe ends
//     inside a region).
//  3. Block permutation (t tasks in parallel). Each region has a write
//     pointer w (blocks before it hold blocks of its own bucket) and a read
//     pointer r (blocks in [w, r) are full and still unplaced; from r on
//     they are free). A task takes a block from some region's read end,
//     finds its bucket in the slot's label, and claims that region's
//     write slot: if the slot is unplaced, the two blocks are swapped and
//     the task goes on with the one it took out; if the slot is free, the
//     block is written there and the task takes the next block. The last
//     slot of the range may reach past its end; a block bound there goes
//     to an overflow block instead.
//  4. Cleanup. Bucket j's placed blocks may end past S_j+1 (the last slot
//     of a region overlaps the next bucket) and the rest of the bucket
//     waits in the stripes' buffers: the part past S_j+1 moves to the
//     bucket's head [S_j, region start), the buffered elements fill the
//     head and the free tail. Buckets are cleaned in increasing order, so a
//     bucket's head is overwritten only after the bucket before it took
//     its elements out of it.
//
// Concurrency of the permutation. Both pointers of region j live in one
// atomic word, wr (w in the high half, r in the low half, counted in
// blocks), so that a reader's decrement of r and a writer's increment of w
// are ordered: a writer whose old w is below r owns an unplaced slot nobody
// reads; a writer whose old w is at or past r owns a free slot, which a
// reader may still be copying out. Readers raise the region's reading
// count before they claim a slot and lower it once the copy is done;
// writers to a free slot wait until the count is zero. The count's Add(-1)
// pairs with the writer's Load that sees zero, so the reader's copy
// happens before the write. A reading count is only held across one block
// copy, never across a fork, a poll point or a comparison, so the wait is
// short. Everything written before the permutation (by classification and
// region setup) is ordered before it by the Join that ends those phases.
//
// Labels. Each element is classified once, in phase 1: the permutation
// reads a block's bucket from its label (a byte per block slot, written
// when the block is written back and moved with it by the region setup),
// never from its elements. So the blocks each region receives are exactly
// the blocks phase 1 counted for its bucket, whatever the classification
// answers: a user's cmp that is not consistent (it answers at random, a
// float field holds NaN, another goroutine changes a field) cannot make the
// counts and the permutation disagree, which would move a region's writes
// into the next region or past the range and lose elements. Labels are
// written only before the permutation (ordered before it by the Join that
// starts it) and only read during it, by the task that claimed the slot.
// As a second line, each region knows the slot past its bucket's last block
// (limit) and a claim there writes nothing and panics as an internal error,
// which the failure path below turns into a permutation.
//
// Panics. The bucket function of the samplesort calls the user's cmp,
// which may panic in classification or permutation. Every task recovers
// its own panic, records it and returns (see failure): the phases never
// unwind through a Join. After a failed classification every stripe writes
// its buffered elements back to its free space. After a failed permutation
// (tasks stop before taking another block, each still holding at most one
// block in its swap buffer) the free slots of every region and the held,
// overflow and buffered elements are counted equal, and the loose elements
// fill the free slots. Either way the range holds a permutation of what it
// held before.

// maxBuckets bounds the buckets of one partition step.
const maxBuckets = 256

// blockBytes is the size of a block in bytes (IPS4o's choice): large
// enough that one atomic operation per block costs nothing, small enough
// that maxBuckets buffers fit in the L2 cache.
const blockBytes = 2048

// blockLenFor returns the block length in elements for elements of size
// bytes each.
func blockLenFor(size uintptr) int {
	if size == 0 {
		return blockBytes
	}
	return max(1, int(blockBytes/size))
}

// bucketPtrs is the shared state of one region during the permutation.
type bucketPtrs struct {
	// wr packs the write pointer (high 32 bits) and the read pointer (low
	// 32 bits), in blocks from the range start. Readers decrement r with a
	// CompareAndSwap that fails when r <= w; writers Add(1<<32). Both
	// pointers stay within the range's block count, below 2^32.
	wr atomic.Uint64
	// reading counts the readers that claimed, or are about to claim, a
	// slot of the region and have not finished copying it out.
	reading atomic.Int32
	// limit is the slot past the last one the region's bucket fills: its
	// first slot plus the bucket's full blocks. Written before the
	// permutation (ordered before it by the Join that starts it), read
	// only during and after it.
	limit uint32
}

// claimRead takes the block before the read pointer if it is unplaced and
// returns its index, or -1 if the region has no unplaced block left.
func (p *bucketPtrs) claimRead() int {
	for {
		old := p.wr.Load()
		w, r := uint32(old>>32), uint32(old)
		if r <= w {
			return -1
		}
		if p.wr.CompareAndSwap(old, old-1) { // pairs with the writers' Add
			return int(r - 1)
		}
	}
}

// claimWrite takes the slot at the write pointer and reports its index and
// whether it holds an unplaced block (to be swapped out) rather than free
// space. ok is false if the region has already taken every block of its
// bucket, which labels rule out: the caller must write nothing (the slot may
// be another region's, or past the range).
func (p *bucketPtrs) claimWrite() (slot int, unplaced, ok bool) {
	v := p.wr.Add(1 << 32) // pairs with the readers' CompareAndSwap
	w, r := uint32(v>>32)-1, uint32(v)
	return int(w), w < r, w < p.limit
}

// placedEnd returns the end of the slots that writers filled, once the
// permutation has stopped: the write pointer, but never past limit, since
// claims past it write nothing.
func (p *bucketPtrs) placedEnd() int {
	return int(min(uint32(p.wr.Load()>>32), p.limit))
}

// waitReaders spins until no reader is copying out of the region. A
// reader holds the count across one block copy only.
func (p *bucketPtrs) waitReaders() {
	for i := 0; p.reading.Load() != 0; i++ { // pairs with the readers' Add(-1)
		if i >= 16 {
			runtime.Gosched() // the reader may have been descheduled
		}
	}
}

// workspace is the memory one stripe of a partition step, or one serial
// leaf of a sort, works in: a bucket buffer of b elements for each of up
// to maxBuckets buckets and three blocks more (two swap blocks and the
// overflow block), and the step's bookkeeping. A sort reuses its
// workspaces (see scratch), so it allocates about one per worker.
type workspace[E any] struct {
	buf []E

	// Stripe state, written by the stripe's task.
	lo, hi  int             // the stripe: data[lo:hi] of the range
	full    int             // blocks written back to the stripe's front
	fill    [maxBuckets]int // elements in each bucket buffer
	flushed [maxBuckets]int // blocks written back, per bucket
	held    int             // permutation: the swap block holding a block (0, 1) or -1
	cl      *classifier[E]  // the samplesort's tree, made once per workspace
	// labels is the step's label array (partitionStep.labels), for the
	// stripe's classification to write the bucket of each block it
	// writes back: labels[i] for the block at data[i*b:].
	labels []uint8
	// labelBuf is the label array a step led by this workspace uses,
	// kept for the next step it leads.
	labelBuf []uint8
	// words is SortByKey's masks of the stripe's buckets (classifyWords),
	// made on first use.
	words *wordMasks

	// Leader state (the workspace of stripe 0), for the whole step.
	starts [maxBuckets + 1]int
	ptrs   [maxBuckets]bucketPtrs
}

// bucketBuf returns the buffer of bucket j.
func (ws *workspace[E]) bucketBuf(j, b int) []E { return ws.buf[j*b : j*b+b] }

// swapBlock returns swap block i (0 or 1).
func (ws *workspace[E]) swapBlock(i, b int) []E {
	o := maxBuckets*b + i*b
	return ws.buf[o : o+b]
}

// overflowBlock returns the overflow block.
func (ws *workspace[E]) overflowBlock(b int) []E {
	o := maxBuckets*b + 2*b
	return ws.buf[o : o+b]
}

// scratch hands out the workspaces of one sort. A task holds a workspace
// only across code that does not fork (or holds it in a task that forks
// only the phases of the step it leads), so a sort on P workers allocates
// about P workspaces, whatever its length.
type scratch[E any] struct {
	mu    sync.Mutex
	free  []*workspace[E]
	b     int // block length
	made  int // workspaces allocated
	limit int // the length of a workspace's buf
}

func newScratch[E any](b int) *scratch[E] {
	return &scratch[E]{b: b, limit: maxBuckets*b + 3*b}
}

// get returns a free workspace, allocating one if none is free.
func (s *scratch[E]) get() *workspace[E] {
	s.mu.Lock()
	if n := len(s.free); n > 0 {
		ws := s.free[n-1]
		s.free[n-1] = nil
		s.free = s.free[:n-1]
		s.mu.Unlock()
		return ws
	}
	s.made++
	s.mu.Unlock()
	return &workspace[E]{buf: make([]E, s.limit)}
}

// put gives ws back.
func (s *scratch[E]) put(ws *workspace[E]) {
	s.mu.Lock()
	s.free = append(s.free, ws)
	s.mu.Unlock()
}

// partitionStep is one in-place partition of data into k buckets, with
// blocks of b elements, over the stripes of ws (ws[0] leads).
type partitionStep[E any] struct {
	data []E
	k, b int
	ws   []*workspace[E]
	// labels holds the bucket of the block in each block slot of data
	// (see Labels above), in the lead workspace's labelBuf.
	labels []uint8
	fail   *failure
}

// errLabelsDisagree is the internal error a claim past a region's limit
// panics with.
const errLabelsDisagree = "sortpar: internal error: a block permutation found more blocks for a bucket than its labels counted"

// setupStripes cuts data into len(ws) stripes of whole blocks and resets
// their state.
func (p *partitionStep[E]) setupStripes() {
	n, b, t := len(p.data), p.b, len(p.ws)
	blocks := n / b
	lead := p.ws[0]
	if cap(lead.labelBuf) < blocks {
		lead.labelBuf = make([]uint8, blocks)
	}
	p.labels = lead.labelBuf[:blocks]
	for s, ws := range p.ws {
		ws.labels = p.labels
		ws.lo = int(int64(s) * int64(blocks) / int64(t) * int64(b))
		ws.hi = int(int64(s+1) * int64(blocks) / int64(t) * int64(b))
		if s == t-1 {
			ws.hi = n
		}
		ws.full = 0
		ws.fill = [maxBuckets]int{}
		ws.flushed = [maxBuckets]int{}
		ws.held = -1
	}
}

// restoreStripes writes every stripe's buffered elements back to its free
// space, after a failed classification.
func (p *partitionStep[E]) restoreStripes() {
	for _, ws := range p.ws {
		at := ws.lo + ws.full*p.b
		for j := range p.k {
			at += copy(p.data[at:], ws.bucketBuf(j, p.b)[:ws.fill[j]])
		}
	}
}

// roundUp returns i rounded up to a multiple of the block length.
func (p *partitionStep[E]) roundUp(i int) int {
	return (i + p.b - 1) / p.b * p.b
}

// setupRegions computes the bucket starts, moves every region's full
// blocks to its front and sets the pointers. It runs after classification.
// With several stripes the regions are compacted in parallel: each moves
// blocks only within its own slots, and compacting one costs O(blocks ·
// stripes), which done serially for every region became the longest
// serial phase of a sort on many workers (docs/SCALING.md).
func (p *partitionStep[E]) setupRegions(w *core.Worker) {
	lead, k := p.ws[0], p.k
	sum := 0
	for j := range k {
		lead.starts[j] = sum
		for _, ws := range p.ws {
			sum += ws.flushed[j]*p.b + ws.fill[j]
		}
	}
	lead.starts[k] = sum
	if len(p.ws) == 1 {
		for j := range k {
			p.setupRegion(nil, j)
		}
		return
	}
	forEach(w, k, p.setupRegion)
}

// setupRegion sets up the region of bucket j: with several stripes it
// first moves the region's full blocks to its front.
func (p *partitionStep[E]) setupRegion(_ *core.Worker, j int) {
	lead, b := p.ws[0], p.b
	lo, hi := p.roundUp(lead.starts[j])/b, p.roundUp(lead.starts[j+1])/b
	full := 0
	for _, ws := range p.ws {
		// Stripe blocks [slo, slo+ws.full) are full.
		slo := ws.lo / b
		full += max(0, min(hi, slo+ws.full)-max(lo, slo))
	}
	if len(p.ws) > 1 {
		p.compactRegion(lo, hi, full)
	}
	blocks := 0
	for _, ws := range p.ws {
		blocks += ws.flushed[j]
	}
	lead.ptrs[j].wr.Store(uint64(lo)<<32 | uint64(lo+full))
	lead.ptrs[j].reading.Store(0)
	lead.ptrs[j].limit = uint32(lo + blocks)
}

// isFull reports whether block slot i held a full block after
// classification.
func (p *partitionStep[E]) isFull(i int) bool {
	for _, ws := range p.ws {
		slo := ws.lo / p.b
		if i >= slo && (i < ws.hi/p.b || ws.hi == len(p.data)) {
			return i < slo+ws.full
		}
	}
	return false
}

// compactRegion moves the full blocks of the region of slots [lo, hi),
// full of them, to its front: the free slots of [lo, lo+full) take the full
// slots of [lo+full, hi), in order. A region inside one stripe already has
// them there.
func (p *partitionStep[E]) compactRegion(lo, hi, full int) {
	b, mid := p.b, lo+full
	e, f := lo, mid // the next free slot before mid, the next full one after
	for {
		for e < mid && p.isFull(e) {
			e++
		}
		for f < hi && !p.isFull(f) {
			f++
		}
		if e == mid || f == hi {
			return // as many free slots before mid as full ones after it
		}
		copy(p.data[e*b:e*b+b], p.data[f*b:f*b+b])
		p.labels[e] = p.labels[f]
		e++
		f++
	}
}

// run does the partition step: classify fills one stripe's workspace and
// labels (called once per stripe, in parallel if there are several), then
// regions, permutation and cleanup follow. It reports whether the step
// completed; if the sort failed, in this step or elsewhere, data holds a
// permutation of what it held.
func (p *partitionStep[E]) run(w *core.Worker, classify func(w *core.Worker, ws *workspace[E])) bool {
	p.setupStripes()
	t := len(p.ws)
	if t == 1 {
		func() {
			defer p.fail.catch()
			classify(w, p.ws[0])
		}()
	} else {
		forEach(w, t, func(w *core.Worker, s int) {
			defer p.fail.catch()
			classify(w, p.ws[s])
		})
	}
	if p.fail.failed.Load() {
		p.restoreStripes()
		return false
	}
	p.setupRegions(w)
	if t == 1 {
		p.permute(w, 0)
	} else {
		forEach(w, t, p.permute)
	}
	if p.fail.failed.Load() {
		p.recoverPermutation()
		return false
	}
	p.cleanup()
	return true
}

// permuteBlocksPerPoll is how many blocks a permutation task moves between
// poll points.
const permuteBlocksPerPoll = 64

// permute runs the block permutation as task s of t. It calls no user
// code. It stops before taking another block once the sort has failed; a
// claim past a region's limit (an internal error) panics with the task's
// block in its swap buffer (ws.held).
func (p *partitionStep[E]) permute(w *core.Worker, s int) {
	ws, lead := p.ws[s], p.ws[0]
	data, b, k, t := p.data, p.b, p.k, len(p.ws)
	defer p.fail.catch()
	start := s * k / t
	moved := 0
	for i := range k {
		j := start + i
		if j >= k {
			j -= k
		}
		bp := &lead.ptrs[j]
		for !p.fail.failed.Load() {
			bp.reading.Add(1)
			slot := bp.claimRead()
			if slot < 0 {
				bp.reading.Add(-1)
				break
			}
			held := 0
			label := p.labels[slot] // the block's bucket: no one writes labels now
			copy(ws.swapBlock(0, b), data[slot*b:slot*b+b])
			ws.held = 0
			bp.reading.Add(-1) // the copy is done; pairs with waitReaders
			for {
				blk := ws.swapBlock(held, b)
				dp := &lead.ptrs[label]
				slot, unplaced, ok := dp.claimWrite()
				if !ok {
					panic(errLabelsDisagree) // the block stays in ws.held
				}
				at := data[slot*b : min(slot*b+b, len(data))]
				if unplaced {
					// Swap: take the unplaced block out, put ours in.
					other := ws.swapBlock(1-held, b)
					copy(other, at)
					copy(at, blk)
					label = p.labels[slot] // the slot is ours: its label is the unplaced block's
					held = 1 - held
					ws.held = held
					continue
				}
				dp.waitReaders()
				if len(at) < b {
					copy(lead.overflowBlock(b), blk) // the slot reaches past the range
				} else {
					copy(at, blk)
				}
				break
			}
			ws.held = -1
			if moved++; moved%permuteBlocksPerPoll == 0 {
				w.Poll() // holding nothing: no reader count, no block
			}
		}
	}
}

// cleanup puts every bucket's elements into [S_j, S_j+1): the part of its
// blocks past its end, the overflow block and the buffered elements fill
// its head and its free tail.
func (p *partitionStep[E]) cleanup() {
	lead, b, k, n := p.ws[0], p.b, p.k, len(p.data)
	data := p.data
	for j := range k {
		s, e := lead.starts[j], lead.starts[j+1]
		if s == e {
			continue
		}
		d := p.roundUp(s)
		w := int(lead.ptrs[j].wr.Load()>>32) * b
		f := fillTarget[E]{data: data}
		if d >= e {
			f.add(s, e)
		} else {
			f.add(s, d)
			end := w
			if w > n {
				end = w - b // the last block went to the overflow block
			}
			if end > e {
				// The region's last block reaches into the next buckets:
				// move its excess into the head.
				f.put(data[e:end])
			} else {
				f.add(end, e)
			}
			if w > n {
				f.put(lead.overflowBlock(b))
			}
		}
		for _, ws := range p.ws {
			f.put(ws.bucketBuf(j, b)[:ws.fill[j]])
		}
	}
}

// fillTarget writes elements into up to two free intervals of data, in
// order.
type fillTarget[E any] struct {
	data []E
	iv   [2][2]int
	n    int // intervals
	at   int // the interval being filled
}

func (f *fillTarget[E]) add(lo, hi int) {
	if lo < hi {
		f.iv[f.n] = [2]int{lo, hi}
		f.n++
	}
}

func (f *fillTarget[E]) put(src []E) {
	for len(src) > 0 {
		iv := &f.iv[f.at]
		c := copy(f.data[iv[0]:iv[1]], src)
		iv[0] += c
		src = src[c:]
		if iv[0] == iv[1] {
			f.at++
		}
	}
}

// recoverPermutation, after a failed permutation (every task returned),
// writes the held, overflow and buffered elements into the
// free slots. Region j's slots [lo, max(w, r)) hold elements (placed before
// w, unplaced from w to r), where w is the write pointer capped at limit
// (placedEnd: a claim past it wrote nothing); the rest are free, and so is
// the in-range part of a slot past the range's end whose block went to the
// overflow block.
func (p *partitionStep[E]) recoverPermutation() {
	lead, b, k, n := p.ws[0], p.b, p.k, len(p.data)
	var free [][2]int
	var loose [][]E
	for j := range k {
		lo, hi := p.roundUp(lead.starts[j])/b, p.roundUp(lead.starts[j+1])/b
		if lo == hi {
			continue // no slot: an empty region, even one at the range's end
		}
		occ := max(lead.ptrs[j].placedEnd(), int(uint32(lead.ptrs[j].wr.Load())))
		if hi*b > n && occ == hi {
			// The last slot was written, to the overflow block: it never
			// holds a full block, so only a write moves w (or r) there.
			occ--
			free = append(free, [2]int{occ * b, n})
			loose = append(loose, lead.overflowBlock(b))
			continue
		}
		free = append(free, [2]int{occ * b, min(hi*b, n)})
	}
	for _, ws := range p.ws {
		if ws.held >= 0 {
			loose = append(loose, ws.swapBlock(ws.held, b))
		}
		for j := range k {
			loose = append(loose, ws.bucketBuf(j, b)[:ws.fill[j]])
		}
	}
	iv := 0
	for _, src := range loose {
		for len(src) > 0 {
			for free[iv][0] == free[iv][1] {
				iv++
			}
			c := copy(p.data[free[iv][0]:free[iv][1]], src)
			free[iv][0] += c
			src = src[c:]
		}
	}
}
