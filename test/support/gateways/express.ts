// express-rate-limit 8 as a gateway (see gateway.ts), in the dialect `standardHeaders` names: 'draft-6' (what
// `true` means: the triple and `RateLimit-Policy: 120;w=60`), 'draft-7' (the Dictionary) or 'draft-8' (the lists).
import express from 'express';
import { rateLimit } from 'express-rate-limit';
import {
  forward,
  type GatewaySetup,
  isSchedule,
  lieAboutQuota,
  type StartGateway,
  serve,
} from './gateway.ts';

export const expressGateway =
  (standardHeaders: 'draft-6' | 'draft-7' | 'draft-8'): StartGateway =>
  async ({ upstream, limit, tenantOf, lie }: GatewaySetup) => {
    const app = express();
    if (lie) {
      app.use((_req, res, next) => {
        lieAboutQuota(res, limit.count);
        next();
      });
    }
    const limiter = rateLimit({
      windowMs: limit.windowMs,
      limit: limit.count,
      standardHeaders,
      legacyHeaders: false,
      keyGenerator: (req) => tenantOf(req.headers.authorization),
    });
    app.use((req, res, next) => (isSchedule(req.url) ? limiter(req, res, next) : next()));
    app.use((req, res) => void forward(upstream, req, res));
    return serve(app);
  };
