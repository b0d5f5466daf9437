// Package percentiles is an Apache Beam pipeline that computes exact per-service
// latency percentiles (p50, p99, p99.9) over request records, with gofork
// doing the shared-memory work inside each Beam worker.
//
// # The pipeline
//
// Build adds four stages to a Beam scope:
//
//   - Generate: a synthetic source. The records are request log lines
//     ("svc-007 GET /v1/items/4242 200 1834us"), produced in blocks of
//     BlockRecords lines, each block a pure function of (Config.Seed, block
//     number), so the same records come out whatever the runner, the number
//     of workers or the number of sources. Services follow a Zipf
//     distribution: a few services get most of the requests. The blocks are
//     split among Config.Sources independent branches, as a job reading
//     several log files would be; each branch is its own stage.
//   - Parse: each block is parsed and its latencies gathered per service.
//     The parallel parse is a counting sort by service in two fork-join
//     phases: reduce.Reduce parses runs of the block's bytes into pieces,
//     then, once each service's slice is allocated at its exact length,
//     par.For copies every piece's latencies into place. A block is tens of
//     thousands of records, so the fork pays for itself where the block has
//     many records per service; a block spread over thousands of services is
//     parsed serially (see minPerService), and so would a stage that received
//     one record per element be.
//   - GroupByKey by service.
//   - Summarise: each service's latencies are concatenated, sorted with
//     sortpar.Sort and summarised (reduce.Sum for the mean, nearest ranks
//     for the percentiles).
//
// With Config.Serial the same pipeline runs DoFns without gofork (a serial
// parse loop, slices.Sort, a plain sum): the baseline the gofork DoFns are
// measured against, with identical results.
//
// # Why gofork inside a Beam worker
//
// A Beam runner parallelises across bundles: it splits a stage's input into
// bundles and runs them on its workers' cores. A stage that gets few bundles
// at a time (the output of a GroupByKey whose groups are large, a source read
// as one bundle) leaves cores idle that gofork's fork-join tasks fill; where the
// runner already runs as many bundles as there are cores, the DoFns' forks
// find no idle worker and cost only their bookkeeping. All DoFns share the
// process's core.Default() pool, so bundles running at once share its workers
// instead of each starting its own goroutines.
//
// # Exactness
//
// Percentiles are nearest-rank: the q-quantile of n sorted values is the value
// at rank ceil(q·n), counted from 1. Everything is integer microseconds, so
// Serial, a plain Go computation of the same summaries from the same records,
// gives results equal to the pipeline's, field for field.
//
// # Failures
//
// A malformed record makes Parse panic, inside a gofork task, with a message
// that starts with "percentiles: malformed record" and quotes the record:
// exact percentiles cannot skip input. The core runtime carries the panic to
// the DoFn's goroutine, the Beam harness fails the bundle with the message,
// and the runner fails the job. Config.Corrupt writes such a record, to test
// that path.
package percentiles
