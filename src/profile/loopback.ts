// A target off loopback is somebody's shared staging: there harness may only act (submit transactions, start or
// re-run rules, issue upload URLs) where the profile says so, because an omission must not mean "allow".
import { BlockList, isIP } from 'node:net';
import { InputError } from '../errors.ts';
import { ENDPOINTS, type Profile } from '../spec/index.ts';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** 127.0.0.0/8, ::1 (IPv4-mapped forms included) or localhost. */
const isLoopbackUrl = (url: string): boolean => {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  if (family === 0) return host === 'localhost';
  return LOOPBACK.check(host, family === 4 ? 'ipv4' : 'ipv6');
};

/** The endpoints `side_effects` governs: the ones whose names say they act. */
const ACTING_ENDPOINTS = ENDPOINTS.filter((e) => e.sideEffects).map((e) => e.key);

export const requireSideEffectsOffLoopback = (profile: Profile, source: string): void => {
  if (profile.side_effects !== undefined || isLoopbackUrl(profile.base_url)) return;
  throw new InputError(
    `${source}: /side_effects: required when base_url is not on loopback (${new URL(profile.base_url).host}): ` +
      `allow, deny, or the list of endpoints harness may call among the four that act (${ACTING_ENDPOINTS.join(', ')}); ` +
      'on the command line, --side-effects',
  );
};
