package percentiles

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestParseParallelAnyCuts runs the parallel parse with grains down to one
// byte, so that cuts fall everywhere inside records, and checks that every
// record is gathered exactly once, in record order, as the generator drew it,
// and as the serial parse gathers it.
func TestParseParallelAnyCuts(t *testing.T) {
	cfg := testConfig(3 * BlockRecords / 2)
	cfg.Services = 37
	want := make(map[string][]int64)
	cfg.forEachRequest(1, func(r request) {
		want[serviceName(r.service)] = append(want[serviceName(r.service)], r.micros)
	})
	block := cfg.block(1)
	check := func(t *testing.T, g *groups) {
		t.Helper()
		if len(g.names) != len(want) {
			t.Fatalf("%d services, want %d", len(g.names), len(want))
		}
		for i, name := range g.names {
			if g.index[name] != i || !slices.Equal(g.micros[i], want[name]) {
				t.Fatalf("service %s: %d latencies (index %d), want %d in record order",
					name, len(g.micros[i]), g.index[name], len(want[name]))
			}
		}
	}
	t.Run("serial", func(t *testing.T) { check(t, parseSerial(block)) })
	for _, grain := range []int{1, 7, 100, 4096, parseGrain, len(block)} {
		t.Run(fmt.Sprintf("grain=%d", grain), func(t *testing.T) { check(t, parseParallel(block, grain)) })
	}
	if g := parseParallel(nil, parseGrain); len(g.names) != 0 {
		t.Fatalf("empty block: %d services", len(g.names))
	}
}

func TestParseRecordRejects(t *testing.T) {
	for _, rec := range []string{
		"", "svc-001", " GET / 200 12us", "svc-001 GET / 200 12", "svc-001 GET / 200 us",
		"svc-001 GET / 200 1x2us", "svc-001 GET / 200 -12us", "svc-001 GET / 200 1234567890123456789us",
		"svc-001 GET / 200 " + corruptLatency,
	} {
		func() {
			defer func() {
				msg, _ := recover().(string)
				if !strings.HasPrefix(msg, "percentiles: malformed record "+fmt.Sprintf("%q", rec)) {
					t.Errorf("parseRecord(%q) panicked with %q", rec, msg)
				}
			}()
			parseRecord([]byte(rec))
		}()
	}
	name, micros := parseRecord([]byte("svc-042 POST /v1/items/7 500 123456us"))
	if string(name) != "svc-042" || micros != 123456 {
		t.Fatalf("parseRecord = %q, %d", name, micros)
	}
}

func TestBatchCoderRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{0, 1, 1000} {
		b := Batch{Micros: make([]int64, n)}
		for i := range b.Micros {
			b.Micros[i] = rng.Int64() >> rng.IntN(64)
			if rng.IntN(2) == 0 {
				b.Micros[i] = -b.Micros[i]
			}
		}
		enc := encodeBatch(b)
		got, err := decodeBatch(enc)
		if err != nil || !slices.Equal(got.Micros, b.Micros) {
			t.Fatalf("n=%d: round trip gave %v, %v", n, len(got.Micros), err)
		}
		for cut := range min(len(enc), 20) {
			if _, err := decodeBatch(enc[:cut]); err == nil && cut < len(enc) {
				t.Fatalf("n=%d: %d of %d bytes decoded without error", n, cut, len(enc))
			}
		}
		if _, err := decodeBatch(append(enc, 0)); err == nil {
			t.Fatalf("n=%d: trailing byte decoded without error", n)
		}
	}
}

// TestAliasLaw checks, exactly rather than by sampling, that each value's
// share of the alias table's slots is its weight's share.
func TestAliasLaw(t *testing.T) {
	for _, weights := range [][]float64{{1}, {1, 2, 3, 4}, zipfWeights(100, 1.1), zipfWeights(1000, 2)} {
		a := newAlias(weights)
		got := make([]float64, len(weights))
		for i, keep := range a.keep {
			got[i] += float64(keep)
			got[a.other[i]] += 1<<32 - float64(keep)
		}
		var total float64
		for _, w := range weights {
			total += w
		}
		for i, w := range weights {
			p := got[i] / (float64(len(weights)) * (1 << 32))
			if math.Abs(p-w/total) > 1e-8 {
				t.Fatalf("%d weights: value %d drawn with probability %v, want %v", len(weights), i, p, w/total)
			}
		}
	}
}

func TestRank(t *testing.T) {
	for _, c := range []struct{ n, q, want int64 }{
		{1, 500, 0}, {1, 999, 0}, {2, 500, 0}, {3, 500, 1}, {100, 990, 98}, {1000, 999, 998},
		{1001, 999, 999}, {1000, 500, 499}, {10, 999, 9},
	} {
		if got := rank(c.n, c.q); got != c.want {
			t.Errorf("rank(%d, %d) = %d, want %d", c.n, c.q, got, c.want)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	for _, c := range []struct {
		edit func(*Config)
		msg  string
	}{
		{func(c *Config) { c.Records = -1 }, "percentiles: Config.Records is -1"},
		{func(c *Config) { c.Services = 0 }, "percentiles: Config.Services is 0"},
		{func(c *Config) { c.Skew = 1 }, "percentiles: Config.Skew is 1"},
		{func(c *Config) { c.Skew = math.NaN() }, "percentiles: Config.Skew is NaN"},
		{func(c *Config) { c.Sources = 0 }, "percentiles: Config.Sources is 0"},
	} {
		cfg := Default()
		c.edit(&cfg)
		func() {
			defer func() {
				if msg, _ := recover().(string); !strings.HasPrefix(msg, c.msg) {
					t.Errorf("validate panicked with %q, want %q...", msg, c.msg)
				}
			}()
			Serial(cfg)
		}()
	}
}
