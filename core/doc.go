// Package core is gofork's work-stealing fork-join runtime.
//
// A Pool runs tasks on a set of workers, one goroutine each, each with its
// own deque of stealable work. A task forks with Join (two functions) or
// Invoke (n functions) and returns when all it forked is done:
//
//	func fib(w *core.Worker, n int) int {
//		if n < 2 {
//			return n
//		}
//		x, y := core.Join(w, fib, n-1, fib, n-2)
//		return x + y
//	}
//
//	p := core.New() // or core.Default()
//	defer p.Close()
//	fmt.Println(core.RunValue(p, func(w *core.Worker) int { return fib(w, 30) }))
//
// # Model
//
// Join is work-first (continuation stealing, as in Cilk and libfork): the
// worker that forks runs f at once; what a thief may steal is g, the rest of
// the parent up to its join. With one worker a program runs in exactly its
// serial order. Each Join exposes at most one frame, so a worker's deque is
// never deeper than the recursion, and the frames are recycled per worker:
// a fork allocates nothing. WithPolicy(HelpFirst) switches to child stealing
// for comparison.
//
// An idle worker steals from a victim chosen by machine topology (near
// workers first, see WithTopology), takes the oldest frame there (the biggest
// piece of work), and sleeps when it finds nothing for a while (100 µs by
// default, about what waking it again costs; see WithSpin). A worker
// whose frame was stolen does not block: it steals back from the thief
// (whose frames are all part of the stolen work), then anywhere, and sleeps
// on the frame's latch only when there is nothing to do.
//
// # Glossary
//
//   - task: a function running on a worker as a unit of its own, whose
//     panic is caught at its end: a root passed to RunValue or Pool.Run, a stolen half of a
//     Join, a Scope's task.
//   - worker: one of the pool's goroutines; a task receives its *Worker and
//     passes it to Join. A spare is a worker started to stand in for a
//     blocked one.
//   - frame: the stealable half of a Join, recycled by fork depth.
//   - thief, victim: a worker taking a frame from another worker's deque.
//   - latch: what a worker waits on while it helps instead of blocking: a
//     stolen frame's state (its owner waits on it), a root's (RunOn from a
//     task), or a Scope's count of unfinished tasks.
//
// # Who may call what
//
// RunValue, Pool.Run (a root without a result) and RunOn may be called from any
// goroutine, including from inside a task (a nested Run on the same pool
// runs inline on the current worker). Blocking and a Scope's methods may be
// called from anywhere. A *Worker
// belongs to the task that received it: Join, Invoke, Spawn, Sync, Poll,
// Share, Guard, Pending and Hungry must be called with it, from that task's
// goroutine. A Pool's methods are safe for concurrent use. Close waits for
// submitted roots, so it must not be called from inside a task.
//
// # Forking on demand
//
// A recursion whose leaves are a few tens of nanoseconds can fork less than
// at every level. Pending tells how many of the worker's forks still wait for
// a thief and Hungry whether any worker is out of work: forking only while
// Pending is small, and when Hungry, keeps a one-worker run as fast as the
// serial code while thieves still find work (package uts's tree search does
// this). Such code should call Poll where it does not fork.
//
// Spawn and Sync are Join taken apart, for such code: Spawn pushes a task
// for thieves and returns, and Sync, called later, runs it if no thief took
// it or waits for the thief. A recursion that finds it should fork the rest
// of a range it opened several calls up can spawn it where it is and sync it
// when it gets back there, instead of joining it at once. Spawned tasks are
// synced last in, first out; a task that returns with a spawn not synced
// panics.
//
// # Dynamic tasks
//
// A Scope forks tasks whose shape is not known in advance (a crawl, a walk
// whose children are found as it goes) and waits for them: Scope.Go pushes
// a task on the calling worker's job deque, which thieves read after its
// frames, or submits it from outside; Scope.Wait runs the scope's tasks and
// other work until they are done. SetLimit bounds how many run at once.
// Package par builds its errgroup-shaped Group and its streams on it.
//
// # Blocking, GOMAXPROCS and fair service
//
// A task that blocks (a channel, a lock, a WaitGroup, I/O) holds its
// worker. A pool keeps its workers' number running: when tasks block while
// work waits, it starts spare workers in their place, at once for code
// that says it blocks (Blocking), and within about a millisecond for code
// that does not (the pool's governor watches the Go scheduler's counts of
// running goroutines). So a program whose tasks wait for other work of the
// pool always makes progress, up to WithMaxSpares spares at once.
//
// A pool made without WithWorkers, Default included, runs GOMAXPROCS
// workers and follows GOMAXPROCS when it changes, from the next Run on, up
// to the CPUs the process may run on (runtime.NumCPU): above them, more
// workers would only be time-sliced by the operating system. Roots run
// from outside take turns, first come, first served, so that a caller that
// calls Run again at once does not get ahead of callers already waiting.
//
// A root submitted by Run waits for a worker at most until a busy worker
// reaches a poll point (Poll, Share, a stolen join, a par block) after a
// short bound; it then runs there, on the worker's stack, so a small Run is
// not stuck behind a big one. Code made only of plain Joins has no poll
// point of its own: the pool's governor asks its workers for one when a
// root is due, which the scheduler lets it do within about its 10 ms
// preemption slice; code that must serve roots sooner calls Poll wherever it
// runs long without forking.
//
// Panics in tasks are caught and re-raised in the goroutine that called Run,
// as a *PanicError carrying the original value and the task's stack.
//
// # Idle pools and leak checkers
//
// A worker idle for the pool's keep-alive (WithKeepAlive; DefaultKeepAlive
// for the Default pool and by default) ends its goroutine, spares
// included, and the pool starts it again on the next call, which runs at
// full width. An idle pool then holds one goroutine: its governor,
// parked. A leak checker such as go.uber.org/goleak run at the end of a
// test sees the goroutines of every pool the test used:
//
//   - its own pools: Close them (Close waits for every goroutine);
//   - the Default pool, which cannot be closed: ignore its goroutines by the
//     function they park in,
//     goleak.IgnoreTopFunction("github.com/gofork/gofork/core.(*Worker).waitWake")
//     and goleak.IgnoreTopFunction("github.com/gofork/gofork/core.(*governor).run"),
//     or ignore those alive before the tests start (goleak.IgnoreCurrent
//     after a first call). Waiting out the keep-alive removes the workers,
//     not the governor.
//
// # Profiles and traces
//
// A task runs with the pprof labels (runtime/pprof.Do) of the goroutine
// whose call started its root, whichever worker runs it, as a goroutine
// runs with those of the goroutine that started it: a CPU profile blames
// each request for the work its par.For, sort or Group did. This holds for
// Run, RunOn, a Scope's tasks and every package built on them, with or
// without a context. Labels set inside a task (pprof.Do around a nested
// call) reach the roots and Scope tasks started inside; the frames Join
// forks take those of the task's root. Workers start with no labels,
// never those of the goroutine that started the pool, and carry none
// between tasks. With the execution tracer on, each root is a region named
// gofork.root in go tool trace.
//
// The one piece of global state with a setting is the Default pool,
// started on first use. Beside it, a table of which goroutines are
// workers (of any pool) lets Run and Blocking find their caller's worker.
//
// # Will it scale?
//
// MeasureWorkSpan runs a root serially with a meter on the worker and
// returns its work/span profile, as OpenCilk's Cilkscale does: the work
// (the time of every strand), the span (the longest chain of strands that
// must run one after the other), their ratio the parallelism, which bounds
// the speedup on any number of workers, and the burdened span, which
// charges every fork on the chain a steal. WorkSpan.Speedup turns them
// into the range of speedups to expect on P workers. It costs nothing when
// not measuring: only forks of a measured run look at the meter.
//
// The runtime's invariants, and the proofs that the code comments sketch,
// are written up with the package's source for those who work on it.
package core
