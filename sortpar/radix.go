package sortpar

import (
	"math/bits"
	"sync"
	"unsafe"

	"github.com/gofork/gofork/core"
)

// In-place parallel radix sort for integer and float keys (in the manner
// of IPS2Ra, Axtmann et al. 2022): MSD passes that partition in place, then
// LSD inside the cache.
//
// Keys. Unsigned integers are their own keys. Signed integers are too,
// except that the top byte's digit has its top bit flipped (topFlip), which
// orders negative values first without touching the data. Floats are mapped
// in place to unsigned keys that order like the values: the usual IEEE-754
// map (negative: all bits flipped, positive: sign bit set) followed by
// adding 2^m-1 (m mantissa bits) modulo 2^w, which rotates the positive NaNs
// below the negative NaNs and both below -Inf. Every NaN then sorts first,
// as in slices.Sort. The map is a bijection; each finished range is mapped
// back while it is still in cache (unmap), so undoing it costs no extra
// trip to memory. The first pass also ORs together key ^ key[0], so bytes
// that are equal in every key are known and never sorted on.
//
// Sorting. A range longer than lsdMax is split on its most significant
// byte that varies in it, by the in-place block partition into
// 256 buckets: with all workers (one stripe each) when the range is long,
// by one worker otherwise. The buckets are then sorted independently, in
// parallel, on the next byte down. If no lower byte varies anywhere in the
// slice, the split is done by counting instead: every key of a bucket is
// then the same, so the bucket is filled in. Ranges of at most lsdMax
// elements fit in a workspace, and so in the L2 cache: they are sorted by
// LSD radix on the remaining bytes, with the workspace as the second
// array: one pass counts every byte, then one scatter pass per byte that is
// not constant in the range.
//
// Memory: the workspaces, about one per worker of 256 blocks of 2 KiB, and
// per-chunk counts; nothing proportional to the slice.

// radixKey is an unsigned key of one to eight bytes.
type radixKey interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64
}

// radixCtx is shared, read-only but for scratch, by every task of one
// radix sort.
type radixCtx[K radixKey] struct {
	kind     keyKind
	sign     K     // the top bit
	nanShift K     // 2^mantissa - 1, for floats
	diff     K     // OR of key ^ key[0] over all keys: bit set = bit varies
	topShift uint  // shift of the most significant byte
	topFlip  uint8 // XORed into that byte's digit: 0x80 for signed integers
	signFlip K     // XORed into keys before comparing them whole: sign for signed
	lsdMax   int   // ranges this short are LSD sorted by one worker
	parMin   int   // ranges this long count in parallel
	stripe   int   // partitions take one stripe per this many elements (and per worker)
	grain    int
	workers  int
	b        int // block length
	scratch  *scratch[K]
	fail     failure // never set: the radix sort calls no user code
	// small: the whole sort is one LSD sort (n <= lsdMax), whose second
	// array comes from lsdBufs.
	small bool
}

// lsdBufs keeps, by key width, the second arrays of sorts short enough for
// one LSD sort (at most a workspace of elements), so that a program that
// sorts small slices again and again (a server, one request at a time)
// does not allocate a buffer as long as the slice for each sort: a few
// small objects remain (the options' config, the sort's closures). A Get
// on another processor than the last Put, or after two collections, still
// makes a new buffer. Like sync.Pool itself it holds no setting. Each holds
// *[]K for one K.
var lsdBufs [4]sync.Pool // keys of 1, 2, 4 and 8 bytes

// lsdBufsOf returns the pool of lsdBufs for keys of type K.
func lsdBufsOf[K radixKey]() *sync.Pool {
	return &lsdBufs[bits.TrailingZeros(uint(unsafe.Sizeof(K(0))))]
}

