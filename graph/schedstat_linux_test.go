package graph_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// threadTimes sums, over the process's threads, the time spent on a CPU
// and the time spent runnable but waiting for one (the first two fields of
// /proc/self/task/*/schedstat). Threads that ended are not counted.
func threadTimes() (onCPU, waiting time.Duration, ok bool) {
	paths, err := filepath.Glob("/proc/self/task/*/schedstat")
	if err != nil || len(paths) == 0 {
		return 0, 0, false
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			continue // the thread ended meanwhile
		}
		f := strings.Fields(string(b))
		if len(f) < 2 {
			return 0, 0, false
		}
		c, err1 := strconv.ParseInt(f[0], 10, 64)
		w, err2 := strconv.ParseInt(f[1], 10, 64)
		if err1 != nil || err2 != nil {
			return 0, 0, false
		}
		onCPU += time.Duration(c)
		waiting += time.Duration(w)
	}
	return onCPU, waiting, true
}
