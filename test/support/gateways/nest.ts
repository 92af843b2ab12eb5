// @nestjs/throttler 6 as a gateway (see gateway.ts), with one named throttler: it sends X-RateLimit-Limit-<name>,
// -Remaining-<name> and -Reset-<name> on admitted answers, and on a 429 only Retry-After-<name>, no plain Retry-After.
// Its default blockDuration (the window) is kept, as most deployments keep it. Decorators are applied as functions:
// the tests are not compiled with decorator metadata.
import 'reflect-metadata';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { All, Controller, Module, Req, Res } from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import { ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler';
import {
  forward,
  type GatewaySetup,
  isSchedule,
  lieAboutQuota,
  type StartGateway,
  serve,
} from './gateway.ts';

/** The throttler's name, which suffixes its fields. */
export const THROTTLER = 'schedule';

export const nestGateway: StartGateway = async ({ upstream, limit, tenantOf, lie }: GatewaySetup) => {
  class Forwarder {
    forward(req: IncomingMessage, res: ServerResponse) {
      return forward(upstream, req, res);
    }
  }
  Controller()(Forwarder);
  const handler = Object.getOwnPropertyDescriptor(Forwarder.prototype, 'forward')!;
  Req()(Forwarder.prototype, 'forward', 0);
  Res()(Forwarder.prototype, 'forward', 1);
  All('{*path}')(Forwarder.prototype, 'forward', handler);

  class Gateway {}
  Module({
    imports: [
      ThrottlerModule.forRoot({
        throttlers: [{ name: THROTTLER, ttl: limit.windowMs, limit: limit.count }],
        getTracker: (req) => tenantOf((req as unknown as IncomingMessage).headers.authorization),
        skipIf: (context) => !isSchedule(context.switchToHttp().getRequest<IncomingMessage>().url),
      }),
    ],
    controllers: [Forwarder],
    providers: [{ provide: APP_GUARD, useClass: ThrottlerGuard }],
  })(Gateway);

  const app = await NestFactory.create(Gateway, { logger: false, bodyParser: false });
  if (lie) {
    app.use((_req: IncomingMessage, res: ServerResponse, next: () => void) => {
      lieAboutQuota(res, limit.count);
      next();
    });
  }
  await app.init();
  const gateway = await serve(app.getHttpAdapter().getInstance());
  return {
    origin: gateway.origin,
    close: async () => {
      await gateway.close();
      await app.close();
    },
  };
};
