import { describe, expect, it } from 'vitest';
import { captureResponse, MAX_EVIDENCE_HEADER_CHARS } from '../../src/client/evidence.ts';
import { REDACTED, Redactor } from '../../src/client/redact.ts';

const CUT = MAX_EVIDENCE_HEADER_CHARS;
const note = (length: number) => `…(${length} bytes, first ${CUT} kept)`;

/** The evidence a response with one header `name: value` leaves, its secret registered first. */
const evidenceOf = (name: string, value: string, secret: string): string => {
  const redactor = new Redactor();
  redactor.addSecret(secret);
  return captureResponse(redactor, 200, { [name]: value }, '', 4096).headers[name]!;
};

describe('captureResponse on a header value longer than evidence keeps', () => {
  it('keeps its first characters and says how long it was', () => {
    const policies = Array.from({ length: 1000 }, (_, i) => `p${i};q=9;w=60`).join(', ');
    const kept = evidenceOf('ratelimit-policy', policies, 'unrelated-secret');
    expect(kept).toBe(`${policies.slice(0, CUT)}${note(policies.length)}`);
  });

  it('keeps a value of exactly the bound whole, with no note', () => {
    const value = 'v'.repeat(CUT);
    expect(evidenceOf('x-long', value, 'unrelated-secret')).toBe(value);
  });

  it('never shows part of a secret straddling the cut, wherever it lies across it', () => {
    // No character of the secret is a filler's, so any piece of it left visible would show.
    const secret = 'S3CR3T-0123456789-ABCDEFGHIJ';
    for (let start = CUT - secret.length; start <= CUT; start++) {
      const value = `${'.'.repeat(start)}${secret}${'.'.repeat(2 * CUT)}`;
      const kept = evidenceOf('x-echo', value, secret);
      const shown = kept.slice(0, kept.length - note(value.length).length);
      expect(kept.endsWith(note(value.length)), `secret at ${start}`).toBe(true);
      // Starting before the cut, the secret is hidden whole; starting at it, none of it is kept.
      expect(shown, `secret at ${start}`).toBe(
        start < CUT ? `${'.'.repeat(start)}${REDACTED}` : '.'.repeat(CUT),
      );
    }
  });

  it('hides a secret in a long value also where it is encoded, and in a credential header whole', () => {
    const secret = 'another-secret-0123456789';
    const encoded = Buffer.from(secret).toString('base64');
    const value = `${'.'.repeat(CUT - 10)}${encoded}${'.'.repeat(CUT)}`;
    expect(evidenceOf('x-echo', value, secret)).toBe(
      `${'.'.repeat(CUT - 10)}${REDACTED}${note(value.length)}`,
    );
    const credential = evidenceOf('authorization', `${secret} ${'t'.repeat(3 * CUT)}`, secret);
    expect(credential).not.toContain(secret.slice(0, 8));
    expect(credential.startsWith(`${REDACTED} `)).toBe(true);
  });
});
