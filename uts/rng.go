package uts

import "math/bits"

// state is the splittable RNG state of one node: a SHA-1 digest held as its
// five big-endian words H0..H4. Written out as bytes (H0's most significant
// byte first) it is exactly the 20-byte state of the reference code.
//
// A child's state is SHA-1(parent's 20 bytes ‖ be32(child index)), computed
// by spawn (sha1spawn_*.go); that one hash per node is the whole cost of the
// benchmark, so it never touches bytes or the heap.
type state [5]uint32

// rootState returns the root's state for a seed: SHA-1 of 16 zero bytes
// followed by the seed as a big-endian 32-bit integer.
func rootState(seed uint32) state {
	// One 20-byte message: words 0..4, the padding bit, the bit length 160.
	return sha1Block([16]uint32{4: seed, 5: 0x80000000, 15: 160})
}

// sha1Block returns the SHA-1 digest of one already padded block, given as
// big-endian words. It is the plain loop form (FIPS 180-4, section 6.1.2),
// used once per search for the root.
func sha1Block(w [16]uint32) state {
	const (
		iv0, iv1, iv2, iv3, iv4 = 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0
	)
	a, b, c, d, e := uint32(iv0), uint32(iv1), uint32(iv2), uint32(iv3), uint32(iv4)
	for t := range 80 {
		if t >= 16 {
			x := w[(t-3)&15] ^ w[(t-8)&15] ^ w[(t-14)&15] ^ w[t&15]
			w[t&15] = bits.RotateLeft32(x, 1)
		}
		var f, k uint32
		switch {
		case t < 20:
			f, k = d^(b&(c^d)), 0x5a827999
		case t < 40:
			f, k = b^c^d, 0x6ed9eba1
		case t < 60:
			f, k = (b&c)|(d&(b|c)), 0x8f1bbcdc
		default:
			f, k = b^c^d, 0xca62c1d6
		}
		tmp := bits.RotateLeft32(a, 5) + f + e + w[t&15] + k
		a, b, c, d, e = tmp, a, bits.RotateLeft32(b, 30), c, d
	}
	return state{a + iv0, b + iv1, c + iv2, d + iv3, e + iv4}
}

// packed is a state as three words, H0 | H1<<32, H2 | H3<<32 and H4: the
// form the parallel search carries in its tasks (see task).
type packed struct {
	s01, s23 uint64
	s4       uint32
}

// pack reads *s word by word: each load lies within one of the stores that
// spawn wrote the state with (16 bytes, then 4), so it is forwarded from
// them; a by-value copy of a state uses a 16-byte load at offset 4, which
// straddles both and waits for them to retire.
func pack(s *state) packed {
	return packed{uint64(s[0]) | uint64(s[1])<<32, uint64(s[2]) | uint64(s[3])<<32, s[4]}
}

func (p packed) unpack() state {
	return state{uint32(p.s01), uint32(p.s01 >> 32), uint32(p.s23), uint32(p.s23 >> 32), p.s4}
}

// rand returns the node's random value: digest word H4 (state bytes 16..19,
// big-endian) with bit 31 cleared, so a value in [0, 2^31). It does not
// change the state; each node reads its own value at most once.
func (s *state) rand() uint32 { return s[4] & 0x7fffffff }

// toProb maps a value of rand to [0, 1): n / 2^31, exact in float64.
func toProb(n uint32) float64 { return float64(n) * (1.0 / 2147483648.0) }

// bytes returns the state in the reference byte order.
func (s *state) bytes() [20]byte {
	var b [20]byte
	for i, w := range s {
		b[4*i] = byte(w >> 24)
		b[4*i+1] = byte(w >> 16)
		b[4*i+2] = byte(w >> 8)
		b[4*i+3] = byte(w)
	}
	return b
}