// lsdBuf returns a buffer of n keys from lsdBufs, or a new one.
func lsdBuf[K radixKey](n int) *[]K {
	if bp, _ := lsdBufsOf[K]().Get().(*[]K); bp != nil && cap(*bp) >= n {
		return bp
	}
	b := make([]K, n)
	return &b
}

// putLSDBuf gives a buffer back to lsdBufs.
func putLSDBuf[K radixKey](bp *[]K) { lsdBufsOf[K]().Put(bp) }

// toKey maps an element's bits to its key (floats only change).
func (rc *radixCtx[K]) toKey(v K) K {
	if rc.kind == keyFloat {
		if v&rc.sign != 0 {
			v = ^v
		} else {
			v |= rc.sign
		}
		return v + rc.nanShift
	}
	return v
}

// unmap turns the keys of s back into elements (floats only change). The
// sorts call it on each finished range while the range is still in cache.
func (rc *radixCtx[K]) unmap(s []K) {
	if rc.kind == keyFloat {
		sign, shift := rc.sign, rc.nanShift
		for j, v := range s {
			v -= shift
			if v&sign != 0 {
				s[j] = v &^ sign
			} else {
				s[j] = ^v
			}
		}
	}
}

// flip returns what to XOR into the digit of the byte at shift.
func (rc *radixCtx[K]) flip(shift uint) uint8 {
	if shift == rc.topShift {
		return rc.topFlip
	}
	return 0
}

// radixSort sorts the keys of x (an integer or float slice seen through
// unsafe as unsigned words of the same size, interpreted according to kind).
func radixSort[K radixKey](w *core.Worker, x []K, kind keyKind, c *config) {
	n := len(x)
	width := uint(unsafe.Sizeof(x[0])) * 8
	mantissa := uint64(23)
	if width == 64 {
		mantissa = 52
	}
	b := c.blockLen(unsafe.Sizeof(x[0]))
	rc := &radixCtx[K]{
		kind:     kind,
		sign:     K(1) << (width - 1),
		nanShift: K(uint64(1)<<mantissa - 1), // only used for floats (32 or 64 bits)
		parMin:   max(4*c.grain, 2),
		grain:    c.grain,
		workers:  c.pool.Workers(),
		topShift: width - 8,
		b:        b,
		scratch:  newScratch[K](b),
		stripe:   4 * maxBuckets * b,
	}
	rc.lsdMax = rc.scratch.limit
	if kind == keySigned {
		rc.topFlip = 0x80
		rc.signFlip = rc.sign
	}
	if c.radixMin < defaultRadixMin { // tests: make the MSD levels reachable
		rc.lsdMax = min(rc.lsdMax, max(c.radixMin, 2))
	}
	if n <= rc.lsdMax {
		rc.small = true // one LSD sort, with a buffer of lsdBufs
	}
	k := chunks(n, c.grain, rc.workers)
	diffs := make([]K, k)
	first := rc.toKey(x[0])
	forChunks(w, n, k, func(i, lo, hi int) {
		s := x[lo:hi]
		var diff K
		if kind != keyFloat {
			for _, v := range s {
				diff |= v ^ first
			}
		} else {
			for j, v := range s {
				v = rc.toKey(v)
				s[j] = v
				diff |= v ^ first
			}
		}
		diffs[i] = diff
	})
	var diff K
	for _, d := range diffs {
		diff |= d
	}
	if diff == 0 { // cannot happen after the sortedness scan; keep it right
		forChunks(w, n, k, func(_, lo, hi int) {
			rc.unmap(x[lo:hi])
		})
		return
	}
	rc.diff = diff
	radixRange(w, rc, x, (bits.Len64(uint64(diff))-1)/8)
}

