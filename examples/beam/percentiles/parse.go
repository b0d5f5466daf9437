package percentiles

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
)

// A Batch is the latencies, in microseconds, of one service's records in one
// block: what Parse emits per service and the GroupByKey gathers. Sending a
// batch per (block, service) instead of a value per record keeps the runner's
// per-element cost (encoding, shuffling, decoding) to a few thousand elements
// for ten million records.
type Batch struct {
	Micros []int64
}

// encodeBatch is Batch's Beam coder: the count, then each latency, as varints.
func encodeBatch(b Batch) []byte {
	buf := make([]byte, 0, binary.MaxVarintLen64+3*len(b.Micros))
	buf = binary.AppendUvarint(buf, uint64(len(b.Micros)))
	for _, v := range b.Micros {
		buf = binary.AppendVarint(buf, v)
	}
	return buf
}

// errBatch is returned by decodeBatch for bytes encodeBatch did not write.
var errBatch = errors.New("percentiles: truncated or corrupt Batch encoding")

// decodeBatch decodes what encodeBatch wrote.
func decodeBatch(buf []byte) (Batch, error) {
	n, k := binary.Uvarint(buf)
	if k <= 0 || n > uint64(len(buf)) { // each value takes at least a byte
		return Batch{}, errBatch
	}
	buf = buf[k:]
	micros := make([]int64, n)
	for i := range micros {
		v, k := binary.Varint(buf)
		if k <= 0 {
			return Batch{}, errBatch
		}
		micros[i], buf = v, buf[k:]
	}
	if len(buf) != 0 {
		return Batch{}, errBatch
	}
	return Batch{Micros: micros}, nil
}

// parseGrain is the least number of bytes of a block one task of the parallel
// parse takes: about 1,700 records, some 90 µs of parsing, well above what a
// fork costs.
const parseGrain = 64 << 10

// minPerGroup is how many records per service a task of the parallel parse
// should have at least. Each task gathers its records into groups of its own,
// one per service it meets, and the groups are merged afterwards: with fewer
// records per group than this the groups cost more than the parse (measured
// on 2 workers: 65 records per group parse a block 2x faster than a serial
// loop, 1.6 per group 1.1x slower).
const minPerGroup = 64

// parseFn is the Parse stage: a block of records in, one (service, Batch) per
// service present in the block out.
type parseFn struct {
	Serial bool // parse on the bundle's goroutine alone

	// What the last block this instance parsed showed, to size the tasks
	// of the next one's parse: bytes per record and distinct services.
	// Unexported, so never serialized: each instance learns its own.
	recordBytes, services int
}

// ProcessElement parses block and emits its latencies per service.
func (f *parseFn) ProcessElement(block []byte, emit func(string, Batch)) {
	grain := len(block) // a single task: the serial parse
	if !f.Serial {
		grain = max(parseGrain, minPerGroup*f.services*f.recordBytes)
	}
	g := parseBlock(block, grain)
	if g == nil {
		return
	}
	records := 0
	for i, name := range g.names {
		records += len(g.micros[i])
		emit(name, Batch{Micros: g.micros[i]})
	}
	f.recordBytes, f.services = len(block)/records, len(g.names)
}

// groups are latencies gathered per service: names[i]'s latencies are
// micros[i], in record order, and index maps each name to its i.
type groups struct {
	index  map[string]int
	names  []string
	micros [][]int64
}

// add appends micros to the latencies of service name (given as the bytes of
// a record, copied only when the service is new to g).
func (g *groups) add(name []byte, micros int64) {
	i, ok := g.index[string(name)]
	if !ok {
		i = len(g.names)
		s := string(name)
		g.index[s] = i
		g.names = append(g.names, s)
		g.micros = append(g.micros, nil)
	}
	g.micros[i] = append(g.micros[i], micros)
}

// joinGroups appends y's latencies to x's, service by service; y's records
// come after x's, so each service keeps record order. Either may be nil.
func joinGroups(x, y *groups) *groups {
	if x == nil {
		return y
	}
	if y == nil {
		return x
	}
	for j, name := range y.names {
		i, ok := x.index[name]
		if !ok {
			i = len(x.names)
			x.index[name] = i
			x.names = append(x.names, name)
			x.micros = append(x.micros, nil)
		}
		x.micros[i] = append(x.micros[i], y.micros[j]...)
	}
	return x
}

// parseBlock gathers the latencies of block's records per service and returns
// nil for an empty block. A block at least twice grain long is parsed as one
// reduce.Reduce over its bytes, on the default pool, by tasks of at least
// grain bytes; a shorter one serially, on the calling goroutine.
func parseBlock(block []byte, grain int) *groups {
	if len(block) < 2*grain {
		return parseRange(block, 0, len(block), nil)
	}
	return reduce.Reduce(0, len(block), nil,
		func(lo, hi int, acc *groups) *groups { return parseRange(block, lo, hi, acc) },
		joinGroups, par.Grain(grain))
}

// parseRange parses the records of block that start in block[lo:hi] into acc
// (a new groups if acc is nil) and returns it. A record starts at 0 or right
// after a '\n', so the ranges of a partition of the block parse each record
// exactly once, whatever the cuts; a record may end past hi.
func parseRange(block []byte, lo, hi int, acc *groups) *groups {
	start := lo
	if start > 0 && block[start-1] != '\n' {
		nl := bytes.IndexByte(block[start:], '\n')
		if nl < 0 {
			return acc
		}
		start += nl + 1
	}
	for start < hi {
		end := len(block)
		if nl := bytes.IndexByte(block[start:], '\n'); nl >= 0 {
			end = start + nl
		}
		name, micros := parseRecord(block[start:end])
		if acc == nil {
			acc = &groups{index: make(map[string]int)}
		}
		acc.add(name, micros)
		start = end + 1
	}
	return acc
}

// parseRecord returns the service (first field) and latency (last field, a
// decimal number of microseconds followed by "us") of one record, without
// its '\n'. It panics, quoting the record, if either is missing.
func parseRecord(rec []byte) (name []byte, micros int64) {
	sp := bytes.IndexByte(rec, ' ')
	last := bytes.LastIndexByte(rec, ' ')
	if sp <= 0 {
		panic(fmt.Sprintf("percentiles: malformed record %q: no service field", rec))
	}
	field := rec[last+1:]
	digits, ok := bytes.CutSuffix(field, []byte("us"))
	if !ok || len(digits) == 0 || len(digits) > 18 {
		panic(fmt.Sprintf("percentiles: malformed record %q: latency field %q is not <digits>us", rec, field))
	}
	for _, d := range digits {
		if d < '0' || d > '9' {
			panic(fmt.Sprintf("percentiles: malformed record %q: latency field %q is not <digits>us", rec, field))
		}
		micros = micros*10 + int64(d-'0')
	}
	return rec[:sp], micros
}
