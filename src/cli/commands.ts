// Every command that runs a server or sends traffic, and its options, is declared here, once (report-commands.ts
// declares those that read runs written before): with @commander-js/extra-typings each builder's type is what its
// options parse to, so a command's options type is read off its declaration (OptionsOf) and a flag is one
// declaration plus its use. program.ts gives each command its action; certify parses its two runs' options with
// these same builders, so they get the defaults a user's command line gets.
import { Command, Option, type OptionValues } from '@commander-js/extra-typings';
import { DIALECT_NAMES } from '../../core/ratelimit-dialects.ts';
import { HARNESS } from '../command-line.ts';
import { FAULT_FACTORS, FAULTS, LIMITER_KINDS, TOKEN_KINDS } from '../reference/index.ts';
import { NETWORK_CONDITIONS } from '../reference/toxiproxy.ts';
import { EXIT_CODES_HELP } from './exit-codes.ts';
import { CONFORMANCE_HELP, LOAD_HELP, SERVE_HELP } from './help.ts';
import {
  duration,
  formats,
  fraction,
  limitOverride,
  list,
  oneOf,
  port,
  positiveInt,
  seed,
  sideEffects,
} from './parse.ts';

/** The options a command's builder parses to. */
export type OptionsOf<Build extends () => Command<unknown[], OptionValues, OptionValues>> = ReturnType<
  ReturnType<Build>['opts']
>;

const EMBEDDED_ONLY = 'embedded server only: ';
const REPORT_DIR = [
  '--report-dir <dir>',
  'where reports/<timestamp>/ and the latest link go',
  'reports',
] as const;

const faultOption = (description: string) =>
  new Option('--fault <name>', description).argParser(
    oneOf(
      FAULTS.map((f) => f.name),
      `a fault name (see ${HARNESS} serve --list-faults)`,
    ),
  );

const tokensOption = (description: string) =>
  new Option('--tokens <kind>', `${description}: opaque, or JWTs signed with jose (ES256)`)
    .argParser(oneOf(TOKEN_KINDS))
    .default('opaque' as const);

const rateLimitFieldsOption = (description: string) =>
  new Option(
    '--ratelimit-fields <dialect>',
    `${description} (${DIALECT_NAMES.join(', ')}; SPEC.md asks for none, so the default sends none)`,
  ).argParser(oneOf(DIALECT_NAMES));

const limitOption = (description: string) =>
  new Option('--limit <bucket=count/unit>', `${description}, e.g. transaction-event=430/second`)
    .argParser(limitOverride)
    .default({});

/** Grades that are no failure of the server still fail the run with --strict. */
const strictOption = (grades: string) => new Option('--strict', `exit 1 on ${grades} too`);

/** Where conformance and replay find their target: a profile, flags over it, or neither (the embedded server). */
const withTargetOptions = <A extends unknown[], O extends OptionValues, G extends OptionValues>(
  command: Command<A, O, G>,
) =>
  command
    .option('--profile <file>', 'target profile (YAML or JSON)')
    .option(
      '--base-url <url>',
      'API base URL (overrides the profile; without one, CLIENT_ID/CLIENT_SECRET from env)',
    )
    .option('--auth-url <url>', 'token endpoint URL (overrides the profile)')
    .option('--tenant <id>', 'tenant id (overrides the profile)');

/** How conformance and load reach a target on an enterprise network; each flag has a profile field of its own. */
const withNetworkOptions = <A extends unknown[], O extends OptionValues, G extends OptionValues>(
  command: Command<A, O, G>,
) =>
  command
    .option('--ca <file>', 'also trust this CA certificate (PEM) for the target (profile: tls.ca)')
    .option('--cert <file>', 'client certificate (PEM) for mutual TLS (profile: tls.cert)')
    .option('--key <file>', 'private key (PEM) of the client certificate (profile: tls.key)')
    .addOption(
      new Option(
        '--timeout <ms>',
        'longest a request may take (profile: timeout_ms; default 15000)',
      ).argParser(positiveInt),
    )
    .option(
      '--insecure',
      'do not verify TLS certificates: warns loudly, and the run cannot certify (profile: tls.insecure)',
    );

