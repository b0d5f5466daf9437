package sortpar

import (
	"cmp"
	"encoding/binary"
	"math"
	"unsafe"
)

// Key words: SortByKey sorts on unsigned 64-bit words computed from the
// keys, which order the same way as cmp.Compare orders the keys. A number
// is one word (depth 0); a string is a sequence of words, one per seven
// bytes (depth d covers the bytes [7d, 7d+7)).
//
//   - Unsigned integers: the value, zero-extended.
//   - Signed integers: the value's bits with the sign bit flipped, so that
//     negative values come first, zero-extended.
//   - Floats: every NaN is 0, below everything else (cmp.Compare puts NaNs
//     first and calls them equal); -0 becomes +0 (cmp.Compare calls them
//     equal); other values take the IEEE-754 order-preserving map (negative:
//     every bit flipped, positive: the sign bit set), whose smallest value,
//     -Inf's, is above 0. float32 keys are mapped in 32 bits.
//   - Strings: the seven bytes of the chunk, zero-padded, in the top seven
//     bytes, big-endian, and in the low byte how many bytes of the string are
//     left from the chunk on, capped at 8. Two strings whose earlier words
//     are equal compare as their words do: the padded bytes decide, and if
//     they tie, the shorter remainder (a prefix of the other) comes first.
//     A word whose low byte is below 8 ends its string, so equal words of
//     that kind mean equal strings; a low byte of 8 means more words follow.
//
// A word never depends on anything but the key, so an inconsistent key
// function can only make the order wrong, never a word out of range.

// keyWords maps the keys of type K to words.
type keyWords[K cmp.Ordered] struct {
	kind keyKind // keyUnsigned, keySigned, keyFloat or keyNone (strings)
	size uintptr // unsafe.Sizeof(K)
}

func newKeyWords[K cmp.Ordered]() keyWords[K] {
	var k K
	return keyWords[K]{kind: kindOf[K](), size: unsafe.Sizeof(k)}
}

// strings reports whether the keys are strings (several words per key).
func (kw keyWords[K]) strings() bool { return kw.kind == keyNone }

// word returns word d of key k (d is 0 for numbers).
func (kw keyWords[K]) word(k K, d int) uint64 {
	p := unsafe.Pointer(&k)
	switch kw.kind {
	case keyUnsigned:
		switch kw.size {
		case 1:
			return uint64(*(*uint8)(p))
		case 2:
			return uint64(*(*uint16)(p))
		case 4:
			return uint64(*(*uint32)(p))
		}
		return *(*uint64)(p)
	case keySigned:
		switch kw.size {
		case 1:
			return uint64(*(*uint8)(p) ^ 1<<7)
		case 2:
			return uint64(*(*uint16)(p) ^ 1<<15)
		case 4:
			return uint64(*(*uint32)(p) ^ 1<<31)
		}
		return *(*uint64)(p) ^ 1<<63
	case keyFloat:
		if kw.size == 4 {
			return uint64(float32Word(*(*float32)(p)))
		}
		return float64Word(*(*float64)(p))
	}
	return stringWord(*(*string)(p), d)
}

// float64Word is the word of a float64 key.
func float64Word(f float64) uint64 {
	if f != f {
		return 0 // NaN
	}
	if f == 0 {
		return 1 << 63 // -0 and +0
	}
	b := math.Float64bits(f)
	if b>>63 != 0 {
		return ^b
	}
	return b | 1<<63
}

// float32Word is the word of a float32 key, in 32 bits.
func float32Word(f float32) uint32 {
	if f != f {
		return 0
	}
	if f == 0 {
		return 1 << 31
	}
	b := math.Float32bits(f)
	if b>>31 != 0 {
		return ^b
	}
	return b | 1<<31
}

// stringWord is word d of a string key.
func stringWord(s string, d int) uint64 {
	o := 7 * d
	if o >= len(s) {
		return 0 // the string ended in an earlier word (only for an inconsistent key)
	}
	rest := s[o:]
	if len(rest) >= 8 {
		return binary.BigEndian.Uint64([]byte(rest[:8]))&^0xff | 8
	}
	var w uint64
	for i := range len(rest) {
		w |= uint64(rest[i]) << (56 - 8*uint(i))
	}
	return w | uint64(len(rest))
}

// endsWord reports whether a string key's word w is its last.
func endsWord(w uint64) bool { return w&0xff < 8 }

// stringOf returns k as a string if the keys are strings, or "".
func (kw keyWords[K]) stringOf(k K) string {
	if kw.kind != keyNone {
		return ""
	}
	return *(*string)(unsafe.Pointer(&k))
}
