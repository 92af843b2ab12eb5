// A manifest body and files to seal: what a certify run would hand sealArchive, without the run.
import type { ManifestBody } from '../../src/certify/manifest.ts';

export const AT = new Date('2026-11-21T23:45:12Z');

export const BODY: ManifestBody = {
  harness: { version: '0.1.0', commit: 'abc' },
  spec: { path: 'SPEC.md', sha256: 'f'.repeat(64) },
  node: 'v20.20.2',
  k6: 'k6 v2.2.0',
  target: {
    base_url: 'https://api.example.test',
    auth_url: 'https://auth.example.test/t',
    tenant: 'acme',
    embedded: false,
  },
  profile: null,
  startedAt: AT.toISOString(),
  finishedAt: AT.toISOString(),
  certifiable: true,
  notCertifiable: [],
  conformance: { exitCode: 0, summary: 'exit 0' },
  load: { exitCode: 0, summary: 'exit 0' },
};
export const FILES = [
  { path: 'SPEC.md', data: Buffer.from('# SPEC\n') },
  { path: 'conformance/conformance.json', data: Buffer.from('{"checks":[]}\n') },
  { path: 'load/load-all.xml', data: Buffer.from('<testsuites/>\n') },
];
