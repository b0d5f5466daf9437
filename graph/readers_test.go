package graph_test

import (
	"bufio"
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gofork/gofork/graph"
)

// writeAdjacency writes g in the AdjacencyGraph format.
func writeAdjacency(g *graph.Graph) []byte {
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	fmt.Fprintf(w, "AdjacencyGraph\n%d\n%d\n", g.NumVertices(), g.NumEdges())
	off := 0
	for v := 0; v < g.NumVertices(); v++ {
		fmt.Fprintln(w, off)
		off += g.Degree(int32(v))
	}
	for v := 0; v < g.NumVertices(); v++ {
		for _, u := range g.Neighbors(int32(v)) {
			fmt.Fprintln(w, u)
		}
	}
	w.Flush()
	return b.Bytes()
}

func sameGraph(t *testing.T, got, want *graph.Graph) {
	t.Helper()
	if got.NumVertices() != want.NumVertices() || got.NumEdges() != want.NumEdges() || got.Symmetric() != want.Symmetric() {
		t.Fatalf("read %d vertices, %d edges, symmetric %v; want %d, %d, %v",
			got.NumVertices(), got.NumEdges(), got.Symmetric(), want.NumVertices(), want.NumEdges(), want.Symmetric())
	}
	for v := int32(0); v < int32(want.NumVertices()); v++ {
		if !slices.Equal(got.Neighbors(v), want.Neighbors(v)) {
			t.Fatalf("row %d: %v, want %v", v, got.Neighbors(v), want.Neighbors(v))
		}
	}
}

func TestReadAdjacencyRoundTrip(t *testing.T) {
	for _, c := range testGraphs(t, true) {
		text := writeAdjacency(c.g)
		got, err := graph.ReadAdjacency(bytes.NewReader(text))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		sameGraph(t, got, c.g)
	}
}

// Small windows: numbers and lines cut by a window's end are carried over
// to the next window, and errors still name the right line.
func TestReadWindows(t *testing.T) {
	want := graph.RMat(10, 8, 5)
	adj := writeAdjacency(want)
	var el bytes.Buffer
	for u := int32(0); u < int32(want.NumVertices()); u++ {
		for _, v := range want.Neighbors(u) {
			fmt.Fprintf(&el, "%d\t%d\n", u, v)
		}
	}
	fmt.Fprintf(&el, "%d %d", want.NumVertices()-1, want.NumVertices()-1) // no final newline
	for _, window := range []int{32, 33, 64, 1000, 4099} {
		got, err := graph.ReadAdjacencyWindow(bytes.NewReader(adj), window)
		if err != nil {
			t.Fatalf("window %d: %v", window, err)
		}
		sameGraph(t, got, want)
		got, err = graph.ReadEdgeListWindow(bytes.NewReader(el.Bytes()), false, window)
		if err != nil {
			t.Fatalf("window %d: %v", window, err)
		}
		sameGraph(t, got, want)
	}
	lines := bytes.Split(adj, []byte("\n"))
	bad := len(lines) / 2
	lines[bad] = []byte("7x")
	_, err := graph.ReadAdjacencyWindow(bytes.NewReader(bytes.Join(lines, []byte("\n"))), 64)
	if want := fmt.Sprintf("line %d: \"7x\"", bad+1); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want one with %q", err, want)
	}
	_, err = graph.ReadAdjacencyWindow(strings.NewReader("AdjacencyGraph 1 0 0123456789"), 12)
	if err == nil || !strings.Contains(err.Error(), "token of 12 bytes or more") {
		t.Fatalf("a number longer than the window: error %v", err)
	}
}

func TestReadAdjacencyCleansRows(t *testing.T) {
	// Unsorted rows, a duplicate, a self-loop; spaces and tabs for newlines.
	text := "AdjacencyGraph 3 7\n0 3 5\n2 1 1 0 2\t0\r\n0"
	g, err := graph.ReadAdjacency(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	want := mustFromEdges(t, 3, [][2]int32{{0, 1}, {0, 2}, {1, 0}, {1, 2}, {2, 0}}, false)
	sameGraph(t, g, want)
}

// A layout whose newlines happen to count the numbers right, though they
// are not one per line: the one-per-line count is refused and the window
// counted token by token.
func TestReadAdjacencyNewlinesMislead(t *testing.T) {
	g, err := graph.ReadAdjacency(strings.NewReader("AdjacencyGraph\n2\n2\n0 1\n\n1\n0\n"))
	if err != nil {
		t.Fatal(err)
	}
	sameGraph(t, g, mustFromEdges(t, 2, [][2]int32{{0, 1}}, true))
	// No newline at the end of the input.
	g, err = graph.ReadAdjacency(strings.NewReader("AdjacencyGraph\n2\n2\n0\n1\n1\n0"))
	if err != nil {
		t.Fatal(err)
	}
	sameGraph(t, g, mustFromEdges(t, 2, [][2]int32{{0, 1}}, true))
}

func TestReadAdjacencyErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"", "line 1: want AdjacencyGraph"},
		{"WeightedAdjacencyGraph\n1\n0\n0\n", "line 1: want AdjacencyGraph"},
		{"AdjacencyGraph\n", "line 2: missing the number of vertices"},
		{"AdjacencyGraph\n2\n", "line 3: missing the number of edges"},
		{"AdjacencyGraph\n-2\n1\n", "line 2: number of vertices \"-2\""},
		{"AdjacencyGraph\n2\nx\n", "line 3: number of edges \"x\""},
		{"AdjacencyGraph\n2\n1\n0\n1\n", "want n+m = 3"},
		{"AdjacencyGraph\n2\n1\n0\n1\n0\n0\n", "line 7: more than n+m = 3 numbers"},
		{"AdjacencyGraph\n2\n1\n0\n1\n2\n", "line 6: target \"2\""},
		{"AdjacencyGraph\n2\n1\n0\n1x\n1\n", "line 5: \"1x\" is not a non-negative integer"},
		{"AdjacencyGraph\n2\n1\n0\n2\n1\n", "line 5: offset \"2\""},
		{"AdjacencyGraph\n2\n1\n1\n1\n1\n", "line 4: the first offset is 1"},
		{"AdjacencyGraph\n3\n2\n0\n2\n1\n1\n0\n", "line 6: offset of vertex 2 is 1, below vertex 1's 2"},
		{"AdjacencyGraph\n2\n1\n0\n5000000000\n1\n", "line 5: offset \"5000000000\": want at most m = 1"},
		{"AdjacencyGraph\n2\n1\n0\n1\n5000000000\n", "line 6: target \"5000000000\""},
		{"AdjacencyGraph\n2\n1\n0\n0\n-1\n", "line 6: \"-1\" is not a non-negative integer"},
	} {
		_, err := graph.ReadAdjacency(strings.NewReader(c.text))
		if err == nil || !strings.HasPrefix(err.Error(), "graph: ReadAdjacency: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadAdjacency(%q): error %v, want one with %q", c.text, err, c.want)
		}
	}
}

