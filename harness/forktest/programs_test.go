package forktest

import (
	"flag"
	"fmt"
	"go.uber.org/goleak"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/harness/pooltest"
)

var (
	seedFlag  = flag.Int64("seed", -1, "run only this random-program seed (replays a failure printed by TestPrograms or TestSoak)")
	seedsFlag = flag.Int("seeds", 0, "number of random-program seeds TestPrograms runs (0: 400, 300 with -short or -race, 200 with both)")
	leaveFlag = flag.Int("leaves", 0, "leaf-evaluation budget of each random program (0: 8000, 6000 with -short, 1500 with -race); printed with every failing seed")
	soakFlag  = flag.Duration("soak", 0, "run TestSoak's random programs for this long (use with -timeout=0 or a -timeout longer than it)")
)

// workerCounts are the pool sizes every program runs at; on a 2-core machine
// most are oversubscribed on purpose.
var workerCounts = []int{1, 2, 4, 8, 16}

// programConfig is the config of seed: half the programs have no faults (and
// must give the serial value), a quarter have a few, a quarter many.
func programConfig(seed uint64, leaves int) Config {
	cfg := Config{Leaves: leaves, MaxWork: 2000}
	switch seed % 4 {
	case 1:
		cfg.Faults = 15
	case 3:
		cfg.Faults = 40 // many faults at once: several tasks panic concurrently
	}
	return cfg
}

func programLeaves() int {
	switch {
	case *leaveFlag > 0:
		return *leaveFlag
	case raceEnabled || emulated:
		return 1500
	case testing.Short():
		return 6000
	}
	return 8000
}

func seedCount() int {
	switch {
	case *seedsFlag > 0:
		return *seedsFlag
	case (raceEnabled || emulated) && testing.Short():
		return 200
	case raceEnabled || testing.Short():
		return 300
	}
	return 400
}

// checkSeed runs the program of seed on every pool and reports failures
// with the command that replays them. It returns false if any run failed.
func checkSeed(t *testing.T, seed uint64, leaves int, pools []*core.Pool) bool {
	t.Helper()
	return checkProgram(t, Generate(seed, programConfig(seed, leaves)), pools,
		fmt.Sprintf("go test ./harness/forktest -run 'TestPrograms(Policies)?$' -seed=%d -leaves=%d -v", seed, leaves))
}

// checkProgram runs prog on every pool against its serial outcome and
// reports failures with the replay command. It returns false if any run
// failed.
func checkProgram(t *testing.T, prog *Program, pools []*core.Pool, replay string) bool {
	t.Helper()
	want := prog.Serial()
	ok := true
	results := make([]Result, len(pools))
	for i, pool := range pools {
		results[i] = prog.Parallel(pool)
		if err := Check(want, results[i]); err != nil {
			ok = false
			t.Errorf("seed %d, %s: %v\nreplay: %s%s", prog.Seed, poolName(pool), err, replay, programText(prog))
		}
	}
	// No leaf of a finished run may start later, while the pools run the
	// following programs.
	for i, res := range results {
		if now := res.LeavesNow(); now != res.Leaves {
			ok = false
			t.Errorf("seed %d, %s: %d leaves started after Run returned\nreplay: %s",
				prog.Seed, poolName(pools[i]), now-res.Leaves, replay)
		}
	}
	return ok
}

// poolName names a pool in failure reports: its size, and its policy and
// scheduler where they are not the defaults.
func poolName(p *core.Pool) string {
	s := fmt.Sprintf("P=%d", p.Workers())
	if p.Policy() != core.WorkFirst {
		s += " " + p.Policy().String()
	}
	if p.Scheduler() != core.Lazy {
		s += " " + p.Scheduler().String()
	}
	return s
}

func programText(p *Program) string {
	if len(p.Nodes) > 60 {
		return fmt.Sprintf("\n(program of %d nodes; -v on the replay prints it)", len(p.Nodes))
	}
	return "\n" + p.String()
}

func newPools(t testing.TB, counts []int) []*core.Pool {
	pools := make([]*core.Pool, len(counts))
	for i, n := range counts {
		pools[i] = core.New(core.WithWorkers(n))
	}
	t.Cleanup(func() {
		for _, p := range pools {
			pooltest.Close(t, p)
		}
	})
	return pools
}

// TestPrograms runs random programs at 1, 2, 4, 8 and 16 workers against the
// serial interpreter. With -seed=N it runs that seed only and logs its tree.
func TestPrograms(t *testing.T) {
	pools := newPools(t, workerCounts)
	if *seedFlag >= 0 {
		seed := uint64(*seedFlag)
		prog := Generate(seed, programConfig(seed, programLeaves()))
		t.Logf("%v", prog)
		want := prog.Serial()
		t.Logf("serial: value %#x, %d leaves, %d reachable faults", want.Value, want.Leaves, len(want.Faults))
		checkSeed(t, seed, programLeaves(), pools)
		return
	}
	faulty := 0
	for seed := range uint64(seedCount()) {
		if !checkSeed(t, seed, programLeaves(), pools) && t.Failed() {
			if faulty++; faulty >= 5 {
				t.Fatalf("stopping after %d failing seeds", faulty)
			}
		}
	}
}

// TestProgramsPolicies runs random programs on HelpFirst pools (Join lets
// thieves take its first function) and on Busy pools (idle workers never
// sleep). With -seed it replays that seed on these pools only.
func TestProgramsPolicies(t *testing.T) {
	pools := newPolicyPools(t)
	if *seedFlag >= 0 {
		checkSeed(t, uint64(*seedFlag), programLeaves(), pools)
		return
	}
	for seed := range uint64(seedCount() / 4) {
		checkSeed(t, seed, programLeaves(), pools)
	}
}

