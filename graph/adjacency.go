package graph

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"

	"github.com/gofork/gofork/core"
	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
)

// adjacencyHeader is the first token of the PBBS/Ligra adjacency format.
const adjacencyHeader = "AdjacencyGraph"

// adjacencyWindow is how much of the input ReadAdjacency holds at a time.
// The window is reused, so the text costs no fresh memory per megabyte
// read: only the graph does.
const adjacencyWindow = 16 << 20

// ReadAdjacency reads a graph in the AdjacencyGraph text format of PBBS and
// Ligra: the word AdjacencyGraph, the number of vertices n, the number of
// edges m, then n offsets (the first 0, non-decreasing, at most m) and m
// target ids in [0, n), all separated by white space (one per line, as the
// tools write them). Vertex v's out-neighbours are the targets from its
// offset to the next one (or m). Rows are sorted, duplicates and
// self-loops dropped, and the graph checked for symmetry.
//
// The input is read in windows of 16 MiB, each cut at white space into
// pieces of about a megabyte that are parsed in two parallel passes: one
// counts each piece's numbers, and after a prefix sum of the counts the
// other parses each piece's numbers straight into place, checking them. An
// error names the line: of the first malformed number, offset out of order
// or target out of range. It runs on the pool of the calling task, or
// core.Default().
func ReadAdjacency(r io.Reader) (*Graph, error) {
	pool := poolOf("graph.ReadAdjacency", nil)
	return core.RunValue(pool, func(*core.Worker) adjacencyResult {
		a := &adjacencyReader{r: r, pool: pool, opt: par.WithPool(pool), window: adjacencyWindow}
		g, err := a.read()
		return adjacencyResult{g, err}
	}).unpack()
}

type adjacencyResult struct {
	g   *Graph
	err error
}

func (r adjacencyResult) unpack() (*Graph, error) { return r.g, r.err }

// adjacencyReader is the state of one ReadAdjacency.
type adjacencyReader struct {
	r      io.Reader
	window int // the size of the window; tests make it small
	pool   *core.Pool
	opt    par.Option
	n, m   int
	g      *Graph
	// placed is the count of numbers after the header parsed so far.
	placed int
	// lines is the count of newlines before the window's text.
	lines int
}

// numberError is a bad number found in a piece.
type numberError struct {
	at  int    // offset in the window's text; -1: none
	msg string // what is wrong with it
	// notOneLine: the piece was parsed as one number per line, and it is
	// not laid out so (nothing is wrong with it otherwise, as far as read).
	notOneLine bool
}

func (a *adjacencyReader) errorAt(text []byte, at int, format string, args ...any) error {
	line := a.lines + 1 + bytes.Count(text[:at], []byte{'\n'})
	return fmt.Errorf("graph: ReadAdjacency: line %d: %s", line, fmt.Sprintf(format, args...))
}

func (a *adjacencyReader) read() (*Graph, error) {
	buf := make([]byte, a.window)
	carry := 0 // buf[:carry]: the start of a number cut by the last window
	first := true
	for eof := false; !eof; {
		k, err := io.ReadFull(a.r, buf[carry:])
		switch err {
		case nil:
		case io.EOF, io.ErrUnexpectedEOF:
			eof = true
		default:
			return nil, fmt.Errorf("graph: ReadAdjacency: %w", err)
		}
		text := buf[:carry+k]
		cut := len(text)
		if !eof {
			cut = lastSpace(text) + 1
			if cut == 0 {
				return nil, a.errorAt(text, 0, "a token of %d bytes or more", len(text))
			}
		}
		window := text[:cut]
		from := 0
		if first {
			first = false
			if from, err = a.header(window, eof); err != nil {
				return nil, err
			}
		}
		if err := a.parseWindow(window, from); err != nil {
			return nil, err
		}
		a.lines += bytes.Count(window, []byte{'\n'})
		carry = copy(buf, text[cut:])
	}
	if a.g == nil { // the input ended within the header
		return nil, a.errorAt(nil, 0, "missing the header")
	}
	if a.placed != a.n+a.m {
		return nil, fmt.Errorf("graph: ReadAdjacency: line %d: found %d numbers after the header, want n+m = %d", a.lines+1, a.placed, a.n+a.m)
	}
	g := a.g
	normalizeRows(g, a.pool)
	g.symmetric = isSymmetric(g, a.pool)
	return g, nil
}