export const serveCommand = () =>
  new Command('serve')
    .description('Start the reference server (faithful to SPEC.md, or with one injected fault) on loopback')
    .addOption(new Option('--host <address>', 'loopback address to bind').default('127.0.0.1'))
    .addOption(new Option('--port <n>', 'port; 0 picks a free one').argParser(port).default(0))
    .addOption(faultOption('break exactly one SPEC.md rule (see --list-faults)'))
    .option('--list-faults', 'print the injectable faults with the clause each one breaks, and exit')
    .addOption(
      new Option(
        '--fault-factor <x>',
        `scale a fault that takes a factor (${Object.keys(FAULT_FACTORS).join(', ')}); see --list-faults`,
      ).argParser(fraction),
    )
    .addOption(
      new Option('--minute-ms <ms>', 'length of a "minute" for per-minute limits (shortens tests)').argParser(
        positiveInt,
      ),
    )
    .addOption(
      new Option('--token-lifetime <seconds>', 'token lifetime (SPEC.md: 3600)').argParser(positiveInt),
    )
    .addOption(limitOption('override one bucket'))
    .addOption(tokensOption('the access tokens the server hands out'))
    .addOption(rateLimitFieldsOption('send RateLimit header fields in this dialect'))
    .addOption(
      new Option('--limiter <kind>', 'the algorithm behind every limit (SPEC.md names none)')
        .argParser(oneOf(LIMITER_KINDS))
        .default('anchored' as const),
    )
    .option(
      '--limit-before-auth',
      'gateway mode: count requests toward limits before the 401/403 checks, as a gateway in front would',
    )
    .addOption(
      new Option(
        '--network <condition>',
        'put Toxiproxy in front (lan: no toxic; region: 40 ± 5 ms each way; far: 100 ± 30 ms)',
      ).argParser(oneOf(NETWORK_CONDITIONS)),
    )
    .option('--profile-out <file>', 'also write the ready-to-use profile (with local secrets) to this file')
    .option('--tls-cert <file>', 'serve HTTPS with this certificate (PEM)')
    .option('--tls-key <file>', 'the private key (PEM) of --tls-cert')
    .option('--tls-client-ca <file>', 'mutual TLS: require client certificates signed by this CA (PEM)')
    .addHelpText('after', SERVE_HELP);
export type ServeOptions = OptionsOf<typeof serveCommand>;

export const conformanceCommand = () =>
  withNetworkOptions(
    withTargetOptions(
      new Command('conformance').description(
        'Check a target against every SPEC.md rule (no target: the embedded reference server)',
      ),
    )
      .addOption(
        new Option(
          '--side-effects <allow|deny|keys>',
          'whether harness may call the endpoints that act (submit, re-run, execute, upload URL): allow, deny, or ' +
            'the endpoint keys it may, comma-separated; required off loopback (overrides profile: side_effects)',
        ).argParser(sideEffects),
      )
      .addOption(faultOption(`${EMBEDDED_ONLY}break one rule (see harness serve --list-faults)`))
      .addOption(tokensOption(`${EMBEDDED_ONLY}the access tokens it hands out`))
      .addOption(rateLimitFieldsOption(`${EMBEDDED_ONLY}send RateLimit header fields`))
      .addOption(
        new Option('--only <ids>', 'run only these check IDs or tags (comma-separated)').argParser(list),
      )
      .addOption(
        new Option('--skip <ids>', 'do not run these check IDs or tags (comma-separated)').argParser(list),
      )
      .addOption(strictOption('WARN'))
      .option('--require-certifiable', 'exit 1 when the run cannot certify the target, saying why')
      .option('--slow', 'also run checks that wait out the token lifetime (an hour against a real target)')
      .option(
        '--dry-run',
        'print the plan (checks, requests per endpoint, how long each limit stays spent) and send nothing',
      )
      .addOption(
        new Option(
          '--max-requests <n>',
          'send at most this many requests in all (tokens included); checks that would exceed it SKIP',
        ).argParser(positiveInt),
      )
      .addOption(
        new Option(
          '--seed <n>',
          "where the probes' wait polls land in each window, as a report's seed records it (default: a new one)",
        ).argParser(seed),
      )
      .addOption(
        new Option(
          '--deadline <d>',
          'end the run after this long, e.g. 10m or 1h: checks still running are INCONCLUSIVE, reports are written ' +
            "(default: twice the plan's estimate plus four request timeouts)",
        ).argParser(duration),
      )
      .option(...REPORT_DIR)
      .addOption(
        new Option('--format <list>', 'report formats, comma-separated')
          .argParser(formats)
          .default(formats('json,junit,html,markdown')),
      )
      .option(
        '--baseline <file>',
        'expected grades by check ID (or an earlier conformance.json); any difference exits 1',
      )
      .option(
        '--list',
        'print every check (ID, tags, clause, title), the names --only and --skip take, and exit',
      )
      .option('--json', 'with --list: print the checks as JSON (--format names report formats, not this)')
      .option(
        '--print-profile-schema',
        "print the profile's JSON Schema (schema/profile.schema.json, for an editor) and exit",
      ),
  )
    .addHelpText('after', CONFORMANCE_HELP)
    .addHelpText('after', EXIT_CODES_HELP);
export type ConformanceOptions = OptionsOf<typeof conformanceCommand>;