// radixRange sorts data on bytes d..0 in place.
func radixRange[K radixKey](w *core.Worker, rc *radixCtx[K], data []K, d int) {
	n := len(data)
	if rc.small {
		bp := lsdBuf[K](n)
		lsd(w, rc, data, (*bp)[:n], d)
		putLSDBuf(bp)
		return
	}
	if n <= rc.lsdMax {
		ws := rc.scratch.get()
		lsd(w, rc, data, ws.buf[:n], d)
		rc.scratch.put(ws)
		return
	}
	// The highest byte at or below d that varies in this range.
	for ; d >= 0; d-- {
		shift := uint(d) * 8
		if uint8(rc.diff>>shift) != 0 && !rc.sameDigit(w, data, shift) {
			break
		}
	}
	if d < 0 { // all keys equal
		rc.unmap(data)
		return
	}
	shift := uint(d) * 8
	fx := rc.flip(shift)
	var starts [maxBuckets + 1]int
	if low := K(1)<<shift - 1; rc.diff&low == 0 {
		// No lower byte varies: a bucket's keys are all the same.
		rc.fillByCount(w, data, shift, fx)
		return
	}
	t := max(1, min(rc.workers, n/rc.stripe))
	p := &partitionStep[K]{
		data: data,
		k:    maxBuckets,
		b:    rc.b,
		ws:   make([]*workspace[K], t),
		fail: &rc.fail,
	}
	for s := range p.ws {
		p.ws[s] = rc.scratch.get()
	}
	p.run(w, func(w *core.Worker, ws *workspace[K]) {
		classifyDigits(w, ws, data, rc.b, shift, fx)
	})
	starts = p.ws[0].starts
	for _, ws := range p.ws {
		rc.scratch.put(ws)
	}
	radixBuckets(w, &starts, func(w *core.Worker, lo, hi int) {
		radixRange(w, rc, data[lo:hi], d-1)
	})
}

// classifyPoll is how many elements a classification reads between poll
// points.
const classifyPoll = 1 << 16

// push appends e to bucket j's buffer in buf, whose next free index is
// fill[j], and returns -1, or, once the buffer is full (b, its length, is
// a power of two), the buffer's start, for flush; the buffer then counts
// as empty.
func push[E any](fill *[maxBuckets]int, buf []E, j uint8, e E, b int) int {
	f := fill[j]
	buf[f] = e
	f++
	if f&(b-1) != 0 {
		fill[j] = f
		return -1
	}
	f -= b
	fill[j] = f
	return f
}

// flush writes full, the full buffer of bucket j, back as one block
// labelled j over data[write:], elements the classification already read,
// and returns the next write index. Both in-place classifications
// (classifyDigits, classifyWords) write their blocks through it.
func (ws *workspace[E]) flush(data, full []E, write int, j uint8) int {
	copy(data[write:write+len(full)], full)
	ws.labels[write/len(full)] = j
	ws.flushed[j]++
	ws.full++ // counted as it goes: a panicking classification leaves it right
	return write + len(full)
}

// classifyDigits is the classification of a partition step on the byte at
// shift: it reads ws's stripe of data into the bucket buffers of ws,
// writing full buffers back to the stripe's front.
func classifyDigits[K radixKey](w *core.Worker, ws *workspace[K], data []K, b int, shift uint, fx uint8) {
	buf := ws.buf[:maxBuckets*b]
	var fill [maxBuckets]int // the next free index of each buffer in buf
	for j := range fill {
		fill[j] = j * b
	}
	write := ws.lo
	for lo := ws.lo; lo < ws.hi; lo += classifyPoll {
		for _, v := range data[lo:min(lo+classifyPoll, ws.hi)] {
			j := uint8(v>>shift) ^ fx
			if f := push(&fill, buf, j, v, b); f >= 0 {
				write = ws.flush(data, buf[f:f+b], write, j)
			}
		}
		w.Poll()
	}
	for j := range fill {
		ws.fill[j] = fill[j] - j*b
	}
	ws.full = (write - ws.lo) / b
}

