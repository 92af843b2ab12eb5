// What a newcomer meets first: --help with examples and plain defaults, durations as people write them, and the
// flags-only path able to state side_effects off loopback. Nothing here sends a request off loopback.
import { describe, expect, it } from 'vitest';
import { harness, SIDE_BY_SIDE } from './run.ts';

// No test below shares state with another or times anything but its own process: they run side by side, as many
// at once as run.ts allows.
describe.concurrent('--help', SIDE_BY_SIDE, () => {
  it('conformance: examples, defaults as typed, and the exit table once', async () => {
    const { status, stdout } = await harness(['conformance', '--help']);
    expect(status).toBe(0);
    expect(stdout).toContain('Examples:\n  # ');
    expect(stdout).toContain('harness conformance --only AUTH-TOKEN-TYPE');
    expect(stdout).toMatch(/\(default:\s+json,junit,html,markdown\)/);
    expect(stdout).toContain('(default: opaque)');
    expect(stdout).not.toMatch(/default: [[{"]/);
    expect(stdout.match(/^Exit codes/gm)).toHaveLength(1);
  });

  it('load: says it needs k6, where it looks, and how to get it', async () => {
    const { stdout } = await harness(['load', '--help']);
    expect(stdout).toContain('Needs k6 v2.x: harness runs K6_BIN if set, else tools/k6');
    expect(stdout).toContain('go install go.k6.io/k6/v2@v2.2.0');
    expect(stdout).not.toMatch(/default: [[{"]/);
  });

  it('serve: shows how to save the profile', async () => {
    const { stdout } = await harness(['serve', '--help']);
    expect(stdout).toContain('harness serve > profile.yaml');
    expect(stdout).not.toMatch(/default: [[{"]/);
  });
});

describe.concurrent('durations as people write them', SIDE_BY_SIDE, () => {
  it('--deadline 1h is an hour', async () => {
    const { status, stdout } = await harness(['conformance', '--dry-run', '--deadline', '1h']);
    expect(status).toBe(0);
    expect(stdout).toContain('the run ends by its deadline, 60 min after it starts');
  });

  it('--duration 1m30s is read; 1.5m is refused, naming the flag', async () => {
    expect((await harness(['load', '--duration', '1m30s', '--list'])).status).toBe(0);
    const refused = await harness(['load', '--duration', '1.5m', '--list']);
    expect(refused.status).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain("option '--duration <d>' argument '1.5m' is invalid");
  });
});

describe.concurrent('--side-effects, for a target given by flags alone', SIDE_BY_SIDE, () => {
  const offLoopback = [
    'conformance',
    '--base-url',
    'https://staging.example.test',
    '--auth-url',
    'https://auth.example.test/oauth/token',
    '--tenant',
    'acme',
    '--dry-run',
  ];
  const env = { CLIENT_ID: 'cli-test', CLIENT_SECRET: 'cli-test-secret' };

  it('off loopback, without it: exit 2, saying which flag states it', async () => {
    const { status, stderr } = await harness(offLoopback, env);
    expect(status).toBe(2);
    expect(stderr).toContain('/side_effects: required when base_url is not on loopback');
    expect(stderr).toContain('--side-effects');
  });

  it('deny keeps harness off the four acting endpoints, as the profile field does', async () => {
    const { status, stdout } = await harness([...offLoopback, '--side-effects', 'deny'], env);
    expect(status).toBe(0);
    expect(stdout).toMatch(
      /^ {2}LIMIT-ENFORCED-TRANSACTION-EVENT +side_effects forbids calling POST \/event\/transaction\/v3$/m,
    );
  });

  it('a list allows only the endpoints named', async () => {
    const { status, stdout } = await harness(
      [...offLoopback, '--side-effects', 'POST /event/transaction/v3'],
      env,
    );
    expect(status).toBe(0);
    expect(stdout).not.toContain('forbids calling POST /event/transaction/v3');
    expect(stdout).toContain('forbids calling POST /api/rules/rerun');
  });

  it('an unknown endpoint key is refused, naming the flag', async () => {
    const { status, stderr } = await harness([...offLoopback, '--side-effects', 'POST /nope'], env);
    expect(status).toBe(2);
    expect(stderr).toContain("option '--side-effects <allow|deny|keys>' argument 'POST /nope' is invalid");
  });
});