// An error in a late piece of a long input names the right line.
func TestReadAdjacencyErrorLineInLongInput(t *testing.T) {
	g := graph.RMat(14, 8, 1)
	text := writeAdjacency(g)
	lines := bytes.Split(text, []byte("\n"))
	bad := len(lines) - 10
	lines[bad] = []byte("12z")
	_, err := graph.ReadAdjacency(bytes.NewReader(bytes.Join(lines, []byte("\n"))))
	if want := fmt.Sprintf("line %d: \"12z\" is not", bad+1); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want one with %q", err, want)
	}
	// A target out of range there.
	lines[bad] = []byte("99999999")
	_, err = graph.ReadAdjacency(bytes.NewReader(bytes.Join(lines, []byte("\n"))))
	if want := fmt.Sprintf("line %d: target \"99999999\"", bad+1); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want one with %q", err, want)
	}
}

func TestReadEdgeList(t *testing.T) {
	text := "# Directed graph: example\n# FromNodeId\tToNodeId\n0\t1\n1\t2\n\n2 0\n5\t5\n0\t1\r\n"
	g, err := graph.ReadEdgeList(strings.NewReader(text), false)
	if err != nil {
		t.Fatal(err)
	}
	sameGraph(t, g, mustFromEdges(t, 6, [][2]int32{{0, 1}, {1, 2}, {2, 0}}, false))
	g, err = graph.ReadEdgeList(strings.NewReader(text), true)
	if err != nil {
		t.Fatal(err)
	}
	sameGraph(t, g, mustFromEdges(t, 6, [][2]int32{{0, 1}, {1, 2}, {2, 0}}, true))
	g, err = graph.ReadEdgeList(strings.NewReader("# nothing\n"), true)
	if err != nil || g.NumVertices() != 0 {
		t.Fatalf("comments only: %v, %v", g, err)
	}
}

func TestReadEdgeListLong(t *testing.T) {
	want := graph.RMat(14, 8, 2)
	var b bytes.Buffer
	b.WriteString("# R-MAT\n")
	for u := int32(0); u < int32(want.NumVertices()); u++ {
		for _, v := range want.Neighbors(u) {
			fmt.Fprintf(&b, "%d\t%d\n", u, v)
		}
	}
	// The last vertex may be isolated: name it in a loop, which is dropped.
	fmt.Fprintf(&b, "%d %d\n", want.NumVertices()-1, want.NumVertices()-1)
	got, err := graph.ReadEdgeList(&b, false)
	if err != nil {
		t.Fatal(err)
	}
	sameGraph(t, got, want)
}

func TestReadEdgeListErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"0 1\nx 2\n", "line 2: source \"x\""},
		{"# c\n0 1\n1\n", "line 3: missing the target"},
		{"0 1\n1 -2\n", "line 2: target \"-2\""},
		{"0 1 2\n", "line 1: unexpected \"2\""},
		{"0 3000000000\n", "line 1: target \"3000000000\""},
	} {
		_, err := graph.ReadEdgeList(strings.NewReader(c.text), true)
		if err == nil || !strings.HasPrefix(err.Error(), "graph: ReadEdgeList: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadEdgeList(%q): error %v, want one with %q", c.text, err, c.want)
		}
	}
	// A bad line far into a long input.
	var b bytes.Buffer
	for i := 0; i < 300_000; i++ {
		fmt.Fprintf(&b, "%d %d\n", i, i+1)
	}
	b.WriteString("1 2 3\n")
	_, err := graph.ReadEdgeList(&b, false)
	if err == nil || !strings.Contains(err.Error(), "line 300001: ") {
		t.Fatalf("error %v, want one naming line 300001", err)
	}
}