// sameDigit reports whether every key of data has the same byte at shift:
// a sample decides most ranges, a full scan confirms.
func (rc *radixCtx[K]) sameDigit(w *core.Worker, data []K, shift uint) bool {
	n := len(data)
	d0 := uint8(data[0] >> shift)
	r := xorshift(uint64(n)*0x9E3779B97F4A7C15 | 1)
	for range 16 {
		if uint8(data[r.Next()%uint64(n)]>>shift) != d0 {
			return false
		}
	}
	for lo := 0; lo < n; lo += classifyPoll {
		for _, v := range data[lo:min(lo+classifyPoll, n)] {
			if uint8(v>>shift) != d0 {
				return false
			}
		}
		w.Poll()
	}
	return true
}

// fillByCount sorts data on the byte at shift when every other byte is the
// same in all keys: it counts the digits (in chunks, in parallel) and
// writes every bucket's key, mapped back to an element, over its place.
func (rc *radixCtx[K]) fillByCount(w *core.Worker, data []K, shift uint, fx uint8) {
	n := len(data)
	k := 1
	if n >= rc.parMin {
		k = chunks(n, rc.grain, rc.workers)
	}
	counts := make([][256]int, k)
	forChunks(w, n, k, func(i, lo, hi int) {
		cnt := &counts[i]
		for _, v := range data[lo:hi] {
			cnt[uint8(v>>shift)^fx]++
		}
	})
	starts := bucketOffsets(counts)
	rest := data[0] &^ (0xff << shift) // every byte but the one at shift
	forChunks(w, n, k, func(i, lo, hi int) {
		b := sortSearch256(starts, lo)
		for j := lo; j < hi; j++ {
			for j >= starts[b+1] {
				b++
			}
			data[j] = rest | K(uint8(b)^fx)<<shift
		}
		rc.unmap(data[lo:hi])
	})
}

// radixBuckets runs sort on every non-empty bucket [starts[b], starts[b+1]),
// in parallel.
func radixBuckets(w *core.Worker, starts *[maxBuckets + 1]int, sort func(w *core.Worker, lo, hi int)) {
	forEach(w, maxBuckets, func(w *core.Worker, b int) {
		if lo, hi := starts[b], starts[b+1]; lo < hi {
			sort(w, lo, hi)
		}
	})
}

// bucketTotal returns how many keys the chunks counted in bucket b.
func bucketTotal(counts [][256]int, b uint8) int {
	total := 0
	for i := range counts {
		total += counts[i][b]
	}
	return total
}

// bucketOffsets turns per-chunk bucket counts into each chunk's first slot
// per bucket, in place (bucket by bucket, chunk by chunk, so that a scatter
// from each chunk's offsets is stable), and returns where each bucket
// starts, with the total at index 256.
func bucketOffsets(counts [][256]int) *[257]int {
	starts := new([257]int)
	sum := 0
	for b := range 256 {
		starts[b] = sum
		for i := range counts {
			c := counts[i][b]
			counts[i][b] = sum
			sum += c
		}
	}
	starts[256] = sum
	return starts
}

