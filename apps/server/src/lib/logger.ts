import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import pretty, { type PrettyOptions } from 'pino-pretty';
import { batchedLines, logDestination } from './log-destination.js';

/** Where log lines go instead of stdout (tests read them). */
/** The levels LOG_LEVEL accepts (config.ts reads it). */
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface LogDestination {
  write(line: string): void;
}

interface RequestLine {
  method?: string;
  url?: string;
  statusCode?: number;
  responseTime?: number;
}

const REQUEST_FIELDS = ['method', 'url', 'statusCode', 'responseTime'] as const;

/**
 * One line per request, written when the response is finished, instead of Fastify's two ("incoming
 * request" with the request, "request completed" with the status): the pair doubled the log of a busy
 * server and was hard to read. The line holds what a person scans for: method, URL, status, time.
 */
export class RequestLogController extends LogController {
  override incomingRequest(): void {}

  // The completed line of a 404 already says so.
  override routeNotFound(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line: RequestLine = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * 100) / 100,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/**
 * Readable lines for a person at a terminal: the time, the level and, for a request, `GET /api/posts
 * 200 3.1 ms`; every other line keeps its message and fields.
 */
export const PRETTY_OPTIONS: PrettyOptions = {
  translateTime: 'SYS:HH:MM:ss',
  ignore: ['pid', 'hostname', 'reqId', ...REQUEST_FIELDS].join(','),
  messageFormat: (log, messageKey) => {
    const { method, url, statusCode, responseTime } = log as RequestLine;
    if (method === undefined || statusCode === undefined) return String(log[messageKey] ?? '');
    return `${method} ${url} ${statusCode} ${responseTime} ms`;
  },
};

/**
 * Fastify's logger options: JSON lines (what log collectors read) unless stdout is a terminal, where
 * pino-pretty turns them into readable lines (formatting costs time a terminal's reader does not
 * notice; the JSON path is pino's own, its lines written a few at a time: lib/log-destination.ts).
 */
export function loggerOptions(level: LogLevel, destination?: LogDestination, terminal = Boolean(process.stdout.isTTY)) {
  if (destination) return { level, stream: destination };
  // Never pino's default stdout, whose write errors crash the process (see logDestination).
  if (terminal && level !== 'silent')
    return { level, stream: pretty({ ...PRETTY_OPTIONS, destination: logDestination() }) };
  return { level, stream: batchedLines(logDestination()) };
}
