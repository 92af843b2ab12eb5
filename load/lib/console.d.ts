// k6's console, which the load tsconfig's ES2022 lib leaves out: what a VU logs goes to k6's stderr, which the CLI
// folds into one line per kind (src/k6-driver/run.ts).
declare const console: { warn(message: string): void };
