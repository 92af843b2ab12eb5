// @fastify/rate-limit 11 as a gateway (see gateway.ts): X-RateLimit-* by default, the unprefixed triple with
// `enableDraftSpec`. Bodies are forwarded as they came, never parsed.
import rateLimit from '@fastify/rate-limit';
import Fastify from 'fastify';
import { askUpstream, type GatewaySetup, isSchedule, lieAboutQuota, type StartGateway } from './gateway.ts';

export const fastifyGateway =
  (enableDraftSpec: boolean): StartGateway =>
  async ({ upstream, limit, tenantOf, lie }: GatewaySetup) => {
    const app = Fastify();
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    if (lie) app.addHook('onRequest', async (_req, reply) => lieAboutQuota(reply.raw, limit.count));
    await app.register(rateLimit, {
      max: limit.count,
      timeWindow: limit.windowMs,
      enableDraftSpec,
      keyGenerator: (req) => tenantOf(req.headers.authorization),
      allowList: (req) => !isSchedule(req.url),
    });
    app.all('/*', async (req, reply) => {
      const answer = await askUpstream(
        upstream,
        req.raw,
        req.body instanceof Buffer ? req.body : Buffer.alloc(0),
      );
      return reply.code(answer.status).headers(answer.headers).send(answer.body);
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    app.server.keepAliveTimeout = 60_000;
    const { port } = app.server.address() as { port: number };
    return { origin: `http://127.0.0.1:${port}`, close: () => app.close() };
  };
