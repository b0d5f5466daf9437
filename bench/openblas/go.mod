module github.com/gofork/gofork/bench/openblas

go 1.24.0

require (
	github.com/gofork/gofork v0.0.0
	gonum.org/v1/gonum v0.17.0
	gonum.org/v1/netlib v0.0.0-20190313105609-8cb42192e0e0
)

require (
	golang.org/x/exp v0.0.0-20250620022241-b7579e27df2b // indirect
	golang.org/x/sys v0.41.0 // indirect
)

replace github.com/gofork/gofork => ../..
