package sortpar

import (
	"sync"

	"github.com/gofork/gofork/core"
)

// The partition step of SortByKey is the in-place block partition
// (partitionStep) with a classification of its own: each element's bucket is the
// byte at shift of its key's word, the key is called once per element per
// step, and the blocks move by their labels, so a key function that answers
// differently on each call cannot make the counts and the permutation
// disagree. The classification also ANDs and ORs together the words of
// each bucket (wordMasks), so that each bucket knows which bits of its
// words vary, to choose the bits it is split on next (or that it is done)
// without another pass.
//
// Panics. The key is called only in classification. A stripe that panics
// records the panic (failure) with its workspace describing exactly what it
// holds; the partition step puts every buffered element back, so the range
// holds a permutation of its elements. The permutation and the cleanup call
// no user code.

// wordMasks is, for each bucket of a SortByKey step, the AND and the OR of
// its elements' words: the bits where they differ are and^or.
type wordMasks struct {
	and, or [maxBuckets]uint64
}

// reset readies m for a new step.
func (m *wordMasks) reset() {
	for j := range maxBuckets {
		m.and[j], m.or[j] = ^uint64(0), 0
	}
}

// keyBuckets is what a SortByKey step leaves for the sorting of its
// buckets: where each starts, and its words' masks. It is held from a
// partition until its buckets are sorted, and reused.
type keyBuckets struct {
	starts [maxBuckets + 1]int
	wordMasks
}

// classifyWords reads ws's stripe of data into its bucket buffers, bucket
// by word(e) >> shift, writing full buffers back to the stripe's front with
// their labels. word calls the user's key once per element and may panic:
// ws then describes exactly what it holds.
func classifyWords[E any](w *core.Worker, ws *workspace[E], data []E, b int, word func(E) uint64, shift uint) {
	if ws.words == nil {
		ws.words = new(wordMasks)
	}
	m := ws.words
	m.reset()
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
	write := ws.lo
	for lo := ws.lo; lo < ws.hi; lo += classifyPoll {
		for _, e := range data[lo:min(lo+classifyPoll, ws.hi)] {
			v := word(e)
			j := uint8(v >> shift)
			m.and[j] &= v
			m.or[j] |= v
			if f := push(&fill, buf, j, e, b); f >= 0 {
				write = ws.flush(data, buf[f:f+b], write, j)
			}
		}
		w.Poll()
	}
}

// keyLeafSpace is what one SortByKey leaf works in: a buffer to gather the
// elements through, and the arrays of their words (numbers) or their keys
// with their positions (strings).
type keyLeafSpace[E any, K any] struct {
	buf    []E
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

// keyScratch hands out the leaf spaces and bucket records of one
// SortByKey, about one per worker; the partitions' workspaces come from
// parts, as the other sorts' do.
type keyScratch[E any, K any] struct {
	parts   *scratch[E]
	mu      sync.Mutex
	leaves  []*keyLeafSpace[E, K]
	buckets []*keyBuckets
	leafMax int // the longest leaf
}

// leaf returns a free leaf space.
func (s *keyScratch[E, K]) leaf() *keyLeafSpace[E, K] {
	s.mu.Lock()
	if n := len(s.leaves); n > 0 {
		ls := s.leaves[n-1]
		s.leaves[n-1] = nil
		s.leaves = s.leaves[:n-1]
		s.mu.Unlock()
		return ls
	}
	s.mu.Unlock()
	return &keyLeafSpace[E, K]{buf: make([]E, s.leafMax)}
}

// putLeaf gives ls back.
func (s *keyScratch[E, K]) putLeaf(ls *keyLeafSpace[E, K]) {
	s.mu.Lock()
	s.leaves = append(s.leaves, ls)
	s.mu.Unlock()
}

// bucketsRecord returns a free bucket record.
func (s *keyScratch[E, K]) bucketsRecord() *keyBuckets {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n := len(s.buckets); n > 0 {
		kb := s.buckets[n-1]
		s.buckets = s.buckets[:n-1]
		return kb
	}
	return new(keyBuckets)
}

// putBuckets gives kb back.
func (s *keyScratch[E, K]) putBuckets(kb *keyBuckets) {
	s.mu.Lock()
	s.buckets = append(s.buckets, kb)
	s.mu.Unlock()
}