// newPolicyPools returns pools with the non-default policy and scheduler.
func newPolicyPools(t testing.TB) []*core.Pool {
	var pools []*core.Pool
	for _, o := range [][]core.Option{
		{core.WithWorkers(1), core.WithPolicy(core.HelpFirst)},
		{core.WithWorkers(2), core.WithPolicy(core.HelpFirst)},
		{core.WithWorkers(5), core.WithPolicy(core.HelpFirst)},
		{core.WithWorkers(2), core.WithScheduler(core.Busy)},
		{core.WithWorkers(3), core.WithScheduler(core.Busy), core.WithPolicy(core.HelpFirst)},
	} {
		p := core.New(o...)
		pools = append(pools, p)
		t.Cleanup(func() { pooltest.Close(t, p) })
	}
	return pools
}

// TestProgramsCoverage checks that the generator makes what the suite claims
// it tests: every node kind, nesting to depth 4, faults of every kind, and
// programs that panic as well as programs that do not.
func TestProgramsCoverage(t *testing.T) {
	kinds := map[Kind]int{}
	faultKinds := map[Kind]int{}
	depth4, panicking := 0, 0
	const seeds = 300
	for seed := range uint64(seeds) {
		prog := Generate(seed, programConfig(seed, programLeaves()))
		for _, n := range prog.Nodes {
			kinds[n.Kind]++
			if n.PanicMod != 0 {
				faultKinds[n.Kind]++
			}
		}
		if depthOf(prog.Root) >= 4 {
			depth4++
		}
		if len(prog.Serial().Faults) > 0 {
			panicking++
		}
	}
	for k := Leaf; k <= Sort; k++ {
		if kinds[k] == 0 {
			t.Errorf("no %v node in %d programs", k, seeds)
		}
	}
	for _, k := range []Kind{Leaf, Reduce, Sort} {
		if faultKinds[k] == 0 {
			t.Errorf("no failing %v node in %d programs", k, seeds)
		}
	}
	if depth4 < seeds/10 {
		t.Errorf("only %d of %d programs nest inner nodes 4 deep", depth4, seeds)
	}
	if panicking < seeds/10 || panicking > seeds*7/10 {
		t.Errorf("%d of %d programs panic; want between 10%% and 70%%", panicking, seeds)
	}
	t.Logf("nodes by kind %v, failing %v, depth-4 programs %d, panicking %d of %d", kinds, faultKinds, depth4, panicking, seeds)
}

func depthOf(n *Node) int {
	d := 0
	for _, k := range n.Kids {
		d = max(d, 1+depthOf(k))
	}
	return d
}

// TestGenerateDeterministic checks that a seed always gives the same program
// and value, which is what makes -seed replays work.
func TestGenerateDeterministic(t *testing.T) {
	for seed := range uint64(20) {
		a, b := Generate(seed, Config{Faults: 10}), Generate(seed, Config{Faults: 10})
		if a.String() != b.String() {
			t.Fatalf("seed %d: two different programs", seed)
		}
		if va, vb := a.Serial(), b.Serial(); va.Value != vb.Value || va.Leaves != vb.Leaves {
			t.Fatalf("seed %d: serial runs differ", seed)
		}
	}
}

// TestSoak runs random seeds on the pools of TestPrograms and
// TestProgramsPolicies for as long as -soak says (skipped without it),
// printing the seed of any failure for -seed to replay.
func TestSoak(t *testing.T) {
	if *soakFlag <= 0 {
		t.Skip("soak disabled; run with -soak=10m -timeout=0")
	}
	end := time.Now().Add(*soakFlag)
	if d, ok := t.Deadline(); ok && d.Add(-30*time.Second).Before(end) {
		end = d.Add(-30 * time.Second)
		t.Logf("soak shortened to end before the test deadline (-timeout); use -timeout=0")
	}
	pools := append(newPools(t, workerCounts), newPolicyPools(t)...)
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	runs, failures := 0, 0
	start := time.Now()
	for time.Now().Before(end) {
		seed := rng.Uint64() >> 1 // -seed takes an int64
		if !checkSeed(t, seed, programLeaves(), pools) {
			if failures++; failures >= 10 {
				t.Fatalf("stopping after %d failing seeds", failures)
			}
		}
		runs++
	}
	t.Logf("soak: %d programs x %d pools in %v, %d failing", runs, len(pools), time.Since(start).Round(time.Second), failures)
}

// TestProgramsConcurrent runs random programs from 8 goroutines at once on
// shared pools, so that roots from outside meet each other in the pools'
// queues and workers switch between programs. Two callers run big programs
// and six small ones, so that small roots wait beside big ones and busy
// workers take them at their poll points (fair service).
func TestProgramsConcurrent(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t, leakOpts...) })
	pools := newPools(t, []int{3})
	pools = append(pools, core.Default())
	const callers = 8
	perCaller := 25
	if raceEnabled {
		perCaller = 8
	}
	done := make(chan struct{})
	for c := range callers {
		leaves := programLeaves() / 16
		if c%4 == 0 {
			leaves = programLeaves() * 2
		}
		go func() {
			defer func() { done <- struct{}{} }()
			for k := range perCaller {
				seed := uint64(3_000_000 + c*perCaller + k)
				prog := Generate(seed, programConfig(seed, leaves))
				want := prog.Serial()
				for _, pool := range pools {
					if err := Check(want, prog.Parallel(pool)); err != nil {
						t.Errorf("seed %d, P=%d, beside %d other callers: %v\nreplay alone: go test ./harness/forktest -run 'TestPrograms$' -seed=%d -leaves=%d -v",
							seed, pool.Workers(), callers-1, err, seed, leaves)
					}
				}
			}
		}()
	}
	for range callers {
		<-done
	}
}
