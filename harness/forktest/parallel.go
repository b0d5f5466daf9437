package forktest

import (
	"cmp"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
	"github.com/gofork/gofork/sortpar"
)

// Result is what one parallel run of a program did.
type Result struct {
	Value    uint64 // the program's value, if it did not panic
	Leaves   int64  // leaf evaluations started before Parallel returned
	Inflight int64  // leaf evaluations still running when Parallel returned: must be 0
	Panic    any    // the recovered panic value, unwrapped (see Unwrap); nil if none
	Raw      any    // the recovered panic value as Run raised it

	r *prun
}

// LeavesNow returns how many leaves of the run have started so far; it
// must stay at Leaves once Parallel has returned.
func (r Result) LeavesNow() int64 { return r.r.leaves.Load() }

// Parallel runs p as fork-join tasks on pool from the calling goroutine and
// recovers a panic, if any.
func (p *Program) Parallel(pool *core.Pool) (res Result) {
	r := &prun{pool: pool}
	res.r = r
	defer func() {
		if v := recover(); v != nil {
			res.Raw = v
			res.Panic = Unwrap(v)
		}
		res.Leaves = r.leaves.Load()
		res.Inflight = r.inflight.Load()
	}()
	res.Value = core.RunValue(pool, func(w *core.Worker) uint64 { return r.eval(w, p.Root, p.Seed) })
	return res
}

// Unwrap returns the value a task panicked with, seeing through the
// runtime's *core.PanicError (however deeply nested) and any other wrapper
// with a Value field reachable through errors.As.
func Unwrap(v any) any {
	for {
		switch e := v.(type) {
		case *core.PanicError:
			v = e.Value
			continue
		case error:
			var pe *core.PanicError
			if errors.As(e, &pe) {
				v = pe.Value
				continue
			}
		}
		return v
	}
}

// Check compares a parallel run with the serial outcome and returns what is
// wrong, or nil.
func Check(want Outcome, got Result) error {
	if got.Inflight != 0 {
		return fmt.Errorf("%d leaves still running after Run returned", got.Inflight)
	}
	if len(want.Faults) == 0 {
		if got.Raw != nil {
			return fmt.Errorf("panicked with %v (raw %T), want value %#x", got.Panic, got.Raw, want.Value)
		}
		if got.Value != want.Value {
			return fmt.Errorf("value %#x, want %#x", got.Value, want.Value)
		}
		if got.Leaves != want.Leaves {
			return fmt.Errorf("%d leaf evaluations, want %d", got.Leaves, want.Leaves)
		}
		return nil
	}
	if got.Raw == nil {
		return fmt.Errorf("returned %#x, want a panic with one of %d reachable faults", got.Value, len(want.Faults))
	}
	f, ok := got.Panic.(Fault)
	if !ok {
		return fmt.Errorf("panicked with %T %v, want a Fault", got.Panic, got.Panic)
	}
	if !want.Faults[f] {
		return fmt.Errorf("panicked with %v, which the serial run does not reach", f)
	}
	if got.Leaves > want.Leaves {
		return fmt.Errorf("%d leaf evaluations, more than the %d of a full run", got.Leaves, want.Leaves)
	}
	return nil
}

// prun is the state of one parallel run.
type prun struct {
	pool     *core.Pool
	leaves   atomic.Int64 // leaf evaluations started
	inflight atomic.Int64 // leaf evaluations started and not yet returned
}

// task is the argument of evalTask: a Join passes the node by value so that
// the fork itself allocates nothing.
type task struct {
	r *prun
	n *Node
	x uint64
}

func evalTask(w *core.Worker, t task) uint64 { return t.r.eval(w, t.n, t.x) }

// sub evaluates n from inside a loop body: core.RunValue from inside a task of the
// pool runs inline on the current worker.
func (r *prun) sub(n *Node, x uint64) uint64 {
	return core.RunValue(r.pool, func(w *core.Worker) uint64 { return r.eval(w, n, x) })
}

