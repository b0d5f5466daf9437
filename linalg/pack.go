package linalg

// packA copies rows [i0, i0+m) and columns [p0, p0+k) of a into dst as
// panels of mr rows: panel q holds rows q*mr.. and element (i, p) of it is
// at dst[q*mr*k + p*mr + i]. Rows past m in the last panel are zero.
func packA(dst []float64, a operand, i0, m, p0, k int) {
	s := a.stride
	for ir := 0; ir < m; ir += mr {
		rows := min(mr, m-ir)
		d := dst[ir*k : ir*k+mr*k]
		switch {
		case a.trans:
			// Element (i, p) is data[p*s+i]: each k-step is a short
			// contiguous run.
			if rows == mr {
				for p := range k {
					dp := d[p*mr : p*mr+mr : p*mr+mr]
					r := a.data[(p0+p)*s+i0+ir:][:mr:mr]
					dp[0], dp[1], dp[2], dp[3], dp[4], dp[5] = r[0], r[1], r[2], r[3], r[4], r[5]
				}
				continue
			}
			for p := range k {
				src := a.data[(p0+p)*s+i0+ir:][:rows]
				dp := d[p*mr : p*mr+mr]
				copy(dp, src)
				clear(dp[rows:])
			}
		case rows == mr:
			base := (i0+ir)*s + p0
			r0 := a.data[base:][:k]
			r1 := a.data[base+s:][:k]
			r2 := a.data[base+2*s:][:k]
			r3 := a.data[base+3*s:][:k]
			r4 := a.data[base+4*s:][:k]
			r5 := a.data[base+5*s:][:k]
			for p := range k {
				dp := d[p*mr : p*mr+mr : p*mr+mr]
				dp[0] = r0[p]
				dp[1] = r1[p]
				dp[2] = r2[p]
				dp[3] = r3[p]
				dp[4] = r4[p]
				dp[5] = r5[p]
			}
		default:
			clear(d)
			for i := range rows {
				r := a.data[(i0+ir+i)*s+p0:][:k]
				for p, v := range r {
					d[p*mr+i] = v
				}
			}
		}
	}
}

// packB copies rows [p0, p0+k) and columns [j0, j0+n) of b into dst as
// panels of nr columns: panel q holds columns q*nr.. and element (p, j) of it
// is at dst[q*nr*k + p*nr + j]. Columns past n in the last panel are zero.
func packB(dst []float64, b operand, p0, k, j0, n int) {
	s := b.stride
	if !b.trans {
		// Element (p, j) is data[p*s+j]: each k-step of a panel is a
		// contiguous run of nr. Panels are filled one at a time, so the
		// writes are sequential and each read is one cache line; filling
		// all panels row by row instead writes n/nr streams 8*k*nr bytes
		// apart, which collide in the same L1 sets (measured 3x slower).
		for jr := 0; jr < n; jr += nr {
			d := dst[jr*k : jr*k+nr*k]
			if n-jr < nr {
				clear(d)
				for p := range k {
					copy(d[p*nr:p*nr+nr], b.data[(p0+p)*s+j0+jr:][:n-jr])
				}
				continue
			}
			src := b.data[p0*s+j0+jr:]
			for p := range k {
				// Element by element: copy() and array assignment both
				// call memmove, which costs more than 8 moves.
				dp := d[p*nr : p*nr+nr : p*nr+nr]
				r := src[p*s : p*s+nr : p*s+nr]
				dp[0], dp[1], dp[2], dp[3] = r[0], r[1], r[2], r[3]
				dp[4], dp[5], dp[6], dp[7] = r[4], r[5], r[6], r[7]
			}
		}
		return
	}
	// Element (p, j) is data[j*s+p]: gather nr columns of the panel from nr
	// rows of data.
	for jr := 0; jr < n; jr += nr {
		cols := min(nr, n-jr)
		d := dst[jr*k : jr*k+nr*k]
		if cols == nr {
			// Eight rows of data read side by side, the panel written
			// in order: one pass, no strided writes.
			base := (j0+jr)*s + p0
			r0, r1 := b.data[base:][:k], b.data[base+s:][:k]
			r2, r3 := b.data[base+2*s:][:k], b.data[base+3*s:][:k]
			r4, r5 := b.data[base+4*s:][:k], b.data[base+5*s:][:k]
			r6, r7 := b.data[base+6*s:][:k], b.data[base+7*s:][:k]
			for p := range k {
				dp := d[p*nr : p*nr+nr : p*nr+nr]
				dp[0], dp[1], dp[2], dp[3] = r0[p], r1[p], r2[p], r3[p]
				dp[4], dp[5], dp[6], dp[7] = r4[p], r5[p], r6[p], r7[p]
			}
			continue
		}
		clear(d)
		for j := range cols {
			r := b.data[(j0+jr+j)*s+p0:][:k]
			for p, v := range r {
				d[p*nr+j] = v
			}
		}
	}
}
