// What a session tells its listeners: every string of every event with the profile's secrets hidden, whatever the
// event's type, since the terminal shows them as checks run, before any report is redacted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveTarget } from '../../src/profile/target.ts';
import { type RunningReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import type { CheckEvent } from '../../src/runner/events.ts';
import { Session } from '../../src/runner/session.ts';
import { SCALED } from '../support/testbed.ts';

let server: RunningReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer(SCALED);
});
afterAll(() => server.close());

describe('Session.emit', () => {
  it("hides the profile's client secret in every event's every string, an id as much as a message", async () => {
    const target = resolveTarget(server.profile());
    const secret = target.profile.clients.primary.client_secret;
    const heard: CheckEvent[] = [];
    const session = new Session(target, { events: { emit: (event) => heard.push(event) } });
    const quoting = `the server echoed ${secret}`;
    const told: CheckEvent[] = [
      { type: 'check-started', id: `CHECK-${secret}` },
      { type: 'check-finished', id: 'CHECK', grade: 'FAIL', message: quoting, durationMs: 12 },
      { type: 'wait-started', id: 'CHECK', ms: 1000, why: quoting },
      { type: 'note', text: quoting },
    ];
    for (const event of told) session.emit(event);
    await session.close();
    expect(heard).toHaveLength(told.length);
    expect(JSON.stringify(heard)).not.toContain(secret);
    // Only the secret goes: the rest of each event is as told.
    expect(heard[1]).toMatchObject({ type: 'check-finished', grade: 'FAIL', durationMs: 12 });
    expect((heard[3] as { text: string }).text).toMatch(/^the server echoed \S+$/);
  });
});
