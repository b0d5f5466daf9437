package sortpar

import (
	"math/bits"
	"slices"
	"unsafe"

	"github.com/gofork/gofork/core"
)

// In-place parallel samplesort (IPS4o: Axtmann, Witt, Ferizovic and
// Sanders, "Engineering In-place (Shared-memory) Sorting Algorithms", ACM
// TOPC 2022).
//
// A range longer than the leaf length is split into up to 256 buckets by
// one in-place block partition. The splitters come from a
// sorted random sample of about 0.2·log2(n) elements per bucket; each
// element finds its bucket by descending a perfect binary search tree of
// the splitters, log2(k) comparisons whose results are used as numbers,
// never branched on (four elements descend together, so their comparisons
// overlap). When the sample holds equal splitters, every splitter also
// gets an equality bucket, of the elements equal to it; those buckets are
// done, so inputs of few distinct values take one partition. The buckets
// are then sorted independently, in parallel; a range is partitioned by all
// workers (a stripe each) when it is long, by one worker otherwise. Ranges
// of at most the leaf length go to slices.SortFunc.
//
// Worst case. A partition whose largest bucket (equality buckets aside)
// holds more than half the range is bad: the sample did not represent the
// range, which random samples do with vanishing probability unless cmp is
// adversarial (McIlroy's adversary decides values as the sort compares).
// Buckets of a range that has seen ssBadLimit bad partitions go to
// slices.SortFunc, whose pdqsort falls back to heapsort: O(n log n)
// comparisons on any input.
//
// Memory: the workspaces (256 blocks of 2 KiB and a tree of 255 splitters
// for each worker) and the sample, inside a workspace.

// ssBadLimit is how many bad partitions a range may see before its
// buckets are sorted by slices.SortFunc.
const ssBadLimit = 2

// ssCtx is shared, read-only but for scratch and fail, by every task of
// one samplesort.
type ssCtx[E any] struct {
	cmp     func(a, b E) int
	scratch *scratch[E]
	b       int // block length
	leaf    int // ranges this short go to slices.SortFunc
	stripe  int // a partition takes one stripe per this many elements (and per worker)
	workers int
	fail    failure
}

// classifier is the decision tree of one partition step.
type classifier[E any] struct {
	cmp func(a, b E) int
	// tree[1:k] holds the splitters as a perfect binary search tree in
	// heap order (the children of i are 2i and 2i+1).
	tree [maxBuckets]E
	// splitters[0:k-1] holds them in order, for the equality test.
	splitters [maxBuckets]E
	logk      int
	k         int  // leaves of the tree
	equal     bool // each leaf b < k-1 splits into b's bucket and s[b]'s equality bucket
}

// lessBit is 1 if cmp(a, b) < 0 and 0 otherwise, with no branch: the sign
// bit of the result.
func lessBit(r int) int { return int(uint(r) >> (bits.UintSize - 1)) }

// buckets returns the number of buckets of the partition.
func (c *classifier[E]) buckets() int {
	if c.equal {
		return 2 * c.k
	}
	return c.k
}

// leafOf descends the tree: the number of splitters below x.
func (c *classifier[E]) leafOf(x E) int {
	i := 1
	for range c.logk {
		i = 2*i + lessBit(c.cmp(c.tree[i], x))
	}
	return i - c.k
}

// finish turns the tree leaf b of x into its bucket.
func (c *classifier[E]) finish(b int, x E) int {
	if !c.equal {
		return b
	}
	// x <= s[b]: it equals s[b] if !(x < s[b]). The last leaf has no
	// splitter above it.
	eq := 0
	if b < c.k-1 {
		eq = 1 - lessBit(c.cmp(x, c.splitters[b]))
	}
	return 2*b + eq
}

// bucket returns the bucket of x.
func (c *classifier[E]) bucket(x E) int { return c.finish(c.leafOf(x), x) }

