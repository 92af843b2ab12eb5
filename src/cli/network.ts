// The network flags of conformance and load (--ca, --cert, --key, --timeout, --insecure) over the profile's fields,
// and the reachability check both commands make before sending anything that counts.
import { resolve } from 'node:path';
import { HttpClient } from '../client/index.ts';
import { proxyFromEnv } from '../client/network.ts';
import { InputError, isHarnessError } from '../errors.ts';
import { type Network, networkOf } from '../profile/network.ts';
import type { Profile } from '../spec/index.ts';

export interface NetworkFlags {
  ca?: string;
  cert?: string;
  key?: string;
  timeout?: number;
  insecure?: boolean;
}

/** Flags win over the profile's fields; their files are relative to the working directory, as on any command line. */
export const withNetworkFlags = (profile: Profile, flags: NetworkFlags): Profile => {
  const tls = {
    ...profile.tls,
    ...(flags.ca === undefined ? {} : { ca: resolve(flags.ca) }),
    ...(flags.cert === undefined ? {} : { cert: resolve(flags.cert) }),
    ...(flags.key === undefined ? {} : { key: resolve(flags.key) }),
    ...(flags.insecure ? { insecure: true } : {}),
  };
  if ((tls.cert === undefined) !== (tls.key === undefined)) {
    throw new InputError(
      tls.cert === undefined
        ? '--key / tls.key: a client key needs its certificate (--cert or tls.cert)'
        : '--cert / tls.cert: a client certificate needs its key (--key or tls.key)',
    );
  }
  return {
    ...profile,
    ...(Object.keys(tls).length === 0 ? {} : { tls }),
    ...(flags.timeout === undefined ? {} : { timeout_ms: flags.timeout }),
  };
};

/**
 * The settings a run uses. The embedded reference server listens on loopback in this very process, so a proxy
 * from the environment (meant for the way out of a corporate network) never applies to it.
 */
export const networkFor = (profile: Profile, embedded: boolean): Network => {
  const network = networkOf(profile, embedded ? {} : proxyFromEnv(process.env));
  if (network.tls.insecure) {
    console.error(
      'harness: WARNING: TLS certificate verification is OFF (--insecure / tls.insecure): anyone on the path can ' +
        'read and change this traffic, and the run cannot certify the target',
    );
  }
  return network;
};

export const httpOptionsOf = (network: Network) => ({
  tls: network.tls,
  proxy: network.proxy,
  ...(network.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: network.requestTimeoutMs }),
});

/** The target's origins: the reachability check sends each one request. */
export const originsOf = (profile: Profile): string[] => [
  ...new Set([profile.base_url, profile.auth_url].map((url) => new URL(url).origin)),
];

/**
 * Origins of the target that do not answer, each with why: one HEAD / per origin through the same proxy and TLS
 * settings the run uses, so a proxy that refuses the tunnel or a certificate that does not verify shows here, once,
 * rather than as a failure of every check. Any HTTP status is an answer. `withinMs`: the run's deadline, which the
 * check draws from like any other request: an origin that has not answered by then is unreachable for this run.
 */
export const unreachableOrigins = async (
  profile: Profile,
  network: Network,
  withinMs?: number,
): Promise<string[]> => {
  const http = new HttpClient({ ...httpOptionsOf(network), connections: 1 });
  let expired = false;
  const deadline =
    withinMs === undefined
      ? undefined
      : setTimeout(() => {
          expired = true;
          void http.destroy();
        }, withinMs);
  const origins = originsOf(profile);
  try {
    const failures = await Promise.all(
      origins.map((origin) =>
        http.send({ method: 'HEAD', url: `${origin}/` }).then(
          () => undefined,
          (error: unknown) => {
            if (expired) return `${origin}/: no answer within the run deadline (${withinMs! / 1000} s)`;
            if (isHarnessError(error, 'HARNESS_TARGET')) return `${origin}/: ${error.message}`;
            throw error;
          },
        ),
      ),
    );
    return failures.filter((failure): failure is string => failure !== undefined);
  } finally {
    clearTimeout(deadline);
    await http.close();
  }
};
