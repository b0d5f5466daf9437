package overlap

import "testing"

func TestFind(t *testing.T) {
	buf := make([]int32, 10)
	other := make([]int32, 10)
	for _, c := range []struct {
		name string
		x, y []int32
		i, j int
		ok   bool
	}{
		{"disjoint", buf, other, 0, 0, false},
		{"adjacent", buf[:5], buf[5:], 0, 0, false},
		{"same", buf, buf, 0, 0, true},
		{"x after y", buf[3:8], buf[:5], 0, 3, true},
		{"y after x", buf[:5], buf[4:9], 4, 0, true},
		{"inside", buf[2:4], buf, 0, 2, true},
		{"empty", buf[3:3], buf, 0, 0, false},
	} {
		i, j, ok := Find(c.x, c.y)
		if ok != c.ok || ok && (i != c.i || j != c.j) {
			t.Errorf("%s: Find = %d, %d, %v; want %d, %d, %v", c.name, i, j, ok, c.i, c.j, c.ok)
		}
	}
	zs := make([]struct{}, 4)
	if _, _, ok := Find(zs, zs); ok {
		t.Errorf("zero-size elements overlap")
	}
	if !Same(buf[:4], buf[:4]) || Same(buf[:4], buf[1:5]) || Same(buf[:4], buf[:3]) || !Same(buf[:0], other[:0]) {
		t.Errorf("Same is wrong")
	}
}
