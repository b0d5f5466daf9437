package forktest

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofork/gofork/par"
	"github.com/gofork/gofork/reduce"
	"github.com/gofork/gofork/sortpar"
)

var loadFlag = flag.Duration("load", 30*time.Second, "how long TestLoad runs its 256 goroutines")

// watchdog fails the test, with every goroutine's stack, if progress stops
// moving for stall. It returns a stop function and a channel that is closed
// when it fires.
func watchdog(t *testing.T, progress *atomic.Int64, stall time.Duration) (stop func(), fired <-chan string) {
	done := make(chan struct{})
	ch := make(chan string, 1)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(stall / 10)
		defer tick.Stop()
		last, since := progress.Load(), time.Now()
		for {
			select {
			case <-done:
				return
			case now := <-tick.C:
				if p := progress.Load(); p != last {
					last, since = p, now
				} else if now.Sub(since) >= stall {
					buf := make([]byte, 1<<24)
					buf = buf[:runtime.Stack(buf, true)]
					ch <- fmt.Sprintf("no progress for %v (stuck at %d); all goroutines:\n%s", stall, last, buf)
					return
				}
			}
		}
	}()
	return func() { close(done); wg.Wait() }, ch
}

// TestLoad runs 256 goroutines that call par.For, sortpar.Sort and reduce.Sum
// on the Default pool at the same time for 30 s (-load), checking every
// result; a watchdog fails the test with all stacks if no call completes for
// 10 s.
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("30 s load test; skipped with -short")
	}
	const goroutines = 256
	var progress atomic.Int64
	var failed atomic.Bool
	errs := make(chan string, goroutines)
	deadline := time.Now().Add(*loadFlag)
	stopDog, fired := watchdog(t, &progress, 10*time.Second)
	defer stopDog()

	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 3))
			for !failed.Load() && time.Now().Before(deadline) {
				if msg := loadOp(rng); msg != "" {
					failed.Store(true)
					errs <- fmt.Sprintf("goroutine %d: %s", g, msg)
					return
				}
				progress.Add(1)
			}
		}()
	}
	allDone := make(chan struct{})
	go func() { wg.Wait(); close(allDone) }()
	select {
	case <-allDone:
	case msg := <-fired:
		failed.Store(true)
		t.Fatal(msg)
	}
	close(errs)
	for msg := range errs {
		t.Error(msg)
	}
	t.Logf("%d goroutines completed %d calls in %v", goroutines, progress.Load(), *loadFlag)
}

// loadOp runs one random parallel call on the Default pool and checks it;
// it returns what was wrong, or "".
func loadOp(rng *rand.Rand) string {
	n := 1 + rng.IntN(30000)
	switch rng.IntN(3) {
	case 0:
		out := make([]int, n)
		par.For(0, n, func(i int) { out[i] += 3*i + 1 })
		for i, v := range out {
			if v != 3*i+1 {
				return fmt.Sprintf("par.For n=%d: out[%d] = %d", n, i, v)
			}
		}
	case 1:
		xs := make([]int64, n)
		for i := range xs {
			xs[i] = rng.Int64N(1 << 40)
		}
		want := slices.Clone(xs)
		slices.Sort(want)
		sortpar.Sort(xs)
		if !slices.Equal(xs, want) {
			return fmt.Sprintf("sortpar.Sort n=%d: wrong result", n)
		}
	case 2:
		xs := make([]int64, n)
		var want int64
		for i := range xs {
			xs[i] = rng.Int64N(1<<20) - 1<<19
			want += xs[i]
		}
		if got := reduce.Sum(xs); got != want {
			return fmt.Sprintf("reduce.Sum n=%d: %d, want %d", n, got, want)
		}
	}
	return ""
}

// sortHandler answers a POST of little-endian int64s with the same numbers
// sorted by sorter.
func sortHandler(sorter func([]int64)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil || len(body)%8 != 0 {
			http.Error(w, "forktest: body must be little-endian int64s", http.StatusBadRequest)
			return
		}
		xs := make([]int64, len(body)/8)
		for i := range xs {
			xs[i] = int64(binary.LittleEndian.Uint64(body[8*i:]))
		}
		sorter(xs)
		for i, x := range xs {
			binary.LittleEndian.PutUint64(body[8*i:], uint64(x))
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(body)
	})
}

func sortparSorter(xs []int64) { sortpar.Sort(xs) }
func slicesSorter(xs []int64)  { slices.Sort(xs) }

// The comparator forms: sortpar's parallel pdqsort against slices.SortFunc.
func sortparFuncSorter(xs []int64) { sortpar.SortFunc(xs, cmp.Compare[int64]) }
func slicesFuncSorter(xs []int64)  { slices.SortFunc(xs, cmp.Compare[int64]) }

func encodeInts(xs []int64) []byte {
	b := make([]byte, 8*len(xs))
	for i, x := range xs {
		binary.LittleEndian.PutUint64(b[8*i:], uint64(x))
	}
	return b
}

