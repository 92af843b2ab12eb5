// Runs `harness load --k8s` as a user would, for a profile of a reference server started here, and reads back the
// manifests it wrote.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { K8S_FILES } from '../../src/k6-driver/k8s.ts';
import type { RunningReferenceServer } from '../../src/reference/index.ts';
import { harness, profileFor, tmp } from '../cli/run.ts';

export interface EnvVar {
  readonly name: string;
  readonly value?: string;
  readonly valueFrom?: {
    readonly configMapKeyRef?: { readonly name: string; readonly key: string };
    readonly secretKeyRef?: { readonly name: string; readonly key: string };
  };
}

export interface TestRun {
  readonly apiVersion: string;
  readonly kind: 'TestRun';
  readonly metadata: { readonly name: string };
  readonly spec: {
    readonly parallelism: number;
    readonly script: { readonly configMap: { readonly name: string; readonly file: string } };
    readonly initializer: { readonly image: string; readonly env: readonly EnvVar[] };
    readonly runner: { readonly image: string; readonly env: readonly EnvVar[] };
    readonly [field: string]: unknown;
  };
}

export interface ConfigMap {
  readonly metadata: { readonly name: string };
  readonly data: Readonly<Record<string, string>>;
}

const documents = (dir: string, file: string) =>
  parseAllDocuments(readFileSync(join(dir, file), 'utf8')).map((doc) => doc.toJS() as unknown);

export const generateK8s = async (server: RunningReferenceServer, args: readonly string[]) => {
  const { file, env } = profileFor(server);
  const dir = join(tmp(), 'k8s');
  const result = await harness(['load', '--profile', file, '--k8s', dir, '--image', 'k6:test', ...args], env);
  if (result.status !== 0) throw new Error(`harness load --k8s exited ${result.status}: ${result.stderr}`);
  const [testRun] = documents(dir, K8S_FILES.testRun) as [TestRun];
  const [configMap] = documents(dir, K8S_FILES.configMap) as [ConfigMap];
  const [secret] = documents(dir, K8S_FILES.secret) as [{ stringData: Record<string, string> }];
  return { dir, result, testRun, configMap, secret };
};

/** An env entry's value as the kubelet would give it, from the ConfigMap and the Secret the user filled in. */
export const envValue = (entry: EnvVar, configMap: ConfigMap, secrets: Readonly<Record<string, string>>) => {
  if (entry.value !== undefined) return entry.value;
  const fromMap = entry.valueFrom?.configMapKeyRef;
  if (fromMap !== undefined) return configMap.data[fromMap.key]!;
  const fromSecret = entry.valueFrom?.secretKeyRef;
  if (fromSecret !== undefined) return secrets[fromSecret.key]!;
  throw new Error(`env ${entry.name}: no value this test can resolve`);
};
