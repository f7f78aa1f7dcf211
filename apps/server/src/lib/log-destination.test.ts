import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/helpers.js';
import { batchedLines, logDestination } from './log-destination.js';

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

  it('writes the lines of a few milliseconds in one write, each line whole and in order', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'share-arts-log-'));
    const file = path.join(folder, 'server.log');
    const destination = logDestination(file);
    const writes: string[] = [];
    const write = destination.write.bind(destination);
    destination.write = (data: string) => (writes.push(data), write(data));
    // Long enough that nothing is handed over before the checks below unless they say so.
    const batched = batchedLines(destination, { everyMs: 300, maxBytes: 100 });
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    try {
      batched.write('one\n');
      batched.write('two\n');
      expect(writes).toEqual([]);
      while (writes.length === 0) await wait(5);
      expect(writes).toEqual(['one\ntwo\n']);
      // Past maxBytes, what waits is handed over at once.
      batched.write('three\n');
      batched.write(`${'x'.repeat(99)}\n`);
      expect(writes).toEqual(['one\ntwo\n', `three\n${'x'.repeat(99)}\n`]);
      batched.write('four\n');
      // A flush (the server stopping) hands over what waits without waiting for the rest of the 300 ms.
      await new Promise<void>((resolve, reject) => batched.flush((error) => (error ? reject(error) : resolve())));
      expect(writes).toHaveLength(3);
      expect(writes[2]).toBe('four\n');
      const all = `one\ntwo\nthree\n${'x'.repeat(99)}\nfour\n`;
      while (readFileSync(file, 'utf8') !== all) await wait(5);
    } finally {
      destination.destroy();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
