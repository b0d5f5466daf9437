package linalg

import (
	"sync"
	"unsafe"

	"github.com/gofork/gofork/core"
)

// Blocking of the serial leaf, BLIS style. The micro-kernel updates an
// mr x nr block of dst from an a panel (mr x kc) and a b panel (kc x nr).
// The leaf packs a kc x nc block of b, then for each mc x kc block of a packs
// it and sweeps every micro-tile: the b panel in use (kc*nr*8 = 16 KiB, or
// twice that for the wide kernel's pair) stays in the 32-48 KiB L1 while the
// a block (mc*kc*8 = 504 KiB) stays in the 1 MiB L2. kc = 256 amortizes
// loading and storing the block of dst over 256 rank-1 updates (about 2% of
// the kernel's time). mc is a multiple of 2mr so that a blocks cut no wide
// tile in two.
const (
	mr = 6    // rows of the micro-tile: 6 broadcasts of a per k-step
	nr = 8    // columns of the micro-tile: two 4-wide vectors of b
	kc = 256  // depth of a packed panel
	mc = 252  // rows of a packed a block: whole 2mr tiles
	nc = 1024 // columns of a packed b block
)

// Kernel choice. The issue allows gonum's blas64.Gemm on the leaf's
// sub-views instead of a kernel of our own; measured on the 2-core Zen 4
// (BenchmarkKernel, BenchmarkLinalgMul/serial), one core runs:
//
//	kernelAVX2 (6x8 tile, AVX2+FMA assembly)   ~54 GFLOP/s from L1, 40-50 in Mul
//	gonum Dgemm, one goroutine                 5-7 GFLOP/s
//	kernelGo (pure Go, scalar 2x4 blocks)      4-5 GFLOP/s from L1
//
// so the assembly kernel runs wherever the CPU has AVX2 and FMA, and the
// pure-Go kernel, with the same packing, everywhere else and under the
// purego tag. 6x8 uses 12 of the 16 ymm registers for the tile, 2 for a row
// of b and 2 for broadcasts of a (the BLIS Haswell shape); per k-step it
// issues 8 loads for 12 FMAs, within Zen 4's 3 loads and 2 FMAs per cycle.
//
// Where the CPU has AVX-512F the wide kernel takes the 2mr x 2nr tile made
// of four such tiles: 24 of the 32 zmm registers hold it, and per k-step it
// issues 2 loads of b and 12 broadcasts for 24 FMAs of 8 lanes. On a 2-core
// Zen 5, whose FMA units are 512 bits wide, BenchmarkKernel runs it at ~138
// GFLOP/s from L1 against ~67 for kernelAVX2. A CPU that splits 512-bit
// FMAs in two (Zen 4) gains only the instructions saved (not measured).

// kernel is a micro-kernel: with a pointing at a packed mr x k panel
// (element (i, p) at a[p*mr+i]) and b at a packed k x nr panel (element
// (p, j) at b[p*nr+j]), it sets the mr x nr block at c (row stride ldc) to
// alpha*a*b + beta*c, not reading c when beta is 0.
type kernel func(k int, a, b, c *float64, ldc int, alpha, beta float64)

// packBuf holds one worker's packing buffers. Buffers come from bufPool for
// the length of one leaf, so a leaf allocates nothing once the pool is warm.
type packBuf struct {
	a, b []float64
	edge [4 * mr * nr]float64 // micro-tile for the ragged edges of dst
}

var bufPool = sync.Pool{New: func() any { return new(packBuf) }}

// aligned returns a slice of length n, reusing buf when it is big enough.
// New slices start on a 64-byte boundary so packed panels do not straddle
// cache lines.
func aligned(buf []float64, n int) []float64 {
	if cap(buf) >= n {
		return buf[:n]
	}
	raw := make([]float64, n+8)
	off := 0
	if r := uintptr(unsafe.Pointer(&raw[0])) & 63; r != 0 {
		off = int(64-r) / 8
	}
	return raw[off : off+n : off+n]
}

func roundUp(x, unit int) int { return (x + unit - 1) / unit * unit }

