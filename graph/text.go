package graph

// Text parsing shared by the readers: text is cut into pieces at white
// space or line ends, and the pieces are parsed in parallel.

// textChunk is the size of the pieces a text is cut into for parsing.
const textChunk = 1 << 20

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
