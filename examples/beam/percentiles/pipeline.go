package percentiles

import (
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

func init() {
	register.DoFn2x0[[]byte, func([]byte)](&generateFn{})
	register.DoFn2x0[[]byte, func(string, Batch)](&parseFn{})
	register.DoFn3x0[string, func(*Batch) bool, func(Summary)](&summariseFn{})
	register.Emitter1[[]byte]()
	register.Emitter2[string, Batch]()
	register.Emitter1[Summary]()
	register.Iter1[Batch]()
	beam.RegisterCoder(reflect.TypeFor[Batch](), encodeBatch, decodeBatch)
	beam.RegisterType(reflect.TypeFor[Summary]())
}

// Build adds the pipeline for cfg to s and returns its output: a PCollection
// of Summary, one per service that has records. It panics, naming the field,
// if cfg is not valid.
func Build(s beam.Scope, cfg Config) beam.PCollection {
	cfg.validate()
	s = s.Scope("percentiles")
	parsed := make([]beam.PCollection, cfg.Sources)
	for k := range parsed {
		blocks := beam.ParDo(s.Scope("Generate"), &generateFn{Cfg: cfg, Source: k}, beam.Impulse(s))
		parsed[k] = beam.ParDo(s.Scope("Parse"), &parseFn{Serial: cfg.Serial}, blocks)
	}
	grouped := beam.GroupByKey(s, beam.Flatten(s, parsed...))
	return beam.ParDo(s.Scope("Summarise"), &summariseFn{Serial: cfg.Serial}, grouped)
}

// generateFn is one branch of the Generate stage: it turns its impulse into
// the text blocks of source Source.
type generateFn struct {
	Cfg    Config
	Source int
}

// ProcessElement emits the blocks of f.Source, in order.
func (f *generateFn) ProcessElement(_ []byte, emit func([]byte)) {
	lo, hi := f.Cfg.sourceBlocks(f.Source)
	for b := lo; b < hi; b++ {
		emit(f.Cfg.block(b))
	}
}
