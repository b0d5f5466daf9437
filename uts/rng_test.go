package uts

import (
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"testing"
)

// The test vectors of the spec (section 1), checked there against the C
// code and Python's hashlib. path is the child indices from the root.
var rngVectors = []struct {
	seed  uint32
	path  []uint32
	state string
	rand  uint32
	prob  float64 // 0: not given
}{
	{0, nil, "6768033e216468247bd031a0a2d9876d79818f8f", 2038534031, 0.94926638109609485},
	{0, []uint32{0}, "f6b4e21a6db7135e161960a04c6bd6cab35bd8d3", 861657299, 0.40124044707044959},
	{0, []uint32{1}, "5f9ce39723964a09decdaecdd937b9f50107e514", 17294612, 0.0080534312874078751},
	{0, []uint32{2}, "9ff8d06730b57af8b9a7cc2df7f6519809802dcc", 159395276, 0.074224209412932396},
	{0, []uint32{0, 1}, "c4d5f2e9dd63d0a470fcbd829a8ba69d0b780c2d", 192416813, 0},
	{19, nil, "c6988ab70cc9559ae4d6cba254e29a845a85f86b", 1518729323, 0.70721345162019134},
	{19, []uint32{0}, "2fb3131030280c1617a81d6a49c1e29effb19645", 2142344773, 0},
	{19, []uint32{1}, "4a8304c7c88f903ac06b01b07c7b2590e9397b5b", 1765374811, 0},
	{19, []uint32{2}, "0f440b68d030929503be64d09655d21a7dfd8365", 2113766245, 0},
	{19, []uint32{0, 1}, "d72c1425aafba0e93de435027762652c780afcff", 2013986047, 0},
	{42, nil, "a11dabbcec7aab309c890ab3dbc256eaeb582782", 1800939394, 0.83862775657325983},
	{42, []uint32{0}, "7407806c9e18f6e1d4d944809de9c0c94b892757", 1267279703, 0},
	{42, []uint32{1}, "c77bf3c481adf653ab30ed7cd2064af420d42274", 550773364, 0},
	{42, []uint32{2}, "3faa461e7b75349e0e7c8579568cce8ec8fffee5", 1224736485, 0},
	{42, []uint32{0, 1}, "41c2d844cde10102fd599d271c2e1cc1e0590d1d", 1616448797, 0},
	{29, nil, "16598509542aefc5664b573a1f1c17706e38f4b1", 1849226417, 0},
	{316, nil, "58eaa4bda003330e7f8c5c972464f40124a9769f", 615085727, 0},
}

// spawnKernels are the SHA-1 spawn implementations to check: the
// dispatching one (SHA extensions where the CPU has them) and the Go one.
var spawnKernels = []struct {
	name string
	f    func(*state, uint32) state
}{
	{"spawn", func(p *state, i uint32) (c state) { spawn(p, i, &c); return c }},
	{"generic", spawnGeneric},
}

func TestRNGVectors(t *testing.T) {
	t.Logf("SHA extensions in use: %v", hasSHANI)
	for _, k := range spawnKernels {
		for _, v := range rngVectors {
			s := rootState(v.seed)
			for _, i := range v.path {
				s = k.f(&s, i)
			}
			b := s.bytes()
			if got := hex.EncodeToString(b[:]); got != v.state {
				t.Errorf("%s: seed %d path %v: state %s, want %s", k.name, v.seed, v.path, got, v.state)
			}
			if got := s.rand(); got != v.rand {
				t.Errorf("%s: seed %d path %v: rand %d, want %d", k.name, v.seed, v.path, got, v.rand)
			}
			if v.prob != 0 {
				if got := toProb(s.rand()); got != v.prob {
					t.Errorf("%s: seed %d path %v: toProb %.17g, want %.17g", k.name, v.seed, v.path, got, v.prob)
				}
			}
		}
	}
}

// refSpawn is the spawn of the spec, on bytes, with crypto/sha1.
func refSpawn(parent [20]byte, i uint32) [20]byte {
	var msg [24]byte
	copy(msg[:], parent[:])
	binary.BigEndian.PutUint32(msg[20:], i)
	return sha1.Sum(msg[:])
}

// refRoot is rng_init of the spec, with crypto/sha1.
func refRoot(seed uint32) [20]byte {
	var msg [20]byte
	binary.BigEndian.PutUint32(msg[16:], seed)
	return sha1.Sum(msg[:])
}

func TestSpawnMatchesCryptoSHA1(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for j := range n {
		var s state
		for w := range s {
			s[w] = rng.Uint32()
		}
		i := rng.Uint32()
		switch j % 4 { // indices as the trees use them, and extremes
		case 0:
			i %= 100
		case 1:
			i = ^uint32(0) - i%3
		}
		want := refSpawn(s.bytes(), i)
		for _, k := range spawnKernels {
			c := k.f(&s, i)
			if got := c.bytes(); got != want {
				t.Fatalf("%s(%x, %d) = %x, want %x", k.name, s.bytes(), i, got, want)
			}
		}
	}
	for _, seed := range []uint32{0, 1, 19, 1<<31 - 1, rng.Uint32() >> 1} {
		s := rootState(seed)
		if got, want := s.bytes(), refRoot(seed); got != want {
			t.Errorf("rootState(%d) = %x, want %x", seed, got, want)
		}
	}
}

func TestToProb(t *testing.T) {
	for _, c := range []struct {
		n    uint32
		want float64
	}{
		{0, 0},
		{1 << 30, 0.5},
		{1<<31 - 1, 1 - 1.0/(1<<31)},
	} {
		if got := toProb(c.n); got != c.want {
			t.Errorf("toProb(%d) = %v, want %v", c.n, got, c.want)
		}
	}
	s := state{4: 0xffffffff}
	if got := s.rand(); got != 0x7fffffff {
		t.Errorf("rand clears bit 31: got %#x", got)
	}
}

func BenchmarkSpawn(b *testing.B) {
	for _, k := range spawnKernels {
		b.Run(k.name, func(b *testing.B) {
			var s state
			for i := 0; b.Loop(); i++ {
				s = k.f(&s, uint32(i))
			}
			if s == (state{}) {
				b.Fatal("zero state")
			}
		})
	}
}
