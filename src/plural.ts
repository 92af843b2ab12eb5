// A count with its noun, as every report and terminal line writes one: "1 check", "2 checks", "0 checks".

/** `n` and `one`, or `many` (by default `one` + s) unless `n` is 1. */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
