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
		// contiguous run of nr.
		for p := range k {
			row := b.data[(p0+p)*s+j0:][:n]
			for jr := 0; jr < n; jr += nr {
				dp := dst[jr*k+p*nr : jr*k+p*nr+nr]
				c := copy(dp, row[jr:])
				clear(dp[c:])
			}
		}
		return
	}
	// Element (p, j) is data[j*s+p]: gather nr columns of the panel from nr
	// rows of data.
	for jr := 0; jr < n; jr += nr {
		cols := min(nr, n-jr)
		d := dst[jr*k : jr*k+nr*k]
		if cols < nr {
			clear(d)
		}
		for j := range cols {
			r := b.data[(j0+jr+j)*s+p0:][:k]
			for p, v := range r {
				d[p*nr+j] = v
			}
		}
	}
}
