// Package openblas measures gofork's linalg.BLAS against OpenBLAS, called
// through gonum.org/v1/netlib with cgo, and against gonum's own BLAS, in one
// run. It is a module of its own so that the gofork module stays free of
// cgo; see README.md for the install step and the commands.
package openblas

/*
#cgo LDFLAGS: -lopenblas
char *openblas_get_corename(void);
int openblas_get_num_threads(void);
*/
import "C"

// CoreName returns the name of the kernel set OpenBLAS chose for this CPU
// (or was told to use with OPENBLAS_CORETYPE), such as "Haswell" or
// "SkylakeX".
func CoreName() string { return C.GoString(C.openblas_get_corename()) }

// Threads returns the number of threads OpenBLAS runs on
// (OPENBLAS_NUM_THREADS).
func Threads() int { return int(C.openblas_get_num_threads()) }
