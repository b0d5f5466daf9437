module github.com/gofork/gofork

go 1.24.0

require (
	github.com/google/pprof v0.0.0-20260709232956-b9395ee17fa0
	github.com/jfcg/sorty/v2 v2.1.1
	github.com/sourcegraph/conc v0.3.0
	go.uber.org/goleak v1.3.0
	golang.org/x/exp v0.0.0-20250620022241-b7579e27df2b
	golang.org/x/sync v0.16.0
	golang.org/x/sys v0.41.0
	gonum.org/v1/gonum v0.17.0
)

require (
	github.com/jfcg/sixb v1.4.1 // indirect
	go.uber.org/atomic v1.7.0 // indirect
	go.uber.org/multierr v1.9.0 // indirect
)
