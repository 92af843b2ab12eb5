// The token reader's words (core/token-reader.ts), said alike by the k6 script and by the verdict.
import { describe, expect, it } from 'vitest';
import { tokenEndpointSaid, unreadTokenAnswerSaid } from '../../core/token-reader.ts';

describe('unreadTokenAnswerSaid', () => {
  it('says what the capped reader did with an unread answer, and what a stock k6 did instead', () => {
    expect(unreadTokenAnswerSaid('encoded', true)).toBe(
      'sent an encoded answer (Content-Encoding) though identity was asked for: not decoded',
    );
    expect(unreadTokenAnswerSaid('oversized', false)).toBe(
      'sent an answer over 65536 bytes: read whole by this stock k6',
    );
  });
});

describe('tokenEndpointSaid', () => {
  it('joins the reasons of unread answers after the statuses', () => {
    expect(
      tokenEndpointSaid({ count: 4, minStatus: 200, maxStatus: 503, unread: ['encoded', 'oversized'] }),
    ).toBe(
      'answered 200 to 503 to 4 token requests; it sent an encoded answer (Content-Encoding) though identity was asked for: not decoded, and sent an answer over 65536 bytes: not read past them',
    );
  });
});
