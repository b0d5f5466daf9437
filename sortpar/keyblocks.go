package sortpar

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gofork/gofork/core"
)

// The in-place block partition of SortByKey: the IPS4o scheme of blocks.go
// (classification into bucket buffers, bucket regions, block permutation,
// cleanup), changed so that the key function is called exactly once per
// element per partition, in the classification, and nothing after it
// depends on calling it again.
//
// Labels. When a stripe writes a full buffer back as a block, it records
// the block's bucket in labels, one byte per block slot of the slice
// (indexed by the block's first position divided by the block length: full
// blocks of disjoint ranges never share that index). The permutation reads
// a block's bucket from its label, never from its elements, so the blocks
// of bucket j it places are exactly the flushed[j] blocks the
// classification counted, and region j's slots always suffice: a key
// function that answers differently on each call cannot make the counts and
// the permutation disagree. Labels are written only before the permutation
// (classification and region setup, ordered before it by the Join that ends
// those phases) and only read during it.
//
// Classification also ANDs and ORs together the words of each bucket, so
// that each bucket knows which bits of its words vary, to choose the byte
// it is split on next (or that it is done) without another pass.
//
// Panics. The key is called only in classification. A stripe that panics
// records the panic (failure) and returns; once every stripe returned, each
// writes its buffered elements back to its free space, so the range holds a
// permutation of its elements. The permutation and the cleanup call no user
// code.

// keyRegion is the shared state of one region during the permutation:
// the protocol of blocks.go's bucketPtrs, kept separate so that each
// partition can change its own. Labels make the number of writes to a
// region exactly its bucket's full blocks, so a write never passes the
// region's last slot.
type keyRegion struct {
	// wr packs the write pointer (high 32 bits) and the read pointer (low
	// 32 bits), in blocks from the range start. Readers decrement r with a
	// CompareAndSwap that fails when r <= w; writers Add(1<<32). Both stay
	// within the range's block count, below 2^32.
	wr atomic.Uint64
	// reading counts the readers that claimed, or are about to claim, a
	// slot of the region and have not finished copying it out.
	reading atomic.Int32
}

