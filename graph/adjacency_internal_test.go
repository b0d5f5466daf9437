package graph

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestLineNumber8 checks the word-at-a-time parse against strconv on
// numbers of every length it takes, and that it declines every other word:
// 8 digits, a leading non-digit, and any terminator but a newline.
func TestLineNumber8(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for digits := 1; digits <= 8; digits++ {
		for range 2000 {
			s := strconv.FormatUint(rng.Uint64N(100000000), 10)
			for len(s) < digits {
				s = "0" + s
			}
			s = s[len(s)-digits:]
			for _, term := range []byte{'\n', ' ', '\r', 'x', '5'} {
				w := []byte(s + string(term) + "12345678")[:8]
				v, size := lineNumber8(w)
				want, _ := strconv.ParseUint(s, 10, 64)
				if digits < 8 && term == '\n' {
					if v != want || size != digits+1 {
						t.Fatalf("lineNumber8(%q) = %d, %d; want %d, %d", w, v, size, want, digits+1)
					}
				} else if size != 0 {
					t.Fatalf("lineNumber8(%q) took %d bytes; want 0", w, size)
				}
			}
		}
	}
	for _, w := range []string{"\n1234567", " 1\n45678", "-1\n45678", "/\n345678", ":\n345678", "12:\n5678"} {
		if _, size := lineNumber8([]byte(w)); size != 0 {
			t.Errorf("lineNumber8(%q) took %d bytes; want 0", w, size)
		}
	}
}
