// Validation of JUnit output against the schema Jenkins' xUnit plugin publishes (test/fixtures/junit/SOURCE.md), with
// xmllint when it is installed: the tests that use it skip, saying why, when it is not.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const XMLLINT = ['/usr/bin/xmllint', '/usr/local/bin/xmllint'].find(existsSync);
export const XMLLINT_TITLE = `validates against Jenkins' junit-10.xsd with xmllint${XMLLINT === undefined ? ' (skipped: xmllint not installed; apt-get install libxml2-utils)' : ''}`;

const XSD = join(import.meta.dirname, '../fixtures/junit/junit-10.xsd');

/** xmllint's complaints, empty when the document is valid. */
export const schemaErrors = (xml: string): string => {
  const dir = mkdtempSync(join(tmpdir(), 'harness-junit-'));
  try {
    const file = join(dir, 'report.xml');
    writeFileSync(file, xml);
    const run = spawnSync(XMLLINT!, ['--noout', '--nonet', '--schema', XSD, file], { encoding: 'utf8' });
    return run.status === 0 ? '' : run.stderr || `xmllint exited with ${run.status}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
