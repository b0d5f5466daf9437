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
// parse takes: about 6,700 records, a tenth of a block. Each task starts a
// piece of its own (a table of services, two slices), so finer tasks cost
// more than they balance: measured on two workers, a block parsed in tasks
// of 64 KiB took 1.2x as long as in tasks of 256 KiB.
const parseGrain = 256 << 10

// minRecordBytes is less than the length of almost every generated record
// (about 38 bytes): the parallel parse sizes a piece's slices by it.
const minRecordBytes = 32

// minPerService is how many records per service a block must have for the
// parallel parse to pay. Each of its tasks numbers the services it meets in a
// table of its own, so its cost grows with the services per task as well as
// with the records: measured on one worker, against parseSerial, it does 1.1x
// the work with 650 records per service in a block (100 services) and 1.8x
// with 10 (10,000 services), which two workers cannot win back.
const minPerService = 256

// parseFn is the Parse stage: a block of records in, one (service, Batch) per
// service present in the block out.
type parseFn struct {
	Serial bool // parse with parseSerial, on the bundle's goroutine alone

	// Records per service in the last block this instance parsed, which
	// decides how it parses the next (the first serially). Unexported, so
	// never serialized: each instance learns its own.
	perService int
}

// ProcessElement parses block and emits its latencies per service.
func (f *parseFn) ProcessElement(block []byte, emit func(string, Batch)) {
	var g *groups
	if f.Serial || f.perService < minPerService {
		g = parseSerial(block)
	} else {
		g = parseParallel(block, parseGrain)
	}
	records := 0
	for i, name := range g.names {
		records += len(g.micros[i])
		emit(name, Batch{Micros: g.micros[i]})
	}
	f.perService = records / max(len(g.names), 1)
}

// groups are latencies gathered per service: names[i]'s latencies are
// micros[i], in record order, and index maps each name to its i.
type groups struct {
	index  map[string]int
	names  []string
	micros [][]int64
}

// id returns the index of service name in g, adding it (with no latencies)
// if it is new. name is copied only then, so a lookup with the bytes of a
// record allocates nothing.
func (g *groups) id(name []byte) int {
	i, ok := g.index[string(name)]
	if !ok {
		i = len(g.names)
		s := string(name)
		g.index[s] = i
		g.names = append(g.names, s)
		g.micros = append(g.micros, nil)
	}
	return i
}

// parseSerial is the serial parse: one pass over the records, appending each
// latency to its service's slice.
func parseSerial(block []byte) *groups {
	g := &groups{index: make(map[string]int)}
	for start := 0; start < len(block); {
		rec, next := record(block, start)
		name, micros := parseRecord(rec)
		i := g.id(name)
		g.micros[i] = append(g.micros[i], micros)
		start = next
	}
	return g
}

// A piece is the parse of a run of a block's records by one task: each
// record's service, as an index into the piece's own names, and latency, in
// record order; count[i] is how many records have service i.
type piece struct {
	services groups // names and index only: micros stays nil
	svc      []int32
	micros   []int64
	count    []int
}

// parseParallel is the parallel parse: a bucketing (a counting sort by
// service) in two fork-join phases on the default pool.
//
//   - reduce.Reduce cuts the block's bytes into runs of at least grain
//     bytes; each task parses its runs into a piece, and the join only lists
//     the pieces in block order.
//   - Serially, the pieces' services are numbered in one table, each service's
//     slice is allocated at its exact length, and each piece is given, per
//     service, the place where its records go: after the records of the same
//     service in the pieces before it.
//   - par.For copies each piece's latencies to those places.
//
// Work: the serial parse's, plus one copy of the latencies; no slice grows.
// The serial phase is proportional to pieces × services, not to records.
func parseParallel(block []byte, grain int) *groups {
	pieces := reduce.Reduce(0, len(block), nil, func(lo, hi int, acc []*piece) []*piece {
		if len(acc) == 0 {
			n := (hi - lo) / minRecordBytes // records in the run, at most
			acc = append(acc, &piece{
				services: groups{index: make(map[string]int)},
				svc:      make([]int32, 0, n),
				micros:   make([]int64, 0, n),
			})
		}
		acc[len(acc)-1].parse(block, lo, hi) // acc's last piece ended at lo
		return acc
	}, func(x, y []*piece) []*piece { return append(x, y...) }, par.Grain(grain))

	g := &groups{index: make(map[string]int)}
	global := make([][]int32, len(pieces)) // global[p][i]: g's index of piece p's service i
	place := make([][]int, len(pieces))    // place[p][i]: where piece p's first record of service i goes
	var filled []int                       // filled[j]: g.micros[j]'s records placed so far
	for p, pc := range pieces {
		global[p] = make([]int32, len(pc.services.names))
		place[p] = make([]int, len(pc.services.names))
		for i, name := range pc.services.names {
			j := g.id([]byte(name))
			if j == len(filled) {
				filled = append(filled, 0)
			}
			global[p][i], place[p][i] = int32(j), filled[j]
			filled[j] += pc.count[i]
		}
	}
	for j, n := range filled {
		g.micros[j] = make([]int64, n)
	}
	par.For(0, len(pieces), func(p int) {
		pc, at := pieces[p], place[p]
		for r, i := range pc.svc {
			g.micros[global[p][i]][at[i]] = pc.micros[r]
			at[i]++
		}
	})
	return g
}

// parse appends the records of block that start in block[lo:hi] to pc.
func (pc *piece) parse(block []byte, lo, hi int) {
	for start := recordStart(block, lo); start < hi; {
		rec, next := record(block, start)
		name, micros := parseRecord(rec)
		i := pc.services.id(name)
		if i == len(pc.count) {
			pc.count = append(pc.count, 0)
		}
		pc.count[i]++
		pc.svc = append(pc.svc, int32(i))
		pc.micros = append(pc.micros, micros)
		start = next
	}
}

// recordStart returns where the first record of block that starts at or after
// lo starts (len(block) if none does). A record starts at 0 or right after a
// '\n', so the runs of a partition of the block's bytes parse each record
// exactly once, whatever the cuts; a record may end past the end of its run.
func recordStart(block []byte, lo int) int {
	if lo == 0 || block[lo-1] == '\n' {
		return lo
	}
	nl := bytes.IndexByte(block[lo:], '\n')
	if nl < 0 {
		return len(block)
	}
	return lo + nl + 1
}

// record returns the record that starts at start, without its '\n', and
// where the next one starts.
func record(block []byte, start int) (rec []byte, next int) {
	nl := bytes.IndexByte(block[start:], '\n')
	if nl < 0 {
		return block[start:], len(block)
	}
	return block[start : start+nl], start + nl + 1
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
