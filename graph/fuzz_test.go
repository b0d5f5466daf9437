package graph_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/gofork/gofork/graph"
)

// longNumber matches numbers of 7 digits or more.
var longNumber = regexp.MustCompile(`[0-9]{7}`)

// FuzzReadAdjacency: any input either gives an error that names the
// function or a clean graph that reads back the same once written.
func FuzzReadAdjacency(f *testing.F) {
	f.Add([]byte("AdjacencyGraph\n3\n4\n0\n2\n3\n1\n2\n0\n0\n"))
	f.Add([]byte("AdjacencyGraph 2 1 0 1 0"))
	f.Add([]byte("AdjacencyGraph\n2\n1\n0\n2\n1\n"))
	f.Fuzz(func(t *testing.T, text []byte) {
		if longNumber.Match(text) {
			t.Skip("a header may ask for gigabytes before the body is read")
		}
		g, err := graph.ReadAdjacency(bytes.NewReader(text))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "graph: ReadAdjacency: ") {
				t.Fatalf("error %q does not name the function", err)
			}
			return
		}
		checkClean(t, g)
		again, err := graph.ReadAdjacency(bytes.NewReader(writeAdjacency(g)))
		if err != nil {
			t.Fatal(err)
		}
		sameGraph(t, again, g)
	})
}

// FuzzReadEdgeList: any input either gives an error that names the function
// and a line, or a clean graph.
func FuzzReadEdgeList(f *testing.F) {
	f.Add([]byte("# c\n0\t1\n1 2\n"), false)
	f.Add([]byte("3 3\n\n2 1\r\n"), true)
	f.Fuzz(func(t *testing.T, text []byte, symmetrize bool) {
		if longNumber.Match(text) {
			t.Skip("an edge to vertex 10^6 or above makes a graph of that many vertices: valid, but too big for a fuzz input")
		}
		g, err := graph.ReadEdgeList(bytes.NewReader(text), symmetrize)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "graph: ReadEdgeList: line ") {
				t.Fatalf("error %q does not name the function and line", err)
			}
			return
		}
		checkClean(t, g)
		if symmetrize && !g.Symmetric() {
			t.Fatal("symmetrized graph is not Symmetric")
		}
	})
}