// bucket4 returns the buckets of four elements, which descend the tree
// together so that their comparisons overlap.
func (c *classifier[E]) bucket4(x0, x1, x2, x3 E) (int, int, int, int) {
	i0, i1, i2, i3 := 1, 1, 1, 1
	for range c.logk {
		i0 = 2*i0 + lessBit(c.cmp(c.tree[i0], x0))
		i1 = 2*i1 + lessBit(c.cmp(c.tree[i1], x1))
		i2 = 2*i2 + lessBit(c.cmp(c.tree[i2], x2))
		i3 = 2*i3 + lessBit(c.cmp(c.tree[i3], x3))
	}
	k := c.k
	if !c.equal {
		return i0 - k, i1 - k, i2 - k, i3 - k
	}
	return c.finish(i0-k, x0), c.finish(i1-k, x1), c.finish(i2-k, x2), c.finish(i3-k, x3)
}

// buildTree fills tree[i] and its subtree from the sorted s.
func (c *classifier[E]) buildTree(i int, s []E) {
	if len(s) == 0 {
		return
	}
	m := len(s) / 2
	c.tree[i] = s[m]
	c.buildTree(2*i, s[:m])
	c.buildTree(2*i+1, s[m+1:])
}

// choose picks the splitters for data from a random sample, sorted in
// sample (a scratch area), for at most k buckets, and builds the tree. It
// calls cmp and may panic; data is not written.
func (c *classifier[E]) choose(data, sample []E, k int) {
	n := len(data)
	// About 0.2·log2(n) samples per bucket, at least one.
	per := max(1, bits.Len(uint(n))/5)
	ns := min(per*k, len(sample), n)
	sample = sample[:ns]
	r := xorshift(uint64(n)*0x9E3779B97F4A7C15 | 1)
	for i := range sample {
		sample[i] = data[r.Next()%uint64(n)]
	}
	slices.SortFunc(sample, c.cmp)
	// k-1 splitters evenly spaced in the sample, duplicates dropped.
	s := c.splitters[:0]
	for i := 1; i < k; i++ {
		v := sample[i*ns/k]
		if len(s) > 0 && !(c.cmp(s[len(s)-1], v) < 0) {
			c.equal = true
			continue
		}
		s = append(s, v)
	}
	c.equal = c.equal || len(s) < k-1
	if c.equal && len(s) > maxBuckets/2-1 {
		// An equality bucket per splitter: keep every other one.
		for i := range len(s) / 2 {
			s[i] = s[2*i+1]
		}
		s = s[:len(s)/2]
	}
	c.k = 1 << bits.Len(uint(len(s))) // a leaf per splitter and one more
	c.logk = bits.Len(uint(c.k)) - 1
	for len(s) < c.k-1 {
		s = append(s, s[len(s)-1]) // padding: buckets that stay empty
	}
	c.buildTree(1, s)
}

// classifyTree is the classification of a samplesort partition step: it
// reads ws's stripe of data into the bucket buffers of ws, writing full
// buffers back to the stripe's front. ws's counts are kept up to date
// element by element, and an element is buffered only once the buckets of
// its group of four are known, so that a panicking cmp leaves ws
// describing exactly what it holds.
func classifyTree[E any](w *core.Worker, ws *workspace[E], data []E, b int, cl *classifier[E]) {
	logb := uint(bits.TrailingZeros(uint(b)))
	buf := ws.buf[:maxBuckets*b]
	write := ws.lo
	push := func(j int, v E) {
		f := ws.fill[j]
		buf[j<<logb+f] = v
		if f++; f < b {
			ws.fill[j] = f
			return
		}
		copy(data[write:write+b], buf[j<<logb:j<<logb+b])
		ws.labels[write>>logb] = uint8(j) // at most maxBuckets buckets
		write += b
		ws.full++
		ws.flushed[j]++
		ws.fill[j] = 0
	}
	for lo := ws.lo; lo < ws.hi; lo += classifyPoll {
		hi := min(lo+classifyPoll, ws.hi)
		i := lo
		for ; i+4 <= hi; i += 4 {
			x0, x1, x2, x3 := data[i], data[i+1], data[i+2], data[i+3]
			j0, j1, j2, j3 := cl.bucket4(x0, x1, x2, x3)
			push(j0, x0)
			push(j1, x1)
			push(j2, x2)
			push(j3, x3)
		}
		for ; i < hi; i++ {
			x := data[i]
			push(cl.bucket(x), x)
		}
		w.Poll()
	}
}