func (r *prun) eval(w *core.Worker, n *Node, x uint64) uint64 {
	switch n.Kind {
	case Leaf:
		r.inflight.Add(1)
		defer r.inflight.Add(-1)
		r.leaves.Add(1)
		if n.Block == Handoff {
			return r.handoff(n, x)
		}
		v, fails := leafValue(n, x)
		switch n.Block {
		case Sleep:
			time.Sleep(blockSleep)
		case Hint:
			core.Blocking(func() { time.Sleep(blockSleep) })
		}
		if fails {
			panic(Fault{n.ID, x})
		}
		return v
	case Join:
		a, b := core.Join(w,
			evalTask, task{r, n.Kids[0], childInput(x, 0)},
			evalTask, task{r, n.Kids[1], childInput(x, 1)})
		return combine(combine(uint64(n.ID), a), b)
	case Invoke:
		res := make([]uint64, len(n.Kids))
		fns := make([]func(*core.Worker), len(n.Kids))
		for i, k := range n.Kids {
			fns[i] = func(w *core.Worker) { res[i] = r.eval(w, k, childInput(x, i)) }
		}
		core.Invoke(w, fns...)
		h := uint64(n.ID)
		for _, v := range res {
			h = combine(h, v)
		}
		return h
	case For:
		res := make([]uint64, n.N)
		par.For(0, n.N, func(i int) { res[i] = r.sub(n.Kids[0], childInput(x, i)) }, r.loopOpts(n)...)
		h := uint64(n.ID)
		for _, v := range res {
			h = combine(h, v)
		}
		return h
	case Reduce:
		body := func(lo, hi int, acc affine) affine {
			for i := lo; i < hi; i++ {
				acc = acc.then(affineOf(r.sub(n.Kids[0], childInput(x, i))))
			}
			return acc
		}
		join := func(f, g affine) affine {
			if n.PanicMod != 0 {
				panic(Fault{n.ID, x})
			}
			return f.then(g)
		}
		if n.Part == Deterministic {
			return reduce.Deterministic(0, n.N, affineIdentity, body, join,
				par.WithPool(r.pool), par.Grain(n.Grain)).value()
		}
		return reduce.Reduce(0, n.N, affineIdentity, body, join, r.loopOpts(n)...).value()
	case Sort:
		keys := make([]uint64, n.N)
		par.For(0, n.N, func(i int) { keys[i] = sortKey(n, r.sub(n.Kids[0], childInput(x, i))) }, par.WithPool(r.pool))
		opts := []par.Option{par.WithPool(r.pool), par.Grain(n.Cutoff)}
		if n.Radix {
			sortpar.Sort(keys, opts...)
		} else {
			marker := keys[n.N/2]
			sortpar.SortFunc(keys, func(a, b uint64) int {
				if n.PanicMod != 0 && (a == marker || b == marker) {
					panic(Fault{n.ID, x})
				}
				return cmp.Compare(a, b)
			}, opts...)
		}
		h := uint64(n.ID)
		for _, k := range keys {
			h = combine(h, k)
		}
		return h
	}
	panic("forktest: unknown node kind " + n.Kind.String())
}

// blockSleep is how long a Sleep or Hint leaf sleeps.
const blockSleep = 50 * time.Microsecond

// handoff computes a Handoff leaf's value in a root that a new goroutine
// submits to the pool, and waits for it: the waiting worker is blocked on
// work only the pool can run. A fault raised in the root is raised again
// here, as the leaf's own.
func (r *prun) handoff(n *Node, x uint64) uint64 {
	type answer struct {
		v     uint64
		fault any
	}
	ch := make(chan answer)
	go func() {
		var a answer
		defer func() {
			if v := recover(); v != nil {
				a.fault = Unwrap(v)
			}
			ch <- a
		}()
		a.v = core.RunValue(r.pool, func(*core.Worker) uint64 {
			v, fails := leafValue(n, x)
			if fails {
				panic(Fault{n.ID, x})
			}
			return v
		})
	}()
	a := <-ch
	if a.fault != nil {
		panic(a.fault)
	}
	return a.v
}

func (r *prun) loopOpts(n *Node) []par.Option {
	opts := []par.Option{par.WithPool(r.pool)}
	switch n.Part {
	case Auto:
		opts = append(opts, par.Auto(), par.Grain(n.Grain))
	case Simple:
		opts = append(opts, par.Simple(n.Grain))
	case Static:
		opts = append(opts, par.Static())
	case Affinity:
		opts = append(opts, par.Affinity(new(par.AffinityState)))
	}
	return opts
}
