import { describe, expect, it } from 'vitest';
import { dashboardEnv } from '../../src/k6-driver/dashboard.ts';

describe("k6's web dashboard", () => {
  it('has no port unless the user asked for it, and always exports the HTML report', () => {
    expect(dashboardEnv({}, '/r/load.html', 0)).toMatchObject({
      K6_WEB_DASHBOARD: 'true',
      K6_WEB_DASHBOARD_PORT: '-1',
      K6_WEB_DASHBOARD_EXPORT: '/r/load.html',
    });
  });

  it("with K6_WEB_DASHBOARD=true listens on 127.0.0.1, k6's port 5665 (the next for each further instance)", () => {
    const asked = { K6_WEB_DASHBOARD: 'true' };
    expect(dashboardEnv(asked, '/r/load.1.html', 0)).toMatchObject({
      K6_WEB_DASHBOARD_HOST: '127.0.0.1',
      K6_WEB_DASHBOARD_PORT: '5665',
      K6_WEB_DASHBOARD_EXPORT: '/r/load.1.html',
    });
    expect(dashboardEnv(asked, '/r/load.2.html', 1).K6_WEB_DASHBOARD_PORT).toBe('5666');
    expect(
      dashboardEnv({ ...asked, K6_WEB_DASHBOARD_PORT: '7000' }, '/r/x.html', 0).K6_WEB_DASHBOARD_PORT,
    ).toBe('7000');
  });

  it('stays on loopback even when the user names another host', () => {
    const env = dashboardEnv({ K6_WEB_DASHBOARD: 'true', K6_WEB_DASHBOARD_HOST: '0.0.0.0' }, '/r/x.html', 0);
    expect(env.K6_WEB_DASHBOARD_HOST).toBe('127.0.0.1');
  });
});
