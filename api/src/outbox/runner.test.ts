import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOutboxRunner, type OutboxBatch } from './runner.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A runner over batches the test answers; logs when each batch ran (fake ms) and what it reported. */
function runnerWith(answer: () => OutboxBatch | Promise<OutboxBatch>, finalPass = false) {
  const ran: number[] = [];
  const reported: string[] = [];
  const runner = createOutboxRunner({
    name: '[test]',
    pollMs: 100,
    mostPollMs: 800,
    finalPass,
    report: (line) => reported.push(line),
    async batch() {
      ran.push(Date.now());
      return answer();
    },
  });
  return { runner, ran, reported };
}

describe('the outbox runner', () => {
  it('runs batches while more is ready, and one pass at a time however many kicks', async () => {
    let left = 3;
    let active = 0;
    let most = 0;
    const { runner, ran } = runnerWith(async () => {
      active++;
      most = Math.max(most, active);
      await Promise.resolve();
      active--;
      left--;
      return { done: 1, more: left > 0 };
    });
    const passes = [runner.pass(), runner.pass(), runner.pass()];
    runner.kick();
    await Promise.all(passes);
    expect(most).toBe(1);
    // One pass of three batches, then one more asked for by the kicks during it (finding nothing).
    expect(ran).toHaveLength(4);
    await runner.stop();
  });

  it('polls every pollMs, backs off while the outbox cannot be read (said once), and is back to pollMs after', async () => {
    vi.useFakeTimers({ now: 0 });
    let failing = true;
    const { runner, ran, reported } = runnerWith(() => {
      if (failing) throw new Error('database down');
      return { done: 0, more: false };
    });
    runner.start();
    await vi.advanceTimersByTimeAsync(100 + 200 + 400 + 800 + 800);
    expect(ran).toEqual([100, 300, 700, 1500, 2300]);
    expect(reported).toEqual(['[test] the outbox cannot be read: database down']);
    failing = false;
    await vi.advanceTimersByTimeAsync(800 + 100 + 100);
    expect(ran.slice(5)).toEqual([3100, 3200, 3300]);
    // A kick does not wait for the poll.
    runner.kick();
    await vi.advanceTimersByTimeAsync(0);
    expect(ran.at(-1)).toBe(3300);
    expect(ran).toHaveLength(9);
    await runner.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(ran).toHaveLength(9);
  });

  it('stops cleanly: lets the pass under way end, ignores kicks after, and runs the final pass once when asked', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const { runner } = runnerWith(async () => {
      if (++calls === 1) await held;
      return { done: 1, more: false };
    }, true);
    const pass = runner.pass();
    let stopped = false;
    const stopping = runner.stop().then(() => (stopped = true));
    runner.kick();
    await Promise.resolve();
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(await pass).toBe(1);
    // The pass under way, then the final one; a second stop runs nothing.
    expect(calls).toBe(2);
    await runner.stop();
    expect(calls).toBe(2);
  });
});