// claimRead takes the block before the read pointer if it is unplaced and
// returns its index, or -1 if the region has no unplaced block left.
func (p *keyRegion) claimRead() int {
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
// space.
func (p *keyRegion) claimWrite() (slot int, unplaced bool) {
	v := p.wr.Add(1 << 32) // pairs with the readers' CompareAndSwap
	w, r := uint32(v>>32)-1, uint32(v)
	return int(w), w < r
}

// waitReaders spins until no reader is copying out of the region. A
// reader holds the count across one block copy only.
func (p *keyRegion) waitReaders() {
	for i := 0; p.reading.Load() != 0; i++ { // pairs with the readers' Add(-1)
		if i >= 16 {
			runtime.Gosched() // the reader may have been descheduled
		}
	}
}

// keyWorkspace is what one stripe of a SortByKey partition, or one leaf,
// works in: the buffers, the stripe's state, and the leaf's arrays.
type keyWorkspace[E any, K any] struct {
	buf []E // maxBuckets bucket buffers of b elements, two swap blocks, an overflow block

	lo, hi  int             // the stripe: data[lo:hi] of the range
	full    int             // blocks written back to the stripe's front
	fill    [maxBuckets]int // elements in each bucket buffer
	flushed [maxBuckets]int // blocks written back, per bucket
	and, or [maxBuckets]uint64

	// Leaves: words and packed keys, or string keys with their indices.
	words  []uint64
	packed []uint64
	sorted []uint64
	pairs  []keyIndex[K]
}

// keyIndex is a key and the position of its element in a leaf.
type keyIndex[K any] struct {
	k K
	i int
}

// bucketBuf returns the buffer of bucket j.
func (ws *keyWorkspace[E, K]) bucketBuf(j, b int) []E { return ws.buf[j*b : j*b+b] }

// swapBlock returns swap block i (0 or 1).
func (ws *keyWorkspace[E, K]) swapBlock(i, b int) []E {
	o := maxBuckets*b + i*b
	return ws.buf[o : o+b]
}

// overflowBlock returns the overflow block.
func (ws *keyWorkspace[E, K]) overflowBlock(b int) []E {
	o := maxBuckets*b + 2*b
	return ws.buf[o : o+b]
}

// keyScratch hands out the workspaces of one SortByKey, about one per
// worker (see scratch).
type keyScratch[E any, K any] struct {
	mu    sync.Mutex
	free  []*keyWorkspace[E, K]
	steps []*labeledStep[E, K] // free steps: one is held from a partition until its buckets are sorted
	b     int                  // block length
}

// get returns a free workspace, allocating one if none is free.
func (s *keyScratch[E, K]) get() *keyWorkspace[E, K] {
	s.mu.Lock()
	if n := len(s.free); n > 0 {
		ws := s.free[n-1]
		s.free[n-1] = nil
		s.free = s.free[:n-1]
		s.mu.Unlock()
		return ws
	}
	s.mu.Unlock()
	return &keyWorkspace[E, K]{buf: make([]E, maxBuckets*s.b+3*s.b)}
}

// put gives ws back.
func (s *keyScratch[E, K]) put(ws *keyWorkspace[E, K]) {
	s.mu.Lock()
	s.free = append(s.free, ws)
	s.mu.Unlock()
}

// getStep returns a free step, or a new one.
func (s *keyScratch[E, K]) getStep() *labeledStep[E, K] {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n := len(s.steps); n > 0 {
		p := s.steps[n-1]
		s.steps = s.steps[:n-1]
		return p
	}
	return new(labeledStep[E, K])
}

// putStep gives p back.
func (s *keyScratch[E, K]) putStep(p *labeledStep[E, K]) {
	s.mu.Lock()
	s.steps = append(s.steps, p)
	s.mu.Unlock()
}

// labeledStep is one partition of data (a range of the slice starting at
// base) into maxBuckets buckets, with blocks of b elements, over the stripes
// of ws.
type labeledStep[E any, K any] struct {
	data     []E
	base     int     // data's offset in the slice, for labels
	labels   []uint8 // of the whole slice, one per block slot
	b        int
	ws       []*keyWorkspace[E, K]
	overflow []E // a block past the range's end goes here
	starts   [maxBuckets + 1]int
	ptrs     [maxBuckets]keyRegion
	and, or  [maxBuckets]uint64 // per bucket, over all stripes
	fail     *failure
}

// label returns the label of block slot i of the range.
func (p *labeledStep[E, K]) label(i int) *uint8 { return &p.labels[(p.base+i*p.b)/p.b] }

// setupStripes cuts data into len(ws) stripes of whole blocks and resets
// their state.
func (p *labeledStep[E, K]) setupStripes() {
	n, b, t := len(p.data), p.b, len(p.ws)
	blocks := n / b
	for s, ws := range p.ws {
		ws.lo = int(int64(s) * int64(blocks) / int64(t) * int64(b))
		ws.hi = int(int64(s+1) * int64(blocks) / int64(t) * int64(b))
		if s == t-1 {
			ws.hi = n
		}
		ws.full = 0
		ws.fill = [maxBuckets]int{}
		ws.flushed = [maxBuckets]int{}
		for j := range maxBuckets {
			ws.and[j], ws.or[j] = ^uint64(0), 0
		}
	}
}

// classify reads ws's stripe into its bucket buffers, bucket by word >>
// shift of each key, writing full buffers back to the stripe's front with
// their labels. word calls the user's key once per element and may panic.
func (p *labeledStep[E, K]) classify(w *core.Worker, ws *keyWorkspace[E, K], word func(E) uint64, shift uint) {
	b, data := p.b, p.data
	buf := ws.buf[:maxBuckets*b]
	var fill [maxBuckets]int // the next free index of each buffer in buf
	for j := range fill {
		fill[j] = j * b
	}
	// A panic leaves fill behind: publish it to ws as it stands.
	defer func() {
		for j := range fill {
			ws.fill[j] = fill[j] - j*b
		}
	}()
	and, or := &ws.and, &ws.or
	write := ws.lo
	for lo := ws.lo; lo < ws.hi; lo += classifyPoll {
		for _, e := range data[lo:min(lo+classifyPoll, ws.hi)] {
			v := word(e)
			j := uint8(v >> shift)
			and[j] &= v
			or[j] |= v
			f := fill[j]
			buf[f] = e
			f++
			if f&(b-1) == 0 { // full (b is a power of two): write it back over elements already read
				f -= b
				copy(data[write:write+b], buf[f:f+b])
				*p.label(write / b) = j
				write += b
				ws.flushed[j]++
				ws.full++
			}
			fill[j] = f
		}
		w.Poll()
	}
}

// restoreStripes writes every stripe's buffered elements back to its free
// space, after a failed classification.
func (p *labeledStep[E, K]) restoreStripes() {
	for _, ws := range p.ws {
		at := ws.lo + ws.full*p.b
		for j := range maxBuckets {
			at += copy(p.data[at:], ws.bucketBuf(j, p.b)[:ws.fill[j]])
		}
	}
}

// roundUp returns i rounded up to a multiple of the block length.
func (p *labeledStep[E, K]) roundUp(i int) int {
	return (i + p.b - 1) / p.b * p.b
}

// setupRegions computes the bucket starts and words' masks, moves every
// region's full blocks (and their labels) to its front and sets the
// pointers. It runs after classification.
func (p *labeledStep[E, K]) setupRegions() {
	b := p.b
	sum := 0
	for j := range maxBuckets {
		p.starts[j] = sum
		p.and[j], p.or[j] = ^uint64(0), 0
		for _, ws := range p.ws {
			sum += ws.flushed[j]*b + ws.fill[j]
			p.and[j] &= ws.and[j]
			p.or[j] |= ws.or[j]
		}
	}
	p.starts[maxBuckets] = sum
	for j := range maxBuckets {
		lo, hi := p.roundUp(p.starts[j])/b, p.roundUp(p.starts[j+1])/b
		full := 0
		for _, ws := range p.ws {
			// Stripe blocks [slo, slo+ws.full) are full.
			slo := ws.lo / b
			full += max(0, min(hi, slo+ws.full)-max(lo, slo))
		}
		if len(p.ws) > 1 {
			p.compactRegion(lo, hi, full)
		}
		p.ptrs[j].wr.Store(uint64(lo)<<32 | uint64(lo+full))
		p.ptrs[j].reading.Store(0)
	}
}

// isFull reports whether block slot i held a full block after
// classification.
func (p *labeledStep[E, K]) isFull(i int) bool {
	for _, ws := range p.ws {
		slo := ws.lo / p.b
		if i >= slo && (i < ws.hi/p.b || ws.hi == len(p.data)) {
			return i < slo+ws.full
		}
	}
	return false
}

// compactRegion moves the full blocks of the region of slots [lo, hi),
// full of them, to its front, labels with them.
func (p *labeledStep[E, K]) compactRegion(lo, hi, full int) {
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
			return
		}
		copy(p.data[e*b:e*b+b], p.data[f*b:f*b+b])
		*p.label(e) = *p.label(f)
		e++
		f++
	}
}

