// The run's event stream: every listener hears every event in order, the last event waits for each listener in turn,
// and a listener's failure surfaces when the run finishes rather than as an unhandled rejection mid-run.
import { describe, expect, it } from 'vitest';
import { EventStream } from '../../src/events/stream.ts';

type Event = { readonly type: 'tick'; readonly n: number } | { readonly type: 'run-finished' };

describe('EventStream', () => {
  it('hands each event to every listener in order, and finish waits for one listener before the next', async () => {
    const heard: string[] = [];
    const slowWriter = async (event: Event) => {
      if (event.type !== 'run-finished') return;
      await new Promise((resolve) => setTimeout(resolve, 20));
      heard.push('files written');
    };
    const summary = (event: Event) => {
      heard.push(event.type === 'tick' ? `tick ${event.n}` : 'summary after the files');
    };
    const stream = new EventStream<Event>([slowWriter, summary]);
    stream.emit({ type: 'tick', n: 1 });
    stream.emit({ type: 'tick', n: 2 });
    await stream.finish({ type: 'run-finished' });
    expect(heard).toEqual(['tick 1', 'tick 2', 'files written', 'summary after the files']);
  });

  it("rethrows a listener's failure on an earlier event when the run finishes", async () => {
    const stream = new EventStream<Event>([
      async (event) => {
        if (event.type === 'tick') throw new Error('disk full');
      },
    ]);
    stream.emit({ type: 'tick', n: 1 });
    await expect(stream.finish({ type: 'run-finished' })).rejects.toThrow('disk full');
  });
});
