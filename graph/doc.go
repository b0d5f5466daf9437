// Package graph holds graphs in compressed sparse rows and the classic
// parallel graph algorithms over them, each a fork-join program on the
// gofork core: breadth-first search, connected components, PageRank and
// triangle counting, in the manner of Ligra, GBBS and the GAP benchmark
// suite.
//
// # Graphs
//
// A Graph has vertices 0..n-1 (int32 ids) and each vertex's out-neighbours
// in one array, sorted, without duplicates or self-loops, cut into rows by
// int64 offsets: 4 bytes per edge and 8 per vertex. A symmetric Graph (every
// edge has its reverse) is an undirected graph, each edge stored both ways.
// Graphs are immutable and safe for concurrent use.
//
// Graphs are built in parallel from an edge list (FromEdges), from a gonum
// graph (FromGonum), by the R-MAT generator of Graph500 and Ligra (RMat), or
// read from the text formats of the field: PBBS/Ligra's AdjacencyGraph
// (ReadAdjacency) and SNAP's edge lists (ReadEdgeList). Readers parse in
// parallel and name the line of a malformed input.
//
//	g := graph.RMat(20, 8, 1) // 2^20 vertices, ~16 M directed edges
//	parent := graph.BFS(g, 0)
//	label := graph.ConnectedComponents(g)
//	rank, iters := graph.PageRank(g, 0.85, 1e-9, 100)
//	count := graph.Triangles(g)
//
// # Algorithms
//
//   - BFS: direction-optimizing (Beamer et al.): small frontiers expand
//     top-down, claiming vertices by compare-and-swap; large ones run
//     bottom-up over a bitmap, every unvisited vertex looking for a parent.
//   - ConnectedComponents: a concurrent union-find with Afforest's sampling;
//     labels are the smallest vertex id of each component, so they do not
//     depend on the scheduling.
//   - PageRank: pull-based power iteration with dangling vertices' rank
//     spread evenly; no atomics.
//   - Triangles: vertices ranked by degree, edges kept toward the higher
//     rank, sorted rows merged.
//
// Every bulk step is a call of package par (loops), reduce (sums, prefix
// sums, counts) or sortpar (sorting edges and ranks). The algorithms take
// ...par.Option like the rest of gofork, of which they use par.WithPool;
// the builders and readers run on the pool of the calling task, or
// core.Default().
//
// # Directed graphs
//
// A Graph built without symmetrize from edges that are not all reversed is
// directed. BFS follows out-edges (and runs top-down only, as bottom-up
// needs in-edges); ConnectedComponents takes the edges as undirected;
// PageRank builds the transposed graph for its pull; Triangles wants a
// symmetric graph.
package graph
