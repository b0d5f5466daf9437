// Package uts is the Unbalanced Tree Search benchmark (Olivier et al.,
// "UTS: An Unbalanced Tree Search Benchmark", LCPC 2006), reproducing the
// reference implementation's trees bit for bit and searching them as
// fork-join tasks on the core pool.
//
// # Trees
//
// A UTS tree is never stored: each node is a 20-byte SHA-1 digest, and a
// node's i-th child is SHA-1(node ‖ i). A node's number of children is a
// function of its own digest and depth, drawn from the distribution that
// the Tree's Type and Shape select (binomial, geometric with a depth
// profile, a hybrid of the two, or balanced). The shape of the tree is thus
// known only while it is generated, which makes it a hard case for load
// balancers; binomial trees are the worst, since every node has the same
// expected subtree size.
//
// A Tree holds the reference program's parameters, and Parse reads its
// command-line syntax ("-t 1 -a 3 -d 10 -b 4 -r 19"). T1, T1L, T1XXL, T3,
// T3L and T3XXL are the trees of libfork's benchmark suite; their published
// sizes are in their docs and the tests check them.
//
// # Searching
//
// SearchSerial walks a tree depth-first on the calling goroutine. Search
// walks it as fork-join tasks on a core pool (core.Default(), or the pool
// of WithPool). A task owns a range of one node's children, carrying the
// node's state, depth and range by value in four machine words, so a fork
// allocates nothing. A task walks its range in the serial order with the
// serial search's own code, checking once per internal node whether another
// worker is out of work (core.Worker.Hungry), and forks on demand:
// when a task starts, while the worker has few forks waiting for thieves
// (core.Worker.Pending), it splits a large range in halves; and when a
// worker is hungry, it promotes the siblings left at the shallowest level of
// its recursion, the biggest piece it holds, to a task of their own
// (core.Spawn), which it syncs when it gets back to that level. With one
// worker Search thus runs within a few percent of SearchSerial, and with
// more every thief still takes the oldest work, as if every level had
// forked. Both return the same Result: the number of nodes (root included),
// of leaves, and the largest depth (root = 0).
//
// The SHA-1 of the fixed 24-byte spawn message is nearly the whole cost of
// a node. On amd64 with the SHA extensions it runs on them
// (in assembly); elsewhere, or with the purego build tag, an unrolled
// Go version that folds the message's constant words does. A Geometric
// node's draw, floor(ln(1-u)/ln(1-p)), is a table lookup with the same
// results.
//
// The command cmd/uts runs a search from the command line, like the
// reference program.
package uts