// postSort sends xs to the server and returns the numbers of the response.
func postSort(c *http.Client, url string, body []byte) ([]int64, error) {
	resp, err := c.Post(url, "application/octet-stream", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %s: %s", resp.Status, got)
	}
	xs := make([]int64, len(got)/8)
	for i := range xs {
		xs[i] = int64(binary.LittleEndian.Uint64(got[8*i:]))
	}
	return xs, nil
}

// newSortServer starts a loopback HTTP server (httptest binds 127.0.0.1) and
// a client with a connection per concurrent caller; both are shut down
// when the test ends.
func newSortServer(tb testing.TB, sorter func([]int64), clients int) (*httptest.Server, *http.Client) {
	srv := httptest.NewServer(sortHandler(sorter))
	tr := &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients}
	tb.Cleanup(func() {
		tr.CloseIdleConnections()
		srv.Close()
	})
	return srv, &http.Client{Transport: tr, Timeout: 2 * time.Minute}
}

// TestHTTPSort has 64 concurrent clients post random arrays to a server whose
// handler sorts them with sortpar on the Default pool, and checks every
// response against slices.Sort.
func TestHTTPSort(t *testing.T) {
	const clients = 64
	requests, maxN := 10, 60000
	switch {
	case raceEnabled:
		requests, maxN = 2, 20000
	case testing.Short():
		requests, maxN = 4, 40000
	}
	srv, client := newSortServer(t, sortparSorter, clients)
	var wg sync.WaitGroup
	var served atomic.Int64
	errs := make(chan error, clients)
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(c), 4))
			for r := range requests {
				n := rng.IntN(maxN)
				if r == 0 {
					n = maxN // every client sends one large array, sorted in parallel
				}
				xs := make([]int64, n)
				for i := range xs {
					xs[i] = rng.Int64() - rng.Int64()
				}
				got, err := postSort(client, srv.URL, encodeInts(xs))
				if err != nil {
					errs <- fmt.Errorf("client %d request %d: %v", c, r, err)
					return
				}
				slices.Sort(xs)
				if !slices.Equal(got, xs) {
					errs <- fmt.Errorf("client %d request %d (n=%d): response is not the sorted request", c, r, n)
					return
				}
				served.Add(1)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if want := int64(clients * requests); served.Load() != want && !t.Failed() {
		t.Errorf("%d requests served, want %d", served.Load(), want)
	}
}

// BenchmarkHTTPSort measures the latency of the sorting handler under 64
// concurrent clients, with sortpar.Sort (radix on int64) against slices.Sort
// and sortpar.SortFunc (parallel pdqsort) against slices.SortFunc,
// and reports the median and 99th percentile in milliseconds.
func BenchmarkHTTPSort(b *testing.B) {
	const clients = 64
	for _, n := range []int{10000, 100000} {
		for _, h := range []struct {
			name   string
			sorter func([]int64)
		}{
			{"slices", slicesSorter}, {"sortpar", sortparSorter},
			{"slices.SortFunc", slicesFuncSorter}, {"sortpar.SortFunc", sortparFuncSorter},
		} {
			b.Run(fmt.Sprintf("n=%s/handler=%s", sizeName(n), h.name), func(b *testing.B) {
				srv, client := newSortServer(b, h.sorter, clients)
				var mu sync.Mutex
				var lat []time.Duration
				var seed atomic.Uint64
				b.SetParallelism((clients + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
				b.SetBytes(int64(8 * n))
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					rng := rand.New(rand.NewPCG(seed.Add(1), 5))
					xs := make([]int64, n)
					for i := range xs {
						xs[i] = rng.Int64()
					}
					body := encodeInts(xs)
					var mine []time.Duration
					for pb.Next() {
						start := time.Now()
						if _, err := postSort(client, srv.URL, body); err != nil {
							b.Error(err)
							return
						}
						mine = append(mine, time.Since(start))
					}
					mu.Lock()
					lat = append(lat, mine...)
					mu.Unlock()
				})
				b.StopTimer()
				if len(lat) == 0 {
					return
				}
				sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
				q := func(f float64) float64 {
					return float64(lat[min(len(lat)-1, int(f*float64(len(lat))))]) / 1e6
				}
				b.ReportMetric(q(0.50), "p50-ms")
				b.ReportMetric(q(0.99), "p99-ms")
			})
		}
	}
}

// sizeName writes n like 1e5 when it is a power of ten.
func sizeName(n int) string {
	e := 0
	for m := n; m%10 == 0 && m > 1; m /= 10 {
		e++
	}
	if pow10(e) == n {
		return fmt.Sprintf("1e%d", e)
	}
	return fmt.Sprint(n)
}

func pow10(e int) int {
	r := 1
	for range e {
		r *= 10
	}
	return r
}

// TestWatchdog checks that the watchdog TestLoad relies on fires, with the
// stacks, when progress stops.
func TestWatchdog(t *testing.T) {
	var progress atomic.Int64
	stop, fired := watchdog(t, &progress, 100*time.Millisecond)
	defer stop()
	msg := <-fired
	if !bytes.Contains([]byte(msg), []byte("TestWatchdog")) || !bytes.Contains([]byte(msg), []byte("goroutine ")) {
		t.Errorf("watchdog report has no goroutine stacks:\n%.500s", msg)
	}
}
