// Renders the HTML report in headless Chromium: proof that it displays offline as a browser sees it, not only that
// the markup contains the right strings. Skipped where Chromium is not installed (apt-get install chromium).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumFlags } from '../../scripts/screenshots.ts';
import { toHtml } from '../../src/report/html.ts';
import { hasTool, needing } from '../support/tools.ts';
import { FIXTURE } from './fixture.ts';

const run = promisify(execFile);
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let tmp: string;

const chromium = async (url: string, ...extra: string[]): Promise<string> => {
  const profile = await mkdtemp(join(tmp, 'profile-'));
  const flags = [...chromiumFlags(profile), '--window-size=1200,900'];
  const { stdout } = await run(CHROMIUM, [...flags, ...extra, url], { timeout: 60_000, maxBuffer: 16 << 20 });
  return stdout;
};

const screenshot = async (name: string, html: string): Promise<{ png: Buffer; size: number }> => {
  const page = join(tmp, `${name}.html`);
  const png = join(tmp, `${name}.png`);
  await writeFile(page, html);
  await chromium(`file://${page}`, `--screenshot=${png}`);
  return { png: await readFile(png), size: (await stat(png)).size };
};

describe.skipIf(!hasTool('chromium'))(needing('chromium', 'HTML report in headless Chromium'), () => {
  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'harness-chromium-'));
  });
  afterAll(() => rm(tmp, { recursive: true, force: true }));

  it('renders a non-blank 1200x900 screenshot', { timeout: 120_000 }, async () => {
    const report = await screenshot('report', toHtml(FIXTURE));
    const blank = await screenshot(
      'blank',
      '<!DOCTYPE html><html><head><title>blank</title></head><body></body></html>',
    );
    expect(report.png.subarray(0, 8).equals(PNG_MAGIC)).toBe(true);
    // IHDR is the first chunk: length (4), type (4), then width and height as big-endian 32-bit integers.
    expect(report.png.subarray(12, 16).toString('latin1')).toBe('IHDR');
    expect([report.png.readUInt32BE(16), report.png.readUInt32BE(20)]).toEqual([1200, 900]);
    // A page of text, badges and borders compresses far worse than a uniform one.
    expect(report.size).toBeGreaterThan(20_000);
    expect(report.size).toBeGreaterThan(blank.size * 5);
  });

  it('shows the summary in the rendered DOM', { timeout: 120_000 }, async () => {
    const page = join(tmp, 'dom.html');
    await writeFile(page, toHtml(FIXTURE));
    const dom = await chromium(`file://${page}`, '--dump-dom');
    expect(dom).toContain('Certifiable: no');
    for (const text of ['FAIL 2', 'INCONCLUSIVE 1', 'WARN 1', 'SKIP 1', 'INFO 1', 'PASS 4']) {
      expect(dom).toContain(text);
    }
    expect(dom).toContain('ERROR-BAD-SCOPE');
  });

  it('keeps the ▸ toggle beside a card title that wraps, at 800 px', { timeout: 120_000 }, async () => {
    const long = { ...FIXTURE.checks[0]!, title: 'a card title long enough to wrap '.repeat(6) };
    // The measuring script is the test's, added to a copy: the report itself runs none.
    const measure = `<script>addEventListener('load', () => {
        const summary = document.querySelector('#check-${long.id} > summary').getBoundingClientRect();
        const head = document.querySelector('#check-${long.id} .head').getBoundingClientRect();
        document.body.insertAdjacentHTML('beforeend', '<pre id="measured">' + JSON.stringify({
          headBelowTop: head.top - summary.top, headHeight: head.height, headLeft: head.left - summary.left }) + '</pre>');
      });</script>`;
    const page = join(tmp, 'wrap.html');
    await writeFile(page, toHtml({ ...FIXTURE, checks: [long] }).replace('</body>', `${measure}</body>`));
    const dom = await chromium(`file://${page}`, '--dump-dom', '--window-size=800,900');
    const measured = JSON.parse(dom.match(/<pre id="measured">(.*?)<\/pre>/)![1]!);
    expect(measured.headHeight).toBeGreaterThan(40); // the title did wrap
    expect(measured.headBelowTop).toBeLessThan(14); // on the toggle's line: only the summary's padding above
    expect(measured.headLeft).toBeGreaterThan(20); // to the right of the toggle, not under it
  });
});
