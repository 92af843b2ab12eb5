// Grades in colour for a person at a terminal, plain for a log or a pipe: decided once per stream. util.styleText
// alone checks neither NO_COLOR nor (before Node 20.20/22.13) whether the stream is a terminal, so this decides and
// tells it not to check again.
import { styleText } from 'node:util';
import { styled, type TerminalText, tty } from '../printable.ts';
import type { Grade } from '../runner/grades.ts';

const GRADE_COLOURS = {
  ERROR: 'magenta',
  FAIL: 'red',
  INCONCLUSIVE: 'yellow',
  WARN: 'yellow',
  SKIP: 'gray',
  INFO: 'cyan',
  PASS: 'green',
} as const satisfies Record<Grade, Parameters<typeof styleText>[0]>;

/** https://no-color.org: any non-empty NO_COLOR turns colour off; so does a stream that is not a terminal. */
export const wantsColour = (stream: { readonly isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean =>
  !env.NO_COLOR && stream.isTTY === true;

/** Paints `text` (by default the grade itself) in the grade's colour, or returns it unchanged when colour is off. */
export type GradePainter = (grade: Grade, text?: TerminalText) => TerminalText;

export const gradePainter = (
  stream: { readonly isTTY?: boolean },
  env: NodeJS.ProcessEnv = process.env,
): GradePainter => {
  const on = wantsColour(stream, env);
  return (grade, text = tty`${grade}`) =>
    on ? styled(text, (plain) => styleText(GRADE_COLOURS[grade], plain, { validateStream: false })) : text;
};