// permute runs the block permutation as task s of len(ws): the protocol of
// blocks.go's permute, with each block's bucket read from its label.
func (p *labeledStep[E, K]) permute(w *core.Worker, s int) {
	ws := p.ws[s]
	data, b, t := p.data, p.b, len(p.ws)
	start := s * maxBuckets / t
	moved := 0
	for i := range maxBuckets {
		j := start + i
		if j >= maxBuckets {
			j -= maxBuckets
		}
		bp := &p.ptrs[j]
		for {
			bp.reading.Add(1)
			slot := bp.claimRead()
			if slot < 0 {
				bp.reading.Add(-1)
				break
			}
			held := 0
			copy(ws.swapBlock(0, b), data[slot*b:slot*b+b])
			label := *p.label(slot)
			bp.reading.Add(-1) // the copy is done; pairs with waitReaders
			for {
				blk := ws.swapBlock(held, b)
				dp := &p.ptrs[label]
				slot, unplaced := dp.claimWrite()
				at := data[slot*b : min(slot*b+b, len(data))]
				if unplaced {
					// Swap: take the unplaced block out, put ours in.
					label = *p.label(slot)
					copy(ws.swapBlock(1-held, b), at)
					copy(at, blk)
					held = 1 - held
					continue
				}
				dp.waitReaders()
				if len(at) < b {
					copy(p.overflow, blk) // the slot reaches past the range
				} else {
					copy(at, blk)
				}
				break
			}
			if moved++; moved%permuteBlocksPerPoll == 0 {
				w.Poll() // holding nothing: no reader count, no block
			}
		}
	}
}

// cleanup puts every bucket's elements into [S_j, S_j+1), as blocks.go's
// cleanup does.
func (p *labeledStep[E, K]) cleanup() {
	b, n, data := p.b, len(p.data), p.data
	for j := range maxBuckets {
		s, e := p.starts[j], p.starts[j+1]
		if s == e {
			continue
		}
		d := p.roundUp(s)
		w := int(p.ptrs[j].wr.Load()>>32) * b
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
				f.put(data[e:end])
			} else {
				f.add(end, e)
			}
			if w > n {
				f.put(p.overflow)
			}
		}
		for _, ws := range p.ws {
			f.put(ws.bucketBuf(j, b)[:ws.fill[j]])
		}
	}
}

// run does the partition step, classifying each stripe with word. It
// reports whether the step completed; if the key panicked, data holds a
// permutation of what it held and the panic is recorded in fail.
func (p *labeledStep[E, K]) run(w *core.Worker, word func(E) uint64, shift uint) bool {
	p.setupStripes()
	t := len(p.ws)
	if t == 1 {
		func() {
			defer p.fail.catch()
			p.classify(w, p.ws[0], word, shift)
		}()
	} else {
		parFor(w, t, func(w *core.Worker, s int) {
			defer p.fail.catch()
			p.classify(w, p.ws[s], word, shift)
		})
	}
	if p.fail.failed.Load() {
		p.restoreStripes()
		return false
	}
	p.setupRegions()
	if t == 1 {
		p.permute(w, 0)
	} else {
		parFor(w, t, p.permute)
	}
	p.cleanup()
	return true
}
