package percentiles

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
)

// BlockRecords is the number of records in one generated block (the last
// block of a run may be shorter): the unit of work of the Generate and Parse
// stages, about 2.5 MB of text.
const BlockRecords = 1 << 16

// Config describes one run of the pipeline: the records to generate and the
// DoFns to use. The zero value is not valid; Default gives the figures of the
// README.
type Config struct {
	Records  int64   // request records in all, at least 0
	Services int     // distinct services, the grouping keys: 1 to 10000
	Skew     float64 // exponent s > 1 of the Zipf law services are drawn from
	Seed     uint64  // seed of every block's random stream
	Sources  int     // independent source branches the blocks are split among, at least 1
	Serial   bool    // DoFns without gofork: the baseline
	Corrupt  int64   // if in 1..Records, that record (counted from 1) is written malformed
}

// Default is the configuration of the README's runs: ten million records
// over a hundred services, the busiest of which gets about a quarter of them.
func Default() Config {
	return Config{Records: 10_000_000, Services: 100, Skew: 1.1, Seed: 1, Sources: 1}
}

// validate panics, naming the bad field and value, if c cannot be run.
func (c Config) validate() {
	switch {
	case c.Records < 0:
		panic(fmt.Sprintf("percentiles: Config.Records is %d, want at least 0", c.Records))
	case c.Services < 1 || c.Services > 10000:
		panic(fmt.Sprintf("percentiles: Config.Services is %d, want 1 to 10000", c.Services))
	case !(c.Skew > 1) || math.IsInf(c.Skew, 0):
		panic(fmt.Sprintf("percentiles: Config.Skew is %v, want a finite number above 1", c.Skew))
	case c.Sources < 1:
		panic(fmt.Sprintf("percentiles: Config.Sources is %d, want at least 1", c.Sources))
	}
}

// blocks returns the number of blocks the records are generated in.
func (c Config) blocks() int64 {
	return (c.Records + BlockRecords - 1) / BlockRecords
}

// sourceBlocks returns the blocks [lo, hi) that source k generates: the
// blocks are dealt out in contiguous runs, as even as integer division makes
// them.
func (c Config) sourceBlocks(k int) (lo, hi int64) {
	n, s := c.blocks(), int64(c.Sources)
	return n * int64(k) / s, n * int64(k+1) / s
}

// A request is one generated record before it is written as text.
type request struct {
	service int
	post    bool  // method POST (else GET)
	item    int   // the path's item number
	status  int   // HTTP status
	micros  int64 // latency in microseconds
}

// serviceName is the text of service i in the records and the grouping key:
// "svc-" and i in at least three digits.
func serviceName(i int) string {
	return string(appendServiceName(nil, i))
}

// appendServiceName appends serviceName(i) to dst.
func appendServiceName(dst []byte, i int) []byte {
	dst = append(dst, "svc-"...)
	if i < 100 {
		dst = append(dst, '0')
	}
	if i < 10 {
		dst = append(dst, '0')
	}
	return strconv.AppendInt(dst, int64(i), 10)
}

// forEachRequest calls fn for every record of block b, in order. The records
// are a pure function of (c.Seed, b, c.Services, c.Skew): a PCG stream seeded
// with the block's number draws each record's service from a Zipf law (P(k)
// proportional to (k+1)^-Skew, through an alias table) and its latency from a
// log-normal law scaled per service, with one request in 1024 slowed 10 to 50
// times (the tail p99.9 sees).
func (c Config) forEachRequest(b int64, fn func(r request)) {
	lo := b * BlockRecords
	hi := min(lo+BlockRecords, c.Records)
	rng := rand.New(rand.NewPCG(c.Seed, uint64(b)))
	services := newAlias(zipfWeights(c.Services, c.Skew))
	for range hi - lo {
		svc := services.draw(rng.Uint64())
		base := 800 + 40*float64(svc%50) // µs: services differ in speed
		micros := int64(base * math.Exp(0.6*rng.NormFloat64()))
		// The other fields, from disjoint bits of one draw: item 0-31,
		// slowdown 32-39, status 40-51, method 52-53, slow or not 54-63.
		u := rng.Uint64()
		if u>>54 == 0 { // one in 1024
			micros *= int64(10 + (u>>32)&0xff%41)
		}
		status := 200
		if (u>>40)&0xfff%100 == 0 {
			status = 500
		}
		fn(request{
			service: svc,
			post:    (u>>52)&3 == 0,
			item:    int(uint32(u) % 100_000),
			status:  status,
			micros:  micros,
		})
	}
}

// zipfWeights returns the weights (k+1)^-s of k = 0..n-1.
func zipfWeights(n int, s float64) []float64 {
	w := make([]float64, n)
	for k := range w {
		w[k] = math.Pow(float64(k+1), -s)
	}
	return w
}

// An alias is Walker's alias table for drawing from a discrete law in
// constant time: slot i (chosen uniformly) yields i with probability
// keep[i]/2^32, else other[i].
type alias struct {
	keep  []uint32
	other []int
}

// newAlias builds the alias table of the law proportional to weights
// (Vose's method: slots below the mean are topped up from slots above it).
func newAlias(weights []float64) alias {
	n := len(weights)
	var total float64
	for _, w := range weights {
		total += w
	}
	scaled := make([]float64, n) // weight × n / total: mean 1
	var small, large []int
	for i, w := range weights {
		scaled[i] = w * float64(n) / total
		if scaled[i] < 1 {
			small = append(small, i)
		} else {
			large = append(large, i)
		}
	}
	a := alias{keep: make([]uint32, n), other: make([]int, n)}
	for len(small) > 0 && len(large) > 0 {
		s, l := small[len(small)-1], large[len(large)-1]
		small = small[:len(small)-1]
		a.keep[s] = uint32(scaled[s] * (1 << 32))
		a.other[s] = l
		scaled[l] -= 1 - scaled[s]
		if scaled[l] < 1 {
			large = large[:len(large)-1]
			small = append(small, l)
		}
	}
	// What is left is 1 up to rounding: kept whole.
	for _, i := range append(small, large...) {
		a.keep[i] = math.MaxUint32
		a.other[i] = i
	}
	return a
}

// draw maps 64 random bits to a value of the law: the high half picks the
// slot, the low half decides between it and its alias.
func (a alias) draw(u uint64) int {
	i := int((u >> 32) * uint64(len(a.keep)) >> 32)
	if uint32(u) < a.keep[i] {
		return i
	}
	return a.other[i]
}

// appendRecord appends r as one line of text, ending in '\n':
//
//	svc-007 GET /v1/items/4242 200 1834us
func appendRecord(dst []byte, r request) []byte {
	dst = appendServiceName(dst, r.service)
	if r.post {
		dst = append(dst, " POST /v1/items/"...)
	} else {
		dst = append(dst, " GET /v1/items/"...)
	}
	dst = strconv.AppendInt(dst, int64(r.item), 10)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(r.status), 10)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, r.micros, 10)
	return append(dst, "us\n"...)
}

// corruptLatency is the latency field of record c.Corrupt: not a number.
const corruptLatency = "??us"

// block returns the text of block b: its records, one per line.
func (c Config) block(b int64) []byte {
	buf := make([]byte, 0, BlockRecords*40)
	i := b * BlockRecords // 0-based number of the next record
	c.forEachRequest(b, func(r request) {
		i++
		if i == c.Corrupt {
			buf = appendServiceName(buf, r.service)
			buf = fmt.Appendf(buf, " GET /v1/items/%d %d %s\n", r.item, r.status, corruptLatency)
			return
		}
		buf = appendRecord(buf, r)
	})
	return buf
}
