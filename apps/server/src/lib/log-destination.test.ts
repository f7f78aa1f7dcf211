import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/helpers.js';
import { logDestination } from './log-destination.js';

describe('the log destination', () => {
  it('keeps the server serving when its log cannot be written (a full disk under stdout)', async () => {
    // Every write to /dev/full fails with ENOSPC, as a log on a full disk does.
    const destination = logDestination('/dev/full');
    // The failures are seen by wrapping emit, not by listening: a listener would itself keep an
    // 'error' event from crashing the process, and hide the fault this test is about.
    const failures: string[] = [];
    const emit = destination.emit.bind(destination);
    destination.emit = (event: string | symbol, ...args: unknown[]) => {
      if (event === 'error') failures.push((args[0] as NodeJS.ErrnoException).code ?? '');
      return emit(event, ...args);
    };
    const ctx = await createTestApp({ config: { logLevel: 'info', logStream: destination } });
    try {
      for (let round = 0; round < 3; round++) {
        const before = failures.length;
        const answers = await Promise.all(
          Array.from({ length: 20 }, () => ctx.app.inject({ method: 'GET', url: '/api/health' })),
        );
        expect(answers.map((answer) => answer.statusCode)).toEqual(Array(20).fill(200));
        // The lines of this round fail to be written before the next round logs more.
        while (failures.length === before) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(new Set(failures)).toEqual(new Set(['ENOSPC']));
    } finally {
      await ctx.close();
      destination.destroy();
    }
  });
});