// samplesort sorts x by cmp in place, in parallel; ranges of at most leaf
// elements go to slices.SortFunc.
func samplesort[E any](w *core.Worker, x []E, cmp func(a, b E) int, leaf int, c *config) {
	var zero E
	// Blocks of 2 KiB, but short slices get shorter blocks, so that the
	// bucket buffers of a workspace hold at most half of x.
	b := min(c.blockLen(unsafe.Sizeof(zero)), 1<<(bits.Len(uint(max(1, len(x)/(2*maxBuckets))))-1))
	ctx := &ssCtx[E]{
		cmp:     cmp,
		scratch: newScratch[E](b),
		b:       b,
		leaf:    max(leaf, 16),
		workers: c.pool.Workers(),
		stripe:  4 * maxBuckets * b,
	}
	ctx.sortRange(w, x, 0)
	ctx.fail.raise() // every task has returned: x holds a permutation
}

// leafSort sorts data by slices.SortFunc, recording a panic.
func (c *ssCtx[E]) leafSort(data []E) {
	defer c.fail.catch()
	slices.SortFunc(data, c.cmp)
}

// sortRange sorts data, which has seen bad bad partitions.
func (c *ssCtx[E]) sortRange(w *core.Worker, data []E, bad int) {
	if c.fail.failed.Load() {
		return
	}
	n := len(data)
	if n <= c.leaf || bad >= ssBadLimit {
		w.Poll() // a poll point per leaf
		c.leafSort(data)
		return
	}
	t := max(1, min(c.workers, n/c.stripe))
	p := &partitionStep[E]{data: data, b: c.b, ws: make([]*workspace[E], t), fail: &c.fail}
	for s := range p.ws {
		p.ws[s] = c.scratch.get()
	}
	lead := p.ws[0]
	if lead.cl == nil {
		lead.cl = new(classifier[E])
	}
	cl := lead.cl
	cl.cmp, cl.equal = c.cmp, false
	// Buckets: enough that each gets about a leaf's worth, at most 256.
	k := min(maxBuckets, 1<<bits.Len(uint(max(1, n/max(c.leaf/4, 1)))))
	k = max(k, 2)
	ok := func() bool {
		defer c.fail.catch()
		cl.choose(data, lead.buf, k)
		return true
	}()
	var starts [maxBuckets + 1]int
	var equal bool
	if ok {
		p.k = cl.buckets()
		ok = p.run(w, func(w *core.Worker, ws *workspace[E]) {
			classifyTree(w, ws, data, c.b, cl)
		})
		starts, equal = lead.starts, cl.equal
	}
	nb := p.k
	for _, ws := range p.ws {
		c.scratch.put(ws)
	}
	if !ok {
		return
	}
	largest := 0
	for j := range nb {
		if !equal || j%2 == 0 {
			largest = max(largest, starts[j+1]-starts[j])
		}
	}
	if largest > n/2 {
		bad++
	}
	forEach(w, nb, func(w *core.Worker, j int) {
		if lo, hi := starts[j], starts[j+1]; hi-lo > 1 && (!equal || j%2 == 0) {
			c.sortRange(w, data[lo:hi], bad)
		}
	})
}

// xorshift is the small pseudo-random generator of the samples (Marsaglia
// 2003).
type xorshift uint64

// Next advances r and returns its new state, never 0 for a state not 0.
func (r *xorshift) Next() uint64 {
	*r ^= *r << 13
	*r ^= *r >> 7
	*r ^= *r << 17
	return uint64(*r)
}