// sortSearch256 returns the bucket b with starts[b] <= j < starts[b+1].
func sortSearch256(starts *[257]int, j int) int {
	lo, hi := 0, 256 // starts[lo] <= j < starts[hi]
	for hi-lo > 1 {
		m := (lo + hi) / 2
		if starts[m] <= j {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}

// lsdInsertion is the length up to which lsd insertion-sorts instead.
const lsdInsertion = 32

// lsd sorts the keys of a on bytes d..0 by the worker w, using b (as long
// as a) as the second array, and maps them back to elements.
func lsd[K radixKey](w *core.Worker, rc *radixCtx[K], a, b []K, d int) {
	rc.lsdKeys(w, a, b, d)
	rc.unmap(a)
}

// lsdKeys sorts the keys of a on bytes d..0 (those above are the same in
// all of a), using b as the second array. It sorts on the top m bytes that
// vary in a, m just large enough that 256^m reaches len(a): one pass counts
// them, one LSD scatter pass per byte sorts on them. On keys spread like
// random ones that leaves few runs of equal top bytes, short ones, and the
// lower bytes need no pass of their own: an insertion pass on whole keys
// finishes the sort (nothing moves across a run). If the insertion pass
// moves too much (skewed keys), the runs left are sorted on the lower
// bytes by lsdKeys, so no input costs more than a full LSD sort.
func (rc *radixCtx[K]) lsdKeys(w *core.Worker, a, b []K, d int) {
	n := len(a)
	if n <= lsdInsertion {
		insertionKeys(a, rc.signFlip, n*n)
		return
	}
	// Bytes that vary somewhere in the whole slice, lowest first.
	var pass [8]uint
	np := 0
	for p := 0; p <= d; p++ {
		if shift := uint(p) * 8; uint8(rc.diff>>shift) != 0 {
			pass[np] = shift
			np++
		}
	}
	need := 1
	for need < np && uint64(1)<<(8*need) < uint64(n) {
		need++
	}
	// Count the top bytes, in batches, until need of them vary in a.
	var hist [8][256]int
	var vary [8]uint // shifts of the bytes sorted on, highest first
	nv, counted := 0, 0
	for nv < need && counted < np {
		var batch [8]uint
		var fxs [8]uint8
		nb := min(need-nv, np-counted)
		for i := range nb {
			batch[i] = pass[np-1-counted-i]
			fxs[i] = rc.flip(batch[i])
		}
		base := nv
		for _, v := range a {
			for i, shift := range batch[:nb] {
				hist[base+i][uint8(v>>shift)^fxs[i]]++
			}
		}
		for i, shift := range batch[:nb] {
			if hist[base+i][uint8(a[0]>>shift)^fxs[i]] != n {
				hist[nv] = hist[base+i] // keep the counts of the bytes that vary
				vary[nv] = shift
				nv++
			}
		}
		for i := nv; i < base+nb; i++ {
			hist[i] = [256]int{}
		}
		counted += nb
	}
	if nv == 0 {
		return
	}
	src, dst := a, b
	for i := nv - 1; i >= 0; i-- {
		w.Poll() // a poll point per pass (~0.1 ms on lsdMax keys)
		h, shift := &hist[i], vary[i]
		fx := rc.flip(shift)
		sum := 0
		for i, c := range h {
			h[i] = sum
			sum += c
		}
		for _, v := range src {
			by := uint8(v>>shift) ^ fx
			dst[h[by]] = v
			h[by]++
		}
		src, dst = dst, src
	}
	if &src[0] != &a[0] {
		copy(a, src)
	}
	if counted == np {
		return // every byte that varies was sorted on
	}
	if insertionKeys(a, rc.signFlip, 2*n) {
		return
	}
	// Skewed keys: sort the runs of equal top bytes on the bytes below.
	low := vary[nv-1]
	mask := ^K(0) << low
	below := int(low/8) - 1
	for i := 0; i < n; {
		j := i + 1
		for j < n && (a[j]^a[i])&mask == 0 {
			j++
		}
		if j-i > 1 {
			rc.lsdKeys(w, a[i:j], b[i:j], below)
		}
		i = j
	}
}

// insertionKeys insertion-sorts a (keys XORed with flip compare as
// unsigned numbers) unless that takes more than budget moves; it reports
// whether a is sorted. Stopped early, it leaves a permutation of a, each
// element moved left past greater ones only.
func insertionKeys[K radixKey](a []K, flip K, budget int) bool {
	for i := 1; i < len(a); i++ {
		v := a[i]
		if v^flip >= a[i-1]^flip {
			continue
		}
		j := i - 1
		for j > 0 && v^flip < a[j-1]^flip {
			j--
		}
		if budget -= i - j; budget < 0 {
			return false
		}
		copy(a[j+1:i+1], a[j:i])
		a[j] = v
	}
	return true
}
