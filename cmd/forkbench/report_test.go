package main

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
)

// TestMetricsReported checks that the figures a benchmark reports beside
// its time reach the table's footer and the CSV's last column, by name, and
// that a table whose benchmarks report none gets no footer.
func TestMetricsReported(t *testing.T) {
	r := &Results{Configs: []Config{
		{Bench: "server-x", Suite: "realworld", Variant: variantGofork, P: 2, MedianNS: 5e6, RunsNS: []int64{5e6},
			Metrics: map[string]float64{"p99/mean": 1.5, "goroutines-after-idle": 1}},
		{Bench: "plain", Suite: "realworld", Variant: variantGofork, P: 2, MedianNS: 1e6, RunsNS: []int64{1e6}},
	}}
	var w bytes.Buffer
	writeMetrics(&w, r, []string{"server-x", "plain"})
	want := "server-x gofork P=2: goroutines-after-idle=1 p99/mean=1.5"
	if !strings.Contains(w.String(), want) {
		t.Errorf("table footer\n%s\nlacks %q", w.String(), want)
	}
	if strings.Contains(w.String(), "plain") {
		t.Errorf("a benchmark with no figures has a footer line:\n%s", w.String())
	}
	w.Reset()
	writeMetrics(&w, r, []string{"plain"})
	if w.Len() != 0 {
		t.Errorf("a table with no figures has a footer:\n%s", w.String())
	}

	w.Reset()
	if err := writeCSV(&w, r); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&w).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	last := len(rows[0]) - 1
	if rows[0][last] != "metrics" {
		t.Fatalf("the CSV's last column is %q, want metrics", rows[0][last])
	}
	if got, want := rows[1][last], "goroutines-after-idle=1;p99/mean=1.5"; got != want {
		t.Errorf("metrics column %q, want %q", got, want)
	}
	if got := rows[2][last]; got != "" {
		t.Errorf("metrics column of a benchmark with none: %q", got)
	}
}
