// A target with the three client roles the load probes use, at an address nothing listens on: tests that only
// plan, or simulate a run, start from it.
import type { Profile } from '../../src/spec/index.ts';

export const PLAN_ONLY_TARGET: Profile = {
  base_url: 'http://127.0.0.1:1',
  auth_url: 'http://127.0.0.1:1/oauth2/token',
  tenant: 'acme',
  clients: {
    primary: { client_id: 'a', client_secret: 's' },
    same_tenant: { client_id: 'b', client_secret: 's' },
    other_tenant: { client_id: 'c', client_secret: 's', tenant: 'globex' },
  },
};
