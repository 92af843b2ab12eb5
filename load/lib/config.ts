// What one k6 run targets, from the environment the harness CLI sets (never the command line, where `ps` shows it):
// HARNESS_TARGET (the profile without secrets), HARNESS_SECRETS (client secrets by role), HARNESS_PLAN (options).
import { type LoadTarget, type PlanOptions, planProbes, type SpecData } from './plan.ts';

const env = (name: string): string => {
  const value = __ENV[name];
  if (value === undefined || value === '')
    throw new Error(`${name} is not set: run this script through \`harness load\``);
  return value;
};

export const spec = JSON.parse(open('./spec.generated.json')) as SpecData;
export const target = JSON.parse(env('HARNESS_TARGET')) as LoadTarget;
export const planOptions = JSON.parse(env('HARNESS_PLAN')) as PlanOptions;
export const plan = planProbes(spec, target, planOptions);
export const phases = plan.probes.flatMap((p) => p.phases);

/** Read when a VU needs a token, so the secrets live only in the VU's memory and never in options or setup data. */
export const secretOf = (role: string): string => {
  const secret = (JSON.parse(env('HARNESS_SECRETS')) as Record<string, string>)[role];
  if (secret === undefined) throw new Error(`HARNESS_SECRETS has no secret for client ${role}`);
  return secret;
};

export const phaseNamed = (name: string) => {
  const phase = phases.find((p) => p.name === name);
  if (phase === undefined) throw new Error(`no phase ${name} in the plan`);
  return phase;
};
