// How the CLI tells load/probe.ts that the k6 running it reads token answers through harness's capped reader
// (k6/x/harness-token, load/checkpoint/token.go): the script may require that module only then, since a stock k6
// fails a script that asks for an extension it lacks, caught or not.
export const TOKEN_READER_ENV = 'HARNESS_TOKEN_READER';
export const CAPPED_READER = 'capped';