export const loadCommand = () =>
  withNetworkOptions(
    new Command('load')
      .description(
        'Drive each endpoint past its limit with k6 and report the limit enforced (no profile: embedded server)',
      )
      .option('--profile <file>', 'target profile (YAML or JSON)')
      .addOption(
        new Option('--scenario <names>', 'scenarios to run, comma-separated, or all (see --list)')
          .argParser(list)
          .default(['transactions'] as string[]),
      )
      .addOption(
        new Option(
          '--rate <n>',
          'requests per window for the over phase (default twice the limit)',
        ).argParser(positiveInt),
      )
      .addOption(
        new Option(
          '--duration <d>',
          "each phase's length, not the run's (a scenario has three phases or more; the first line says the run's total), e.g. 45s, 3m or 1m30s (default per phase: 5, 8 and 10 windows of a per-second limit; 1.2, 2.5 and 3 of a per-minute one)",
        ).argParser(duration),
      )
      .addOption(
        new Option('--instances <n>', 'local k6 processes sharing the schedule')
          .argParser(positiveInt)
          .default(1),
      )
      .option(...REPORT_DIR)
      .option('--list', 'list the scenarios with the limit each one probes, and exit')
      .option(
        '--k8s <dir>',
        'run nothing here: write k6-operator manifests to <dir> for --instances runner pods (load/k8s/README.md)',
      )
      .option('--image <ref>', 'with --k8s: the runner image, k6 v2.2.0 with a shell')
      .addOption(
        new Option(
          '--start-in <d>',
          'with --k8s: when the runners start together, from now (default 3m)',
        ).argParser(duration),
      )
      .addOption(strictOption('WARN'))
      .addOption(faultOption(`${EMBEDDED_ONLY}break one rule (see harness serve --list-faults)`))
      .addOption(limitOption(`${EMBEDDED_ONLY}override one bucket`))
      .addOption(rateLimitFieldsOption(`${EMBEDDED_ONLY}send RateLimit header fields`)),
  )
    .addHelpText('after', LOAD_HELP)
    .addHelpText('after', EXIT_CODES_HELP);
export type LoadOptions = OptionsOf<typeof loadCommand>;

export const loadMergeCommand = () =>
  new Command('merge')
    .description(
      "Grade runners' summaries (k6-operator pods, or runners/ of a load run) as one run, with load's reports and " +
        'exit codes; a lost, doubled, foreign or failed runner leaves the phases INCONCLUSIVE',
    )
    .argument('<files...>', 'runner summary files (runner-<i>.json), or with --from-logs kubectl logs output')
    .option(
      '--from-logs',
      'read the summaries runners printed between markers (HARNESS_SUMMARY_STDOUT=markers)',
    )
    .option(...REPORT_DIR)
    .addOption(strictOption('WARN'))
    .addHelpText('after', EXIT_CODES_HELP);
export type LoadMergeOptions = OptionsOf<typeof loadMergeCommand>;

export const replayCommand = () =>
  withNetworkOptions(
    withTargetOptions(
      new Command('replay')
        .description(
          'Run one check again as conformance ran it (a limit check with its whole probe: bursts a loop of curls ' +
            "cannot send in time), its verdict and evidence printed last; a limit FAIL's report names this command. " +
            'With --failed, every check a run did not pass, each marked still failing, fixed or not verified. ' +
            'A replay writes its reports but leaves the latest link where it was',
        )
        .argument('[check-id]', 'the check to run (as --only takes it)')
        .option(
          '--failed [run]',
          "replay a run's FAIL, WARN and INCONCLUSIVE checks (run: its folder; default <report-dir>/latest)",
        ),
    )
      .addOption(faultOption(`${EMBEDDED_ONLY}break one rule (see harness serve --list-faults)`))
      .addOption(tokensOption(`${EMBEDDED_ONLY}the access tokens it hands out`))
      .addOption(rateLimitFieldsOption(`${EMBEDDED_ONLY}send RateLimit header fields`))
      .addOption(strictOption('WARN'))
      .option(...REPORT_DIR),
  ).addHelpText('after', EXIT_CODES_HELP);
export type ReplayOptions = OptionsOf<typeof replayCommand>;

export const certifyCommand = () =>
  new Command('certify')
    .description(
      'Run conformance (every check) and load --scenario all, and write one signed archive of every report ' +
        '(no profile: the embedded server, not certifiable)',
    )
    .option('--profile <file>', 'target profile (YAML or JSON) with all four clients')
    .requiredOption('--key <file>', 'Ed25519 private key (PEM) that signs the manifest')
    .requiredOption('--out <file>', 'the archive to write (.tgz)')
    .option(
      '--report-dir <dir>',
      'where the conformance and load runs write their reports, as those commands do',
      'reports',
    )
    .addHelpText('after', EXIT_CODES_HELP);
export type CertifyOptions = OptionsOf<typeof certifyCommand>;

/**
 * What the CLI would parse `args` to for `build`'s command: a run started from code (certify's two) gets the very
 * defaults and parsers a user's command line gets.
 */
export const parsedOptions = <O extends OptionValues>(
  build: () => Command<unknown[], O, OptionValues>,
  args: readonly string[],
): O =>
  build()
    .exitOverride()
    .parse([...args], { from: 'user' })
    .opts();
