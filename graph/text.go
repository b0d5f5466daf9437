package graph

import (
	"bytes"
	"io"
	"os"
)

// Text parsing shared by the readers: the input is read whole, cut into
// chunks at whitespace, and the chunks are parsed in parallel.

// textChunk is the size of the pieces a text is cut into for parsing.
const textChunk = 1 << 20

// readAll reads r to the end, in one allocation when r is a file.
func readAll(r io.Reader) ([]byte, error) {
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			if pos, err := f.Seek(0, io.SeekCurrent); err == nil && st.Size() >= pos {
				buf := bytes.NewBuffer(make([]byte, 0, st.Size()-pos+1))
				_, err := buf.ReadFrom(f)
				return buf.Bytes(), err
			}
		}
	}
	return io.ReadAll(r)
}

// chunkBounds cuts text into pieces of about textChunk bytes, each ending
// just after a byte for which isCut is true (or at the end): bounds[i] and
// bounds[i+1] delimit piece i, so no token (or line) spans two pieces.
func chunkBounds(text []byte, isCut func(byte) bool) []int {
	bounds := []int{0}
	for at := textChunk; at < len(text); at += textChunk {
		if at <= bounds[len(bounds)-1] {
			continue
		}
		for at < len(text) && !isCut(text[at]) {
			at++
		}
		if at < len(text) {
			bounds = append(bounds, at+1)
		}
	}
	if len(text) > 0 {
		bounds = append(bounds, len(text))
	}
	return bounds
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

func isNewline(c byte) bool { return c == '\n' }

// lineAt returns the 1-based line number of byte offset at of text.
func lineAt(text []byte, at int) int {
	return 1 + bytes.Count(text[:at], []byte{'\n'})
}

// token returns the token (up to the next space) at text[at:], for errors;
// it is cut short if long.
func token(text []byte, at int) string {
	end := at
	for end < len(text) && !isSpace(text[end]) && end-at < 32 {
		end++
	}
	return string(text[at:end])
}

// parseUint parses the decimal digits at text[at:] up to a space or the
// end, returning the value, the offset after it and ok; ok is false if a
// byte is not a digit, there are no digits, or the value exceeds max.
func parseUint(text []byte, at int, max uint64) (v uint64, end int, ok bool) {
	end = at
	for end < len(text) {
		c := text[end]
		if c-'0' > 9 {
			if isSpace(c) {
				break
			}
			return 0, end, false
		}
		v = v*10 + uint64(c-'0')
		if v > max {
			return 0, end, false
		}
		end++
	}
	return v, end, end > at
}
