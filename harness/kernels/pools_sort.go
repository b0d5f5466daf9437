package kernels

import (
	"cmp"
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/harness/baseline"
)

// The two recursive tests of the pools suite: quicksort (divide only) and
// mergesort (divide and merge), each as a serial program, as gofork
// fork-join and as Submit/Wait tasks on the pools of pools.go.

// qsPartition is Hoare's partition around the median of the first, middle
// and last keys. It returns k with 0 < k < len(a), a[:k] <= pivot <= a[k:].
func qsPartition(a []int64) int {
	n := len(a)
	m := n / 2
	if a[m] < a[0] {
		a[m], a[0] = a[0], a[m]
	}
	if a[n-1] < a[0] {
		a[n-1], a[0] = a[0], a[n-1]
	}
	if a[n-1] < a[m] {
		a[n-1], a[m] = a[m], a[n-1]
	}
	pivot := a[m]
	i, j := -1, n
	for {
		for i++; a[i] < pivot; i++ {
		}
		for j--; a[j] > pivot; j-- {
		}
		if i >= j {
			return j + 1
		}
		a[i], a[j] = a[j], a[i]
	}
}

// qsSerial sorts a: quicksort down to 16 keys, then insertion sort.
func qsSerial(a []int64) {
	for len(a) > 16 {
		k := qsPartition(a)
		if k < len(a)-k {
			qsSerial(a[:k])
			a = a[k:]
		} else {
			qsSerial(a[k:])
			a = a[:k]
		}
	}
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// msMerge merges sorted l and r into dst (len(dst) == len(l)+len(r)).
func msMerge(l, r, dst []int64) {
	i, j, k := 0, 0, 0
	for i < len(l) && j < len(r) {
		if r[j] < l[i] {
			dst[k] = r[j]
			j++
		} else {
			dst[k] = l[i]
			i++
		}
		k++
	}
	k += copy(dst[k:], l[i:])
	copy(dst[k:], r[j:])
}

// sortTasks counts the tasks a sort of n keys runs: one per range (the
// leaves sort serially), plus one merge per split for mergesort.
func sortTasks(a []int64, merge bool) int64 {
	if len(a) <= poolsSortCutoff {
		return 1
	}
	var k int
	if merge {
		k = len(a) / 2
	} else {
		k = qsPartition(a)
	}
	n := 1 + sortTasks(a[:k], merge) + sortTasks(a[k:], merge)
	if merge {
		n++ // the merge task
	}
	return n
}

// poolSort holds one sort problem and the per-run task counter.
type poolSort struct {
	data, tmp []int64
	tasks     atomic.Int64
}

// qsRec is the divide-only recursion: partition, then the two halves.
type qsArgs struct {
	s *poolSort
	a []int64
}

func qsGofork(w *core.Worker, x qsArgs) struct{} {
	x.s.tasks.Add(1)
	if len(x.a) <= poolsSortCutoff {
		qsSerial(x.a)
		return struct{}{}
	}
	k := qsPartition(x.a)
	core.Join(w, qsGofork, qsArgs{x.s, x.a[:k]}, qsGofork, qsArgs{x.s, x.a[k:]})
	return struct{}{}
}

func qsTasksSerial(s *poolSort, a []int64) {
	s.tasks.Add(1)
	if len(a) <= poolsSortCutoff {
		qsSerial(a)
		return
	}
	k := qsPartition(a)
	qsTasksSerial(s, a[:k])
	qsTasksSerial(s, a[k:])
}

// msArgs is a mergesort range with its scratch space.
type msArgs struct {
	s      *poolSort
	a, tmp []int64
}

func msGofork(w *core.Worker, x msArgs) struct{} {
	x.s.tasks.Add(1)
	if len(x.a) <= poolsSortCutoff {
		qsSerial(x.a)
		return struct{}{}
	}
	m := len(x.a) / 2
	core.Join(w, msGofork, msArgs{x.s, x.a[:m], x.tmp[:m]}, msGofork, msArgs{x.s, x.a[m:], x.tmp[m:]})
	x.s.tasks.Add(1)
	msMerge(x.a[:m], x.a[m:], x.tmp)
	copy(x.a, x.tmp)
	return struct{}{}
}

func msTasksSerial(s *poolSort, a, tmp []int64) {
	s.tasks.Add(1)
	if len(a) <= poolsSortCutoff {
		qsSerial(a)
		return
	}
	m := len(a) / 2
	msTasksSerial(s, a[:m], tmp[:m])
	msTasksSerial(s, a[m:], tmp[m:])
	s.tasks.Add(1)
	msMerge(a[:m], a[m:], tmp)
	copy(a, tmp)
}

// msNode is a pending merge for the pools: it runs as a task once both
// children have finished (the last child to finish submits it), so no
// task ever blocks waiting for another.
type msNode struct {
	a, tmp  []int64
	mid     int
	pending atomic.Int32
	parent  *msNode
}

// poolsQuicksort runs the divide-only quicksort on a Submit/Wait pool.
func poolsQuicksort(pool baseline.TaskPool, s *poolSort) {
	var task func(a []int64)
	task = func(a []int64) {
		s.tasks.Add(1)
		if len(a) <= poolsSortCutoff {
			qsSerial(a)
			return
		}
		k := qsPartition(a)
		l, r := a[:k], a[k:]
		pool.Submit(func() { task(l) })
		pool.Submit(func() { task(r) })
	}
	pool.Submit(func() { task(s.data) })
	pool.Wait()
}

// poolsMergesort runs the divide+merge mergesort on a Submit/Wait pool.
func poolsMergesort(pool baseline.TaskPool, s *poolSort) {
	var finish func(n *msNode)
	finish = func(n *msNode) {
		if n == nil || n.pending.Add(-1) != 0 {
			return
		}
		pool.Submit(func() {
			s.tasks.Add(1)
			msMerge(n.a[:n.mid], n.a[n.mid:], n.tmp)
			copy(n.a, n.tmp)
			finish(n.parent)
		})
	}
	var task func(a, tmp []int64, parent *msNode)
	task = func(a, tmp []int64, parent *msNode) {
		s.tasks.Add(1)
		if len(a) <= poolsSortCutoff {
			qsSerial(a)
			finish(parent)
			return
		}
		m := len(a) / 2
		n := &msNode{a: a, tmp: tmp, mid: m, parent: parent}
		n.pending.Store(2)
		pool.Submit(func() { task(a[:m], tmp[:m], n) })
		pool.Submit(func() { task(a[m:], tmp[m:], n) })
	}
	pool.Submit(func() { task(s.data, s.tmp, nil) })
	pool.Wait()
}

func setupPoolSort(variant string, p, n int, merge bool) (*Job, error) {
	name := "quicksort"
	if merge {
		name = "mergesort"
	}
	in := SortInput(SortRandom, n, Int64s)
	want := hashSum(in, mix64)
	wantTasks := sortTasks(slices.Clone(in), merge)
	s := &poolSort{data: make([]int64, n), tmp: make([]int64, n)}
	j := &Job{
		Reset: func() {
			copy(s.data, in)
			s.tasks.Store(0)
		},
		Verify: func() error {
			if err := sortedSame(name, s.data, cmp.Compare[int64], nil, mix64, want); err != nil {
				return err
			}
			if got := s.tasks.Load(); got != wantTasks {
				return fmt.Errorf("%s: %d tasks ran, want each of %d exactly once", name, got, wantTasks)
			}
			return nil
		},
	}
	switch variant {
	case Serial:
		if merge {
			j.Run = func() { msTasksSerial(s, s.data, s.tmp) }
		} else {
			j.Run = func() { qsTasksSerial(s, s.data) }
		}
	case Gofork:
		pool := core.New(core.WithWorkers(p))
		if merge {
			j.Run = func() { pool.Run(func(w *core.Worker) { msGofork(w, msArgs{s, s.data, s.tmp}) }) }
		} else {
			j.Run = func() { pool.Run(func(w *core.Worker) { qsGofork(w, qsArgs{s, s.data}) }) }
		}
		j.Close = pool.Close
	default:
		pool := baseline.NewTaskPool(variant, p)
		if pool == nil {
			return nil, fmt.Errorf("%s: no variant %q", name, variant)
		}
		if merge {
			j.Run = func() { poolsMergesort(pool, s) }
		} else {
			j.Run = func() { poolsQuicksort(pool, s) }
		}
		j.Close = pool.Close
	}
	return j, nil
}
