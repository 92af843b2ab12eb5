// The bound another tenant's admits are held to, from this tenant's answers that came back before theirs left: a
// request of this tenant sent before theirs but answered after may have reached the server behind them, and its 429
// be theirs having taken the last tokens of a shared bucket (a token bucket shared by every tenant PASSed at far so).
import { describe, expect, it } from 'vitest';
import { admittedBeyondShared } from '../../../src/runner/probe/tenant-isolation.ts';

const limit = { count: 120, windowMs: 2000 };
const own = (label: string, sent: number, answered: number, status: number) => ({
  label,
  sent,
  answered,
  status,
  ours: true,
});
const theirs = (sent: number, answered: number, admitted: number, of: number) =>
  Array.from({ length: of }, (_, i) => ({ sent, answered, status: i < admitted ? 202 : 429 }));

describe('admittedBeyondShared', () => {
  // The fresh burst's 429 answered at 1000, theirs sent at 1010 and answered by 1250: a shared bucket refills
  // ⌊120 × 250 / 2000⌋ = 15 tokens from the 429's sending, plus one.
  const fresh = own('fresh #121', 1000, 1000, 429);

  it('is a PASS with more admitted than a shared bucket refills since the last 429 answered before them', () => {
    const proof = admittedBeyondShared([fresh], theirs(1010, 1250, 17, 20), limit);
    expect(proof?.explain((t) => `${t}`)).toMatch(/17 of 20 were admitted .* admits at most 16 by then/);
  });

  it('is nothing with no more admitted than that', () => {
    expect(admittedBeyondShared([fresh], theirs(1010, 1250, 16, 20), limit)).toBeUndefined();
  });

  it('does not count from a 429 sent before them but answered after: the server may have taken theirs first', () => {
    // A variant's 429 sent at 1005, answered at 1240: counted from it, 16 admitted would be past ⌊120 × 245 / 2000⌋
    // + 1 = 15, but it may be theirs that emptied the bucket.
    const late = own('another application #1', 1005, 1240, 429);
    expect(admittedBeyondShared([fresh, late], theirs(1010, 1250, 16, 20), limit)).toBeUndefined();
  });

  it('needs a 429 answered before they went', () => {
    const late = own('fresh #121', 1005, 1240, 429);
    expect(admittedBeyondShared([late], theirs(1010, 1250, 20, 20), limit)).toBeUndefined();
  });
});
