// Runs the operator's initializer container as a kubelet would, with the local k6 instead of the image's: the script
// ConfigMap mounted at /test becomes a folder, env from ConfigMaps is resolved, and what the command prints is the
// log the operator reads back (`k6 inspect --execution-requirements`), so its maxVUs check sees harness's real script.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Kube } from './control-plane.ts';

interface Container {
  command?: string[];
  env?: { name: string; value?: string; valueFrom?: { configMapKeyRef?: { name: string; key: string } } }[];
  volumeMounts?: { name: string; mountPath: string }[];
}

export interface InitializerPodSpec {
  containers: Container[];
  volumes?: { name: string; configMap?: { name: string } }[];
}

export interface ContainerRun {
  readonly succeeded: boolean;
  readonly stdout: string;
}

const configMapData = async (kube: Kube, name: string): Promise<Record<string, string>> => {
  const answer = await kube.call('GET', `/api/v1/namespaces/default/configmaps/${name}`);
  if (answer.status !== 200)
    throw new Error(`the initializer needs ConfigMap ${name}: HTTP ${answer.status}`);
  return (answer.body as { data?: Record<string, string> }).data ?? {};
};

/** Runs the container's command in `dir` with `k6` on PATH; ConfigMap volumes are written under `dir`. */
export const runInitializer = async (
  kube: Kube,
  spec: InitializerPodSpec,
  dir: string,
  k6: string,
): Promise<ContainerRun> => {
  const container = spec.containers[0];
  if (container?.command === undefined) return { succeeded: false, stdout: '' };
  let command = container.command;
  for (const mount of container.volumeMounts ?? []) {
    const configMap = spec.volumes?.find((volume) => volume.name === mount.name)?.configMap;
    if (configMap === undefined) continue;
    const folder = join(dir, mount.name);
    mkdirSync(folder, { recursive: true });
    for (const [key, value] of Object.entries(await configMapData(kube, configMap.name))) {
      writeFileSync(join(folder, key), value);
    }
    command = command.map((part) => part.replaceAll(`${mount.mountPath}/`, `${folder}/`));
  }
  const env: Record<string, string> = { PATH: `${dirname(k6)}:${process.env.PATH ?? ''}`, HOME: dir };
  for (const variable of container.env ?? []) {
    const ref = variable.valueFrom?.configMapKeyRef;
    const value = ref === undefined ? variable.value : (await configMapData(kube, ref.name))[ref.key];
    if (value !== undefined) env[variable.name] = value;
  }
  const [bin, ...args] = command;
  if (bin === undefined) return { succeeded: false, stdout: '' };
  const child = spawn(bin, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  const code = await new Promise<number | null>((resolve) =>
    child.on('exit', resolve).on('error', () => resolve(1)),
  );
  return { succeeded: code === 0, stdout };
};