// leaf computes block t serially on w (nil when no pool is involved).
func leaf(w *core.Worker, t block) {
	g := t.g
	pb := bufPool.Get().(*packBuf)
	// The wide kernel reads panels in pairs: pad to whole pairs with zeros.
	aUnit, bUnit := mr, nr
	if g.kern.wide != nil {
		aUnit, bUnit = 2*mr, 2*nr
	}
	for jc := 0; jc < t.n; jc += nc {
		nb := min(nc, t.n-jc)
		for pc := 0; pc < t.k; pc += kc {
			kb := min(kc, t.k-pc)
			beta := 1.0
			if pc == 0 && t.first {
				beta = g.beta
			}
			pb.b = aligned(pb.b, roundUp(nb, bUnit)*kb)
			packB(pb.b, g.b, t.p+pc, kb, t.j+jc, nb)
			clear(pb.b[roundUp(nb, nr)*kb:]) // the wide kernel's last panel
			for ic := 0; ic < t.m; ic += mc {
				mb := min(mc, t.m-ic)
				pb.a = aligned(pb.a, roundUp(mb, aUnit)*kb)
				packA(pb.a, g.a, t.i+ic, mb, t.p+pc, kb)
				clear(pb.a[roundUp(mb, mr)*kb:])
				g.macroKernel(w, pb, t.i+ic, t.j+jc, mb, nb, kb, beta)
			}
		}
	}
	bufPool.Put(pb)
}

// macroKernel sweeps the micro-kernel over the mb x nb block of dst at
// (i, j), from the packed a block and b block in pb. It calls w.Poll once
// per column panel (mb x nr x kb, ~1 Mflop, tens of microseconds), so that
// thieves and roots waiting on the pool are seen during a leaf that takes
// milliseconds.
func (g *gemm) macroKernel(w *core.Worker, pb *packBuf, i, j, mb, nb, kb int, beta float64) {
	if g.kern.wide != nil {
		g.macroKernelWide(w, pb, i, j, mb, nb, kb, beta)
		return
	}
	for jr := 0; jr < nb; jr += nr {
		if w != nil {
			w.Poll()
		}
		for ir := 0; ir < mb; ir += mr {
			g.tile(pb, i, j, ir, jr, mb, nb, kb, beta)
		}
	}
}

// macroKernelWide is macroKernel with the wide kernel, on 2mr x 2nr tiles;
// a ragged tile at the edge is computed into pb.edge (the packed panels are
// zero past the block) and the part inside the block copied out.
func (g *gemm) macroKernelWide(w *core.Worker, pb *packBuf, i, j, mb, nb, kb int, beta float64) {
	const tm, tn = 2 * mr, 2 * nr
	c, ldc := g.c, g.ldc
	for jr := 0; jr < nb; jr += tn {
		if w != nil {
			w.Poll()
		}
		bp := &pb.b[jr*kb]
		nw := min(tn, nb-jr)
		for ir := 0; ir < mb; ir += tm {
			ap := &pb.a[ir*kb]
			mh := min(tm, mb-ir)
			off := (i+ir)*ldc + j + jr
			if mh == tm && nw == tn {
				_ = c[off+(tm-1)*ldc+tn-1] // the kernel writes up to here
				g.kern.wide(kb, ap, bp, &c[off], ldc, g.alpha, beta)
				continue
			}
			g.kern.wide(kb, ap, bp, &pb.edge[0], tn, 1, 0)
			copyEdge(c[off:], ldc, pb.edge[:], tn, mh, nw, g.alpha, beta)
		}
	}
}

// copyEdge sets the mh x nw block at c to alpha*e + beta*c, not reading c
// when beta is 0.
func copyEdge(c []float64, ldc int, e []float64, lde, mh, nw int, alpha, beta float64) {
	for ii := range mh {
		row := c[ii*ldc:][:nw]
		er := e[ii*lde:][:nw]
		if beta == 0 {
			for jj := range row {
				row[jj] = alpha * er[jj]
			}
		} else {
			for jj := range row {
				row[jj] = alpha*er[jj] + beta*row[jj]
			}
		}
	}
}

// tile runs the tile kernel on the micro-tile at (ir, jr) of the mb x nb
// block at (i, j); a ragged tile at the edge of the block goes through
// pb.edge so that nothing outside the block is written.
func (g *gemm) tile(pb *packBuf, i, j, ir, jr, mb, nb, kb int, beta float64) {
	c, ldc := g.c, g.ldc
	mh, nw := min(mr, mb-ir), min(nr, nb-jr)
	ap, bp := &pb.a[ir*kb], &pb.b[jr*kb]
	off := (i+ir)*ldc + j + jr
	if mh == mr && nw == nr {
		_ = c[off+(mr-1)*ldc+nr-1] // the kernel writes up to here
		g.kern.tile(kb, ap, bp, &c[off], ldc, g.alpha, beta)
		return
	}
	g.kern.tile(kb, ap, bp, &pb.edge[0], nr, 1, 0)
	copyEdge(c[off:], ldc, pb.edge[:], nr, mh, nw, g.alpha, beta)
}
