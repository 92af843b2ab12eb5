// Exit 3 leaves the reports a CI page shows, each saying "target unreachable": without them the job summary and test
// report steps fail on a missing file and the page never says why.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.ts';
import { all, parseXml } from '../report/xml.ts';
import { listenOnLoopback } from '../support/listen.ts';
import { harness, profileFor, secretsOf, tmp } from './run.ts';

/** A profile whose server has closed: nothing listens at its address. */
const deadTarget = async () => {
  const server = await startReferenceServer({ minuteMs: 2000 });
  const profile = profileFor(server);
  const secrets = secretsOf(server);
  await server.close();
  return { ...profile, secrets };
};

/** Each testcase's name and its error's message: the one error is what a test viewer shows. */
const testcases = (xml: string) =>
  all(parseXml(xml), 'testcase').map((testcase) => ({
    name: testcase.attrs.name,
    errors: all(testcase, 'error').map((error) => error.attrs.message),
  }));

const latestFiles = (reports: string) => readdirSync(join(reports, 'latest')).sort();

describe('a target that does not answer (exit 3)', () => {
  it('conformance writes conformance.md and a JUnit error saying so, in reports/latest', async () => {
    const { file, env, secrets } = await deadTarget();
    const reports = tmp();
    const run = await harness(['conformance', '--profile', file, '--report-dir', reports], env);
    expect(run.status).toBe(3);
    expect(run.stdout).toMatch(/^summary: target unreachable: no check run \(exit 3\)$/m);
    expect(latestFiles(reports)).toEqual(['conformance.md', 'conformance.xml']);
    const markdown = readFileSync(join(reports, 'latest', 'conformance.md'), 'utf8');
    expect(markdown).toMatch(/^# harness conformance: target unreachable$/m);
    expect(markdown).toMatch(/target unreachable, no check run: http:\/\/127\.0\.0\.1:\d+/);
    const xml = readFileSync(join(reports, 'latest', 'conformance.xml'), 'utf8');
    const [testcase, ...others] = testcases(xml);
    expect(others).toEqual([]);
    expect(testcase?.name).toBe('target unreachable');
    expect(testcase?.errors).toEqual([
      expect.stringMatching(/^target unreachable, no check run: http:\/\/127\.0\.0\.1:\d+/),
    ]);
    for (const secret of secrets) expect(markdown + xml + run.stdout + run.stderr).not.toContain(secret);
  });

  it('conformance writes only the formats asked for', async () => {
    const { file, env } = await deadTarget();
    const reports = tmp();
    const run = await harness(
      ['conformance', '--profile', file, '--report-dir', reports, '--format', 'junit'],
      env,
    );
    expect(run.status).toBe(3);
    expect(latestFiles(reports)).toEqual(['conformance.xml']);
  });

  it('load writes a JUnit error saying so, in reports/latest', async () => {
    const { file, env, secrets } = await deadTarget();
    const reports = tmp();
    const run = await harness(
      ['load', '--profile', file, '--scenario', 'transactions', '--report-dir', reports],
      env,
    );
    expect(run.status).toBe(3);
    expect(run.stdout).toMatch(/^summary: target unreachable: no phase run \(exit 3\)$/m);
    expect(latestFiles(reports)).toEqual(['load-transactions.xml']);
    const xml = readFileSync(join(reports, 'latest', 'load-transactions.xml'), 'utf8');
    const [testcase, ...others] = testcases(xml);
    expect(others).toEqual([]);
    expect(testcase?.name).toBe('target unreachable');
    expect(testcase?.errors).toEqual([
      expect.stringMatching(/^target unreachable, no phase run: http:\/\/127\.0\.0\.1:\d+/),
    ]);
    for (const secret of secrets) expect(xml + run.stdout + run.stderr).not.toContain(secret);
  });

  it('load names a target that answers but issues no token "target unusable", in the same JUnit error', async () => {
    const down = createServer((_req, res) => res.writeHead(503).end('down'));
    const { port } = await listenOnLoopback(down);
    try {
      const { file, env } = await deadTarget();
      const profile = readFileSync(file, 'utf8').replace(/127\.0\.0\.1:\d+/g, `127.0.0.1:${port}`);
      const moved = join(tmp(), 'profile.yaml');
      writeFileSync(moved, profile);
      const reports = tmp();
      const run = await harness(
        ['load', '--profile', moved, '--scenario', 'transactions', '--report-dir', reports],
        env,
      );
      expect(run.status).toBe(3);
      expect(run.stdout).toMatch(/^summary: target unusable: no phase run \(exit 3\)$/m);
      const xml = readFileSync(join(reports, 'latest', 'load-transactions.xml'), 'utf8');
      expect(testcases(xml)).toEqual([
        {
          name: 'target unusable',
          errors: [expect.stringMatching(/^target unusable, no phase run: pre-flight: .*answered 503/)],
        },
      ]);
    } finally {
      down.close();
    }
  });
});
