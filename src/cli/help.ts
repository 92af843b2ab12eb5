// What `--help` adds to commander's option list: examples per command, where load finds k6, and defaults written
// as a person types them. The exit table stays in exit-codes.ts, its one source.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { HARNESS } from '../command-line.ts';
import { HOW_TO_BUILD, TOOLS_DIR } from '../k6-driver/k6.ts';

/** `harness` as it runs from a shell (command-line.ts), in an example's command and in its comment. */
const runnable = (text: string): string => text.replace(/(^|: |\()harness /g, `$1${HARNESS} `);

/** Each example under a comment saying what it does: copied as is, it runs. */
const examples = (rows: readonly (readonly [string, string])[]): string =>
  `\nExamples:\n${rows.map(([command, what]) => `  # ${runnable(what)}\n  ${runnable(command)}`).join('\n')}`;

export const SERVE_HELP = examples([
  [
    'harness serve > profile.yaml',
    'save the profile it prints; then, in another terminal: harness conformance --profile profile.yaml',
  ],
  ['harness serve --fault missing-token-accepted', 'break one rule (harness serve --list-faults)'],
  ['harness serve --network far', 'behind Toxiproxy (TOXIPROXY_BIN, or tools/ in a clone)'],
]);

export const CONFORMANCE_HELP = examples([
  ['harness conformance', 'against the embedded reference server, in seconds'],
  ['harness conformance --profile staging.yaml', 'against the target the profile describes'],
  [
    'harness conformance --base-url URL --auth-url URL --tenant ID --side-effects deny',
    'no profile: CLIENT_ID, CLIENT_SECRET from the environment',
  ],
  ['harness conformance --list', 'every check ID and tag (--json: as JSON)'],
  ['harness conformance --only AUTH-TOKEN-TYPE,bearer', 'only these checks and tags'],
  ['harness conformance --profile staging.yaml --dry-run', 'what it would send, sending nothing'],
  ['harness conformance --profile staging.yaml --slow --deadline 1h30m', 'token expiry included'],
]);

export const LOAD_HELP =
  `\nNeeds k6 v2.x: harness runs K6_BIN if set, else ${TOOLS_DIR}/k6 in its own folder, else the first k6 v2.x on PATH.\n` +
  `To get one, ${HOW_TO_BUILD}.\n` +
  `${examples([
    ['harness load', 'the transactions scenario against the embedded server'],
    ['harness load --list', 'the scenarios, with the limit each one probes'],
    ['harness load --profile staging.yaml --scenario all', 'every scenario against a target'],
    ['harness load --profile staging.yaml --duration 1m30s --instances 2', 'longer phases, two k6 processes'],
    [
      'harness load --profile staging.yaml --instances 4 --k8s k8s --image REF',
      'k6-operator manifests for 4 pods',
    ],
  ])}`;

/** `(default: json,junit,html,markdown)` rather than commander's JSON; an empty override list shows as none. */
export const plainDefaults = (program: CommandUnknownOpts): void => {
  for (const command of program.commands) {
    for (const option of command.options) {
      const value: unknown = option.defaultValue;
      if (value === undefined || option.defaultValueDescription !== undefined) continue;
      option.defaultValueDescription = Array.isArray(value)
        ? value.join(',')
        : typeof value === 'object' && value !== null
          ? Object.keys(value).length === 0
            ? 'none'
            : JSON.stringify(value)
          : String(value);
    }
  }
};
