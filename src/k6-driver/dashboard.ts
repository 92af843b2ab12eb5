// k6's web dashboard beside each runner: its HTML report always, its live page only when the user asks.

/** The user asked for k6's live dashboard (K6_WEB_DASHBOARD=true): it stays open, on loopback only. */
export const liveDashboard = (userEnv: NodeJS.ProcessEnv) => userEnv.K6_WEB_DASHBOARD === 'true';

/** k6's default port, or the user's; each further instance takes the next, since two cannot share one. */
const dashboardPort = (userEnv: NodeJS.ProcessEnv, instance: number) =>
  Number(userEnv.K6_WEB_DASHBOARD_PORT || 5665) + instance;

export const dashboardUrl = (userEnv: NodeJS.ProcessEnv, instance: number) =>
  `http://127.0.0.1:${dashboardPort(userEnv, instance)}`;

/**
 * k6's web dashboard always exports its HTML report; it listens (on 127.0.0.1, nothing leaves the machine) only
 * when the user set K6_WEB_DASHBOARD=true, and otherwise has no port at all.
 */
export const dashboardEnv = (
  userEnv: NodeJS.ProcessEnv,
  exportFile: string,
  instance: number,
): Record<string, string> => ({
  K6_WEB_DASHBOARD: 'true',
  K6_WEB_DASHBOARD_HOST: '127.0.0.1',
  K6_WEB_DASHBOARD_PORT: liveDashboard(userEnv) ? String(dashboardPort(userEnv, instance)) : '-1',
  K6_WEB_DASHBOARD_PERIOD: '1s',
  K6_WEB_DASHBOARD_EXPORT: exportFile,
});
