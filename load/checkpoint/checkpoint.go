// The harness-checkpoint output: what handleSummary would read of harness's metrics, written to a file every second,
// so that a k6 killed before its end-of-test summary (the OOM killer, a SIGKILL) leaves the phases it finished
// behind. `k6 run --out harness-checkpoint=FILE`; src/k6-driver/checkpoint.ts reads it.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"go.k6.io/k6/v2/metrics"
	"go.k6.io/k6/v2/output"
)

const period = time.Second

func init() {
	output.RegisterExtension("harness-checkpoint", newCheckpoint)
}

// Only harness's own metrics, the iteration counts and the requests' durations (each phase's latency): the rest of
// k6's samples are no evidence of a phase.
func kept(name string) bool {
	return strings.HasPrefix(name, "harness_") || name == "iterations" || name == "dropped_iterations" ||
		name == "http_req_duration"
}

type checkpoint struct {
	file    string
	buffer  output.SampleBuffer
	flusher *output.PeriodicFlusher
	// Keyed as handleSummary's metrics are: `name`, `name{scenario:S}` and `name{slot:N}`.
	sinks map[string]metrics.Sink
	mu    sync.Mutex
}

func newCheckpoint(params output.Params) (output.Output, error) {
	if params.ConfigArgument == "" {
		return nil, fmt.Errorf("harness-checkpoint needs a file: --out harness-checkpoint=FILE")
	}
	return &checkpoint{file: params.ConfigArgument, sinks: map[string]metrics.Sink{}}, nil
}

func (c *checkpoint) Description() string { return "harness-checkpoint (" + c.file + ")" }

func (c *checkpoint) Start() error {
	flusher, err := output.NewPeriodicFlusher(period, c.flush)
	c.flusher = flusher
	return err
}

func (c *checkpoint) AddMetricSamples(samples []metrics.SampleContainer) {
	c.buffer.AddMetricSamples(samples)
}

func (c *checkpoint) Stop() error {
	c.flusher.Stop()
	return nil
}

func (c *checkpoint) add(key string, sample metrics.Sample) {
	sink, ok := c.sinks[key]
	if !ok {
		sink = metrics.NewSink(sample.Metric.Type)
		c.sinks[key] = sink
	}
	sink.Add(sample)
}

// The values handleSummary reads of each kind of metric (load/lib/summary.ts).
func values(sink metrics.Sink) map[string]float64 {
	switch s := sink.(type) {
	case *metrics.CounterSink:
		return map[string]float64{"count": s.Value}
	case *metrics.GaugeSink:
		return map[string]float64{"value": s.Value, "min": s.Min, "max": s.Max}
	case *metrics.TrendSink:
		return map[string]float64{
			"count": float64(s.Count()), "min": s.Min(), "max": s.Max(),
			"med": s.P(0.5), "p(95)": s.P(0.95), "p(99)": s.P(0.99),
		}
	case *metrics.RateSink:
		return map[string]float64{"rate": float64(s.Trues) / float64(max(s.Total, 1))}
	}
	return map[string]float64{}
}

type snapshot struct {
	// Every sample k6 handed the output before this moment (epoch ms) is counted.
	WrittenAt int64                         `json:"writtenAt"`
	Metrics   map[string]map[string]float64 `json:"metrics"`
}

func (c *checkpoint) flush() {
	c.mu.Lock()
	defer c.mu.Unlock()
	at := time.Now()
	for _, container := range c.buffer.GetBufferedSamples() {
		for _, sample := range container.GetSamples() {
			name := sample.Metric.Name
			if !kept(name) {
				continue
			}
			c.add(name, sample)
			for _, tag := range []string{"scenario", "slot"} {
				if value, ok := sample.Tags.Get(tag); ok {
					c.add(name+"{"+tag+":"+value+"}", sample)
				}
			}
		}
	}
	shot := snapshot{WrittenAt: at.UnixMilli(), Metrics: map[string]map[string]float64{}}
	for key, sink := range c.sinks {
		shot.Metrics[key] = values(sink)
	}
	if err := writeAtomically(c.file, shot); err != nil {
		fmt.Fprintf(os.Stderr, "harness-checkpoint: %v\n", err)
	}
}

// A reader never sees half a checkpoint: the file is renamed into place whole.
func writeAtomically(file string, shot snapshot) error {
	data, err := json.Marshal(shot)
	if err != nil {
		return err
	}
	temp, err := os.CreateTemp(filepath.Dir(file), ".checkpoint-*")
	if err != nil {
		return err
	}
	defer os.Remove(temp.Name())
	if _, err := temp.Write(data); err != nil {
		temp.Close()
		return err
	}
	if err := temp.Close(); err != nil {
		return err
	}
	return os.Rename(temp.Name(), file)
}