// header parses the word, n and m at the start of the first window and
// allocates the graph; it returns the offset after m.
func (a *adjacencyReader) header(text []byte, eof bool) (int, error) {
	at := skipSpace(text, 0)
	if tok := token(text, at); tok != adjacencyHeader {
		return 0, a.errorAt(text, at, "want %s, found %q", adjacencyHeader, tok)
	}
	at = skipSpace(text, at+len(adjacencyHeader))
	if at == len(text) {
		return 0, a.errorAt(text, at, "missing the number of vertices")
	}
	n, end, ok := parseUint(text, at, maxVertices)
	if !ok {
		return 0, a.errorAt(text, at, "number of vertices %q: want an integer from 0 to %d", token(text, at), maxVertices)
	}
	at = skipSpace(text, end)
	if at == len(text) {
		return 0, a.errorAt(text, at, "missing the number of edges")
	}
	m, end, ok := parseUint(text, at, math.MaxInt64)
	if !ok {
		return 0, a.errorAt(text, at, "number of edges %q: want a non-negative integer", token(text, at))
	}
	if m > uint64(math.MaxInt/8)-n { // the graph needs 4 bytes per edge and 8 per vertex
		return 0, a.errorAt(text, at, "%d edges do not fit in memory", m)
	}
	if n == 0 && m > 0 {
		return 0, a.errorAt(text, at, "%d edges on no vertices", m)
	}
	a.n, a.m = int(n), int(m)
	a.g = &Graph{offsets: make([]int64, n+1), edges: make([]int32, m)}
	a.g.offsets[n] = int64(m)
	if end < len(text) && text[end] == '\n' {
		end++ // the header's own newline, so that the body starts with a number
	}
	return end, nil
}

// parseWindow parses the numbers of text[from:] into place.
func (a *adjacencyReader) parseWindow(text []byte, from int) error {
	bounds := chunkBounds(text[from:], isSpace)
	pieces := max(len(bounds)-1, 0)
	for i := range bounds {
		bounds[i] += from
	}
	// Pass 1: count each piece's numbers. Files as the tools write them
	// hold one number per line, and then the count is the count of
	// newlines, which bytes.Count finds many bytes at a time; pass 2
	// checks that layout as it parses, and a window that breaks it is
	// counted again token by token and parsed again.
	counts := make([]int, pieces+1)
	for _, oneLine := range []bool{true, false} {
		par.For(0, pieces, func(i int) {
			piece := text[bounds[i]:bounds[i+1]]
			if oneLine {
				counts[i] = bytes.Count(piece, []byte{'\n'})
				if len(piece) > 0 && spaceTable[piece[len(piece)-1]] == 0 {
					counts[i]++ // the input's last number, with no newline after it
				}
			} else {
				counts[i] = countTokens(piece)
			}
		}, a.opt)
		total := reduce.PrefixSum(counts[:pieces], counts[:pieces], a.opt)
		counts[pieces] = total
		if want := a.n + a.m; a.placed+total > want {
			if oneLine {
				continue
			}
			at := numberAt(text, bounds, counts, want-a.placed)
			return a.errorAt(text, at, "more than n+m = %d numbers after the header", want)
		}
		// Pass 2: parse into place. Number k (from the header on) is
		// offset k for k < n, else the target k-n.
		bad := make([]numberError, pieces)
		par.For(0, pieces, func(i int) {
			bad[i] = a.parsePiece(text, bounds[i], bounds[i+1], a.placed+counts[i], oneLine)
		}, a.opt)
		if oneLine && slices.ContainsFunc(bad, func(e numberError) bool { return e.notOneLine }) {
			continue
		}
		for _, e := range bad {
			if e.at >= 0 {
				return a.errorAt(text, e.at, "%s", e.msg)
			}
		}
		break
	}
	// Offsets in order across pieces: the first offset of each piece
	// against the last one before it (each piece checked its own).
	for i := 0; i < pieces; i++ {
		k := a.placed + counts[i]
		if counts[i] == counts[i+1] || k == 0 || k >= a.n {
			continue
		}
		if o := a.g.offsets; o[k-1] > o[k] {
			at := skipSpace(text, bounds[i])
			return a.errorAt(text, at, "offset of vertex %d is %d, below vertex %d's %d", k, o[k], k-1, o[k-1])
		}
	}
	a.placed += counts[pieces]
	return nil
}

