/**
 * Node's flags for a process that runs simulated conformance runs (npm test's workers, the sweep's). A simulated run
 * allocates a request's worth of objects every few microseconds, nearly all short-lived: a young generation of 64 MB
 * (V8's default is 16) took a faithful far run from 1.29 s to 1.08 s, and its CPU (the collector's threads included)
 * from 1.70 s to 1.37 s, measured side by side.
 */
export const SIMULATION_HEAP = ['--max-semi-space-size=64'];
