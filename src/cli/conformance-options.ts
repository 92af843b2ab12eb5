// The options of `harness conformance`, as commander gives them: a module of their own, since `harness replay`
// rebuilds a run's target flags from them and conformance.ts calls it.
import type { FaultName, TokenKind } from '../reference/index.ts';
import type { ReportFormat } from '../report/write.ts';
import type { Profile } from '../spec/index.ts';
import type { NetworkFlags } from './network.ts';

export interface ConformanceOptions extends NetworkFlags {
  profile?: string;
  baseUrl?: string;
  authUrl?: string;
  tenant?: string;
  sideEffects?: NonNullable<Profile['side_effects']>;
  fault?: FaultName;
  /** Embedded server only; commander's default is opaque. */
  tokens?: TokenKind;
  only?: string[];
  skip?: string[];
  strict?: boolean;
  requireCertifiable?: boolean;
  slow?: boolean;
  dryRun?: boolean;
  maxRequests?: number;
  /** Milliseconds the whole run may take; by default derived from the plan (runDeadlineMs). */
  deadline?: number;
  reportDir: string;
  format: ReportFormat[];
  baseline?: string;
  list?: boolean;
  json?: boolean;
}
