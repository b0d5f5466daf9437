package core

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/gofork/gofork/topology"
)

// victimExpected is libfork eq. 6 written out directly: the probability that
// worker i steals from each j, w_ij = 1/(n_ij r_ij^2) normalised, r = 0 taken
// as 1 but kept as its own class.
func victimExpected(topo *topology.Machine, cpus []int, i int) []float64 {
	n := map[int]int{}
	for j := range cpus {
		if j != i {
			n[topo.Distance(cpus[i], cpus[j])]++
		}
	}
	w := make([]float64, len(cpus))
	sum := 0.0
	for j := range cpus {
		if j != i {
			d := topo.Distance(cpus[i], cpus[j])
			r := float64(max(d, 1))
			w[j] = 1 / (float64(n[d]) * r * r)
			sum += w[j]
		}
	}
	for j := range w {
		w[j] /= sum
	}
	return w
}

// victimExact reads back the distribution a sampler's table encodes.
func victimExact(s *victimSampler, p int) []float64 {
	d := make([]float64, p)
	n := float64(s.n)
	if s.uniform {
		for j := range d {
			if j != s.self {
				d[j] = 1 / n
			}
		}
		return d
	}
	for _, c := range s.table {
		a := math.Ldexp(float64(c.thresh), -64)
		if c.thresh == math.MaxUint64 {
			a = 1
		}
		d[c.victim] += a / n
		d[c.alias] += (1 - a) / n
	}
	return d
}

// victimChi2Crit001 is the chi-square critical value at p = 0.001 for df
// degrees of freedom (index df-1).
var victimChi2Crit001 = []float64{10.828, 13.816, 16.266, 18.467, 20.515, 22.458, 24.322,
	26.124, 27.877, 29.588, 31.264, 32.909, 34.528, 36.123, 37.697}

type victimCase struct {
	name string
	topo *topology.Machine
	cpus []int
}

func victimCases(t *testing.T) []victimCase {
	t.Helper()
	read := func(tree string) *topology.Machine {
		topo, err := topology.Read(topoTestRoot(tree))
		if err != nil {
			t.Fatal(err)
		}
		return topo
	}
	two, l2, off := read("2socket"), read("1node-2l2"), read("offline")
	return []victimCase{
		{"2socket/p=8", two, []int{0, 1, 2, 3, 4, 5, 6, 7}},
		{"2socket/p=8/assigned", two, spreadCPUs(two, 8)},
		{"2socket/p=3", two, []int{0, 1, 4}},
		{"2socket/p=16/wrapped", two, spreadCPUs(two, 16)},
		{"1node-2l2/p=4", l2, []int{0, 1, 2, 3}},
		{"offline-smt/p=3", off, []int{0, 1, 3}},
		{"flat/p=5", topology.Flat(5), []int{0, 1, 2, 3, 4}},
		{"flat/p=6/wrapped", topology.Flat(3), spreadCPUs(topology.Flat(3), 6)},
	}
}

// TestVictimTables checks, exactly, that every sampler's alias table encodes
// libfork eq. 6.
func TestVictimTables(t *testing.T) {
	for _, tc := range victimCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			s := newVictimSamplers(tc.topo, tc.cpus)
			if len(s) != len(tc.cpus) {
				t.Fatalf("%d samplers for %d workers", len(s), len(tc.cpus))
			}
			for i := range s {
				want := victimExpected(tc.topo, tc.cpus, i)
				got := victimExact(&s[i], len(tc.cpus))
				for j := range want {
					if math.Abs(got[j]-want[j]) > 1e-12 {
						t.Fatalf("worker %d: P(victim %d) = %.15f, want %.15f", i, j, got[j], want[j])
					}
				}
			}
		})
	}
}

// TestVictimTwoSocketOracle pins the formula down by hand on the 2-socket
// machine: from cpu 0, three workers share the L3 (r = 3) and four are on the
// other node (r = 6), so the near class gets (1/9)/(1/9+1/36) = 0.8 in all.
func TestVictimTwoSocketOracle(t *testing.T) {
	topo, err := topology.Read(topoTestRoot("2socket"))
	if err != nil {
		t.Fatal(err)
	}
	s := newVictimSamplers(topo, []int{0, 1, 2, 3, 4, 5, 6, 7})
	want := []float64{0, 0.8 / 3, 0.8 / 3, 0.8 / 3, 0.05, 0.05, 0.05, 0.05}
	got := victimExact(&s[0], 8)
	for j := range want {
		if math.Abs(got[j]-want[j]) > 1e-12 {
			t.Errorf("P(victim %d) = %v, want %v", j, got[j], want[j])
		}
	}
}

