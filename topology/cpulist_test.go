package topology

import (
	"slices"
	"strings"
	"testing"
)

func TestParseCPUList(t *testing.T) {
	tests := []struct {
		in   string
		want []int
		err  string
	}{
		{"", nil, ""},
		{"0", []int{0}, ""},
		{"0-3,8,10-11", []int{0, 1, 2, 3, 8, 10, 11}, ""},
		{"5,1-2,2", []int{1, 2, 5}, ""},
		{"0-", nil, `open range "0-"`},
		{"-1", nil, "empty CPU number"},
		{"a,b", nil, `bad CPU number "a"`},
		{"3-1", nil, `reversed range "3-1"`},
		{"1,,2", nil, "empty CPU number"},
		{"0x1", nil, "bad CPU number"},
		{"65536", nil, "out of range"},
		{"99999999999999999999999", nil, "out of range"},
	}
	for _, tc := range tests {
		got, err := parseCPUList(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("parseCPUList(%q) error = %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("parseCPUList(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

// FuzzParseCPUList: no input panics, and an accepted list is ascending,
// distinct, and survives a format/parse round trip.
func FuzzParseCPUList(f *testing.F) {
	for _, s := range []string{"", "0", "0-3,8", "0-", "a,b", "3-1", "1,,2", "0-65535"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ids, err := parseCPUList(s)
		if err != nil {
			return
		}
		for i := 1; i < len(ids); i++ {
			if ids[i] <= ids[i-1] {
				t.Fatalf("%q -> %v: not ascending", s, ids)
			}
		}
		back, err := parseCPUList(formatCPUList(ids))
		if err != nil || !slices.Equal(back, ids) {
			t.Fatalf("%q -> %v -> %q -> %v, %v", s, ids, formatCPUList(ids), back, err)
		}
	})
}
