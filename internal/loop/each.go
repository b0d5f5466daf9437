package loop

import "github.com/gofork/gofork/core"

// Each and Chunks are the loops of a caller that already runs inside a task
// on w and has a small number k of independent pieces: one index per leaf,
// the indices a balanced tree of core.Join. Unlike Split they keep no state
// shared between leaves: the body travels in the Join arguments, which the
// core copies into frames it recycles per worker, and the task functions
// are top-level, so a loop allocates nothing beyond the caller's body
// closure. What that gives up is Split's stop flag: after a leaf panics, a
// half already taken by a thief still runs its leaves (core.Join's panic
// contract), so a body must leave its data consistent when a neighbouring
// leaf panics, as every leaf of a Split loop must too.
//
// Each leaf starts at a poll point: the worker shares the frames it holds
// privately (core.Worker.Share), so the rest of the loop never waits behind
// a long leaf, and a root that has waited too long gets in.

// Each runs body(w, i) for i in [0, k), in parallel on w's pool, from w. It
// returns at once when k <= 0.
func Each(w *core.Worker, k int, body func(w *core.Worker, i int)) {
	if k > 0 {
		eachTask(w, eachSpan{each: body, a: 0, b: k})
	}
}

// Chunks cuts [0, n) into k near-equal chunks, chunk i = [ChunkBound(i),
// ChunkBound(i+1)), and runs body(i, lo, hi) for each, in parallel on w's
// pool, from w, as Each runs its indices. It returns at once when k <= 0;
// n must be >= 0.
func Chunks(w *core.Worker, n, k int, body func(i, lo, hi int)) {
	if k > 0 {
		eachTask(w, eachSpan{chunk: body, n: uint64(n), k: uint64(k), a: 0, b: k})
	}
}

// eachSpan is the indices [a, b) of an Each loop (each set) or a Chunks
// loop over k chunks of [0, n) (chunk set). Both loops use this one type,
// so that their Joins share the frames a worker caches per fork depth (a
// frame is reused only by a Join of the same types): a sort that runs both
// kinds of loop at the same depth allocates no frame after the first.
type eachSpan struct {
	each  func(w *core.Worker, i int)
	chunk func(i, lo, hi int)
	n, k  uint64
	a, b  int
}

// eachTask halves s until one index is left and runs it.
func eachTask(w *core.Worker, s eachSpan) struct{} {
	if s.b-s.a > 1 {
		l, r := s, s
		l.b = s.a + (s.b-s.a)/2
		r.a = l.b
		core.Join(w, eachTask, l, eachTask, r)
		return struct{}{}
	}
	w.Share()
	if s.each != nil {
		s.each(w, s.a)
		return struct{}{}
	}
	i := uint64(s.a)
	s.chunk(s.a, int(ChunkBound(i, s.k, s.n)), int(ChunkBound(i+1, s.k, s.n)))
	return struct{}{}
}
