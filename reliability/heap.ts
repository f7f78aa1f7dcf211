/**
 * The server's live memory, read through the V8 inspector: a full collection, then
 * `process.memoryUsage()`. Unlike RSS, which follows when V8 takes and gives back pages, what is left
 * after a full collection only grows when something keeps what it should drop.
 *
 * The server must run with `--inspect=127.0.0.1:PORT` (a check's own process, on loopback only).
 */
import { CheckFailed, sleep } from './lib.js';

export interface LiveMemory {
  /** Bytes of the JS heap still reachable after a full collection. */
  heapUsed: number;
  /** Bytes held outside the heap by reachable objects (Buffers, ArrayBuffers). */
  external: number;
}

/** The server's memory as it stands, with no collection first (bytes). */
export interface MemoryNow {
  /** The process's resident set. */
  rss: number;
  /** What V8 has taken for its heap, garbage not yet collected included. */
  heapTotal: number;
}

export interface Inspector {
  liveMemory(): Promise<LiveMemory>;
  memoryNow(): Promise<MemoryNow>;
  close(): void;
}

export async function connectInspector(port: number): Promise<Inspector> {
  let targets: { webSocketDebuggerUrl: string }[] | undefined;
  for (let i = 0; i < 50 && !targets; i++) {
    targets = await fetch(`http://127.0.0.1:${port}/json/list`)
      .then((answer) => answer.json() as Promise<{ webSocketDebuggerUrl: string }[]>)
      .catch(() => undefined);
    if (!targets) await sleep(100);
  }
  const url = targets?.[0]?.webSocketDebuggerUrl;
  if (!url) throw new CheckFailed(`The server's inspector did not answer on port ${port}.`);
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new CheckFailed(`The inspector at ${url} did not open.`)), {
      once: true,
    });
  });

  let nextId = 1;
  const waiting = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  socket.addEventListener('message', ({ data }) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } };
    const call = message.id === undefined ? undefined : waiting.get(message.id);
    if (!call) return;
    waiting.delete(message.id!);
    if (message.error) call.reject(new CheckFailed(`Inspector: ${message.error.message}`));
    else call.resolve(message.result);
  });
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });

  const usage = async () => {
    const evaluated = (await send('Runtime.evaluate', {
      expression: 'JSON.stringify(process.memoryUsage())',
      returnByValue: true,
    })) as { result: { value: string } };
    return JSON.parse(evaluated.result.value) as LiveMemory & MemoryNow;
  };

  return {
    async liveMemory() {
      // Two collections: the first may leave objects that only a finalizer or weak callback released.
      await send('HeapProfiler.collectGarbage');
      await send('HeapProfiler.collectGarbage');
      const { heapUsed, external } = await usage();
      return { heapUsed, external };
    },
    async memoryNow() {
      const { rss, heapTotal } = await usage();
      return { rss, heapTotal };
    },
    close() {
      socket.close();
    },
  };
}