// parsePiece parses the numbers of text[lo:hi], number k0 first, into the
// graph, and returns the first bad one. With oneLine, k0 was found by
// counting newlines, so it also checks that every number is followed by
// exactly one newline and that nothing else is white space.
func (a *adjacencyReader) parsePiece(text []byte, lo, hi, k0 int, oneLine bool) numberError {
	n, m := a.n, a.m
	offsets, edges := a.g.offsets, a.g.edges
	text = text[:hi]
	k := k0
	for at := lo; at < hi; {
		start := at
		var v uint64
		got := false
		if oneLine && at+8 <= hi {
			// The common case: up to 7 digits and a newline, read in
			// one 8-byte word.
			if w, size := lineNumber8(text[at : at+8]); size > 0 {
				v, got = w, true
				at += size
			}
		}
		if !got {
			c := text[at]
			if c-'0' > 9 {
				if spaceTable[c] == 0 {
					return numberError{at: at, msg: fmt.Sprintf("%q is not a non-negative integer", token(text, at))}
				}
				if oneLine && (c != '\n' || at == lo || spaceTable[text[at-1]] != 0) {
					return numberError{at: -1, notOneLine: true}
				}
				at++
				continue
			}
			// A number: up to 18 digits cannot overflow; a longer one, or
			// one followed by a byte that is neither digit nor space, is
			// parsed again with checks.
			v = uint64(c - '0')
			for at++; at < hi && at-start < 18; at++ {
				d := text[at] - '0'
				if d > 9 {
					break
				}
				v = v*10 + uint64(d)
			}
			if at < hi && spaceTable[text[at]] == 0 {
				var ok bool
				if v, at, ok = parseUint(text, start, math.MaxInt64); !ok {
					return numberError{at: start, msg: fmt.Sprintf("%q is not a non-negative integer", token(text, start))}
				}
			}
		}
		if k < n {
			switch {
			case v > uint64(m):
				return numberError{at: start, msg: fmt.Sprintf("offset %q: want at most m = %d", token(text, start), m)}
			case k == 0 && v != 0:
				return numberError{at: start, msg: fmt.Sprintf("the first offset is %d, want 0", v)}
			case k > k0 && int64(v) < offsets[k-1]:
				return numberError{at: start, msg: fmt.Sprintf("offset of vertex %d is %d, below vertex %d's %d", k, v, k-1, offsets[k-1])}
			}
			offsets[k] = int64(v)
		} else {
			if v >= uint64(n) {
				return numberError{at: start, msg: fmt.Sprintf("target %q: want a vertex below n = %d", token(text, start), n)}
			}
			edges[k-n] = int32(v)
		}
		k++
	}
	return numberError{at: -1}
}

// lineNumber8 parses the 8 bytes of w as 1 to 7 decimal digits followed
// by a newline, and returns the number and the bytes it took, digits and
// newline; size is 0 when w does not start so. The digits are found and
// combined as one word: a byte is not a digit when it is below '0' (its
// difference from '0' wraps, setting the top bit) or above '9' (adding
// 0x76 to its difference sets the top bit); borrows and carries run only
// toward later bytes, past the first non-digit. The digits, moved to the
// top of the word, are then joined in pairs, fours and eights, a
// multiplication each.
func lineNumber8(w []byte) (v uint64, size int) {
	x := binary.LittleEndian.Uint64(w)
	d := x - 0x3030303030303030
	nonDigit := (d | (d + 0x7676767676767676)) & 0x8080808080808080
	digits := bits.TrailingZeros64(nonDigit) / 8
	if digits == 0 || digits == 8 || w[digits] != '\n' {
		return 0, 0
	}
	d <<= 8 * (8 - digits)                             // leading zeros in the low bytes
	d = (d * (1 + 10<<8)) >> 8 & 0x00FF00FF00FF00FF    // pairs of digits
	d = (d * (1 + 100<<16)) >> 16 & 0x0000FFFF0000FFFF // fours
	d = (d * (1 + 10000<<32)) >> 32                    // eight
	return d, digits + 1
}

// countTokens counts the maximal runs of bytes that are not white space,
// without branches: a run starts at each byte that is not space after one
// that is.
func countTokens(text []byte) int {
	c := 0
	prevSpace := 1
	for _, b := range text {
		sp := int(spaceTable[b])
		c += prevSpace &^ sp
		prevSpace = sp
	}
	return c
}

// spaceTable[b] is 1 for the white-space bytes of isSpace, else 0.
var spaceTable = [256]uint8{' ': 1, '\n': 1, '\t': 1, '\r': 1, '\v': 1, '\f': 1}

// lastSpace returns the offset of the last white-space byte of text, or -1.
func lastSpace(text []byte) int {
	for i := len(text) - 1; i >= 0; i-- {
		if isSpace(text[i]) {
			return i
		}
	}
	return -1
}

// skipSpace returns the offset of the first byte at or after at that is not
// white space, or len(text).
func skipSpace(text []byte, at int) int {
	for at < len(text) && isSpace(text[at]) {
		at++
	}
	return at
}

// numberAt returns the offset in text of the k-th number of the window
// (counting from 0), found from the pieces' counts (prefix sums) by a scan
// of its piece; for error messages.
func numberAt(text []byte, bounds, counts []int, k int) int {
	i := 0
	for i+1 < len(counts)-1 && counts[i+1] <= k {
		i++
	}
	c := counts[i]
	hi := bounds[i+1]
	for at := skipSpace(text[:hi], bounds[i]); at < hi; {
		if c == k {
			return at
		}
		for at < hi && !isSpace(text[at]) {
			at++
		}
		at = skipSpace(text[:hi], at)
		c++
	}
	return hi
}