// TestVictimChiSquare draws 10^6 victims per thief and compares the counts
// with eq. 6 by Pearson's chi-square test at p = 0.001.
func TestVictimChiSquare(t *testing.T) {
	const draws = 1_000_000
	rng := rand.New(rand.NewPCG(1, 1))
	for _, tc := range victimCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			s := newVictimSamplers(tc.topo, tc.cpus)
			p := len(tc.cpus)
			thieves := make([]int, p)
			for i := range thieves {
				thieves[i] = i
			}
			if testing.Short() {
				thieves = []int{0, p - 1}
			}
			counts := make([]int, p)
			for _, i := range thieves {
				clear(counts)
				for range draws {
					v := s[i].pick(rng.Uint64())
					if v < 0 || v >= p || v == i {
						t.Fatalf("worker %d picked victim %d", i, v)
					}
					counts[v]++
				}
				want := victimExpected(tc.topo, tc.cpus, i)
				chi2 := 0.0
				for j, c := range counts {
					if j == i {
						continue
					}
					e := want[j] * draws
					chi2 += (float64(c) - e) * (float64(c) - e) / e
				}
				if crit := victimChi2Crit001[p-2]; chi2 > crit {
					t.Errorf("worker %d: chi-square %.2f > %.2f (df %d, p = 0.001); counts %v, want %v",
						i, chi2, crit, p-2, counts, want)
				}
			}
		})
	}
}

func TestVictimEdgeCases(t *testing.T) {
	// P = 1: no victim, pick says -1.
	s := newVictimSamplers(topology.Flat(2), []int{1})
	if v := s[0].pick(12345); v != -1 {
		t.Errorf("P=1: pick = %d, want -1", v)
	}
	// P = 2: always the other one, on any topology.
	two, _ := topology.Read(topoTestRoot("2socket"))
	s = newVictimSamplers(two, []int{0, 7})
	for _, r := range []uint64{0, 1, 1 << 63, math.MaxUint64} {
		if a, b := s[0].pick(r), s[1].pick(r); a != 1 || b != 0 {
			t.Errorf("P=2: pick(%d) = %d, %d; want 1, 0", r, a, b)
		}
	}
	// A nil topology is flat; flat needs no table.
	for i, s := range newVictimSamplers(nil, []int{0, 1, 2}) {
		if !s.uniform || s.table != nil || s.self != i {
			t.Errorf("nil topology: sampler %d = %+v, want uniform", i, s)
		}
	}
	// The extreme random numbers stay in range.
	s = newVictimSamplers(two, []int{0, 1, 2, 3, 4, 5, 6, 7})
	for i := range s {
		for _, r := range []uint64{0, math.MaxUint64} {
			if v := s[i].pick(r); v < 0 || v > 7 || v == i {
				t.Errorf("worker %d: pick(%d) = %d", i, r, v)
			}
		}
	}
}

func TestVictimPickAllocs(t *testing.T) {
	two, _ := topology.Read(topoTestRoot("2socket"))
	for _, s := range [][]victimSampler{
		newVictimSamplers(two, []int{0, 1, 2, 3, 4, 5, 6, 7}),
		newVictimSamplers(topology.Flat(8), []int{0, 1, 2, 3, 4, 5, 6, 7}),
	} {
		r := uint64(1)
		sink := 0
		if a := testing.AllocsPerRun(1000, func() {
			r = r*6364136223846793005 + 1442695040888963407
			sink += s[3].pick(r)
		}); a != 0 {
			t.Errorf("pick allocates %v times per call", a)
		}
		_ = sink
	}
}

// A thief on the 2-socket machine steals within its socket 80% of the time.
func Example_victimSelection() {
	topo, _ := topology.Read(topoTestRoot("2socket"))
	cpus := topo.Spread()
	samplers := newVictimSamplers(topo, cpus)
	rng := rand.New(rand.NewPCG(1, 1))
	near := 0
	for range 100000 {
		if v := samplers[0].pick(rng.Uint64()); topo.Node(cpus[v]) == topo.Node(cpus[0]) {
			near++
		}
	}
	fmt.Println("workers on cpus", cpus)
	fmt.Printf("same node: %.2f\n", float64(near)/100000)
	// Output:
	// workers on cpus [0 4 1 5 2 6 3 7]
	// same node: 0.80
}

func BenchmarkVictimPick(b *testing.B) {
	two, _ := topology.Read(topoTestRoot("2socket"))
	for _, bc := range []struct {
		name string
		topo *topology.Machine
	}{{"2socket", two}, {"flat", topology.Flat(8)}} {
		b.Run(bc.name+"/p=8", func(b *testing.B) {
			s := newVictimSamplers(bc.topo, []int{0, 1, 2, 3, 4, 5, 6, 7})
			r, sink := uint64(1), 0
			for b.Loop() {
				r = r*6364136223846793005 + 1442695040888963407
				sink += s[3].pick(r)
			}
			_ = sink
		})
	}
}

// topoTestRoot is where the recorded sysfs trees live: in package
// topology's testdata (see its README).
func topoTestRoot(name string) string {
	return filepath.Join("..", "topology", "testdata", "sysfs", name)
}

// spreadCPUs returns the CPUs of n workers placed as a pool places them:
// the k-th on the k-th CPU of t's spread order, wrapping around.
func spreadCPUs(t *topology.Machine, n int) []int {
	order := t.Spread()
	cpus := make([]int, n)
	for k := range cpus {
		cpus[k] = order[k%len(order)]
	}
	return cpus
}
