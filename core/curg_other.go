//go:build !386 && !amd64 && !arm && !arm64

package core

// curg identifies the calling goroutine (see curg.go) where no assembly
// version reads its g address: js/wasm, mips, ppc64, riscv64, s390x, ...
func curg() uintptr { return curgStack() }
