//go:build !emulated

package forktest

// emulated says the tests run under an emulator; see emulated_on_test.go.
const emulated = false
