package topology

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// maxCPU bounds the CPU numbers Read accepts, so a garbage range like
// "0-4000000000" is an error and not a huge allocation. Linux's NR_CPUS is at
// most 8192 on every architecture today.
const maxCPU = 1 << 16

// parseCPUList parses the kernel's CPU list format ("0-3,8,10-11"; empty
// means no CPUs) into ascending distinct CPU numbers. Ranges must not be
// reversed ("3-1"), open ("0-") or name CPUs beyond maxCPU.
func parseCPUList(s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	var ids []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := parseCPU(lo)
		if err != nil {
			return nil, err
		}
		b := a
		if isRange {
			if hi == "" {
				return nil, fmt.Errorf("open range %q", part)
			}
			if b, err = parseCPU(hi); err != nil {
				return nil, err
			}
			if b < a {
				return nil, fmt.Errorf("reversed range %q", part)
			}
		}
		for id := a; id <= b; id++ {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}

func parseCPU(s string) (int, error) {
	if s == "" {
		return 0, errors.New("empty CPU number")
	}
	for _, ch := range s {
		if ch < '0' || ch > '9' {
			return 0, fmt.Errorf("bad CPU number %q", s)
		}
	}
	v, err := strconv.Atoi(s)
	if err != nil || v >= maxCPU {
		return 0, fmt.Errorf("CPU number %q out of range (max %d)", s, maxCPU-1)
	}
	return v, nil
}

// formatCPUList formats ascending distinct CPU numbers in the kernel's CPU
// list format, collapsing runs into ranges: [0 1 2 5] -> "0-2,5".
func formatCPUList(ids []int) string {
	var sb strings.Builder
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if sb.Len() > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(strconv.Itoa(ids[i]))
		if j > i {
			sb.WriteByte('-')
			sb.WriteString(strconv.Itoa(ids[j]))
		}
		i = j + 1
	}
	return sb.String()
}
