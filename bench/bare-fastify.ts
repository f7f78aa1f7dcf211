/**
 * bench:api's bare reference (issue 26): the app's own Fastify, with no plugin and no hook, answering
 * GET /api/bench/hello with the body the app's reference route sends, on PORT. What a request costs here
 * is what the framework and Node cost; the rest of the app's hello world is the app's own.
 *
 * LOG_FILE=<path>: Fastify's logger on at info, writing one line per request to that file through pino's
 * asynchronous destination, as the production server writes its log (lib/log-destination.ts): Fastify's
 * "request completed" line, without its "incoming request" one, holding what the app's line holds
 * (method, URL, status, time).
 */
import Fastify, { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import pino from 'pino';

class CompletedLineOnly extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(_error: unknown, request: FastifyRequest, reply: FastifyReply): void {
    const { method, url } = request;
    reply.log.info({ method, url, statusCode: reply.statusCode, responseTime: reply.elapsedTime }, 'request completed');
  }
}

const file = process.env.LOG_FILE;
const app = file
  ? Fastify({
      logger: { level: 'info', stream: pino.destination({ dest: file, sync: false }) },
      logController: new CompletedLineOnly(),
    })
  : Fastify();
app.get('/api/bench/hello', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
