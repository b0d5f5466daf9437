package reduce

import (
	"testing"

	"github.com/gofork/gofork/core"
)

// TestHistTablesTakeNested checks that a leaf nested in another on the same
// worker (the outer one's table busy) gets a table of its own, kept for the
// final sum, and that a worker with an ID past the tables made at the start
// does too.
func TestHistTablesTakeNested(t *testing.T) {
	p := core.New(core.WithWorkers(1))
	defer p.Close()
	core.RunValue(p, func(w *core.Worker) struct{} {
		h := &histTables{buckets: 3, byWorker: make([]*histTable, p.MaxWorkerID())}
		outer := h.take(w)
		if outer != h.byWorker[w.ID()] || len(outer.counts) != 3 {
			t.Fatalf("first take: %p, want the worker's table %p of 3 buckets", outer, h.byWorker[w.ID()])
		}
		outer.busy = true
		inner := h.take(w)
		if inner == outer || len(h.others) != 1 || h.others[0] != inner || len(inner.counts) != 3 {
			t.Fatalf("nested take: got the busy table or one not kept (%d others)", len(h.others))
		}
		outer.busy = false
		if again := h.take(w); again != outer {
			t.Fatalf("take after the outer leaf: %p, want the worker's table %p", again, outer)
		}
		short := &histTables{buckets: 2} // no tables by worker: as for a worker started later
		if got := short.take(w); got == nil || len(short.others) != 1 {
			t.Fatalf("take on a worker without a table: %v, %d others", got, len(short.others))
		}
		return struct{}{}
	})
}
