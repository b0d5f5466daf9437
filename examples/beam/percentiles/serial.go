package percentiles

import "slices"

// Serial computes, without Beam and without gofork, the summaries the
// pipeline built for cfg outputs, in the order of the services' numbers: the
// oracle the pipeline is checked against. It draws the same records (not
// their text: it never parses), sorts each service's latencies with
// slices.Sort and sums them in a plain loop. cfg.Sources, cfg.Serial and
// cfg.Corrupt do not change it.
func Serial(cfg Config) []Summary {
	cfg.validate()
	micros := make([][]int64, cfg.Services)
	for b := range cfg.blocks() {
		cfg.forEachRequest(b, func(r request) {
			micros[r.service] = append(micros[r.service], r.micros)
		})
	}
	var out []Summary
	for svc, m := range micros {
		if len(m) == 0 {
			continue
		}
		slices.Sort(m)
		var sum int64
		for _, v := range m {
			sum += v
		}
		out = append(out, summarise(serviceName(svc), m, sum))
	}
	return out
}
