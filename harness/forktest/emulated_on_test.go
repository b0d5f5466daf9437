//go:build emulated

package forktest

// emulated says the tests run under an emulator (qemu-user in CI, which
// builds them with -tags emulated): the slowest ones are sized as under the
// race detector, about ten times slower than native too.
const emulated = true
