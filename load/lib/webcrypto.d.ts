// k6 (v1+) gives every script WebCrypto and TextEncoder/TextDecoder as globals, but @types/k6 declares none of
// them. What token-seal.ts uses, as k6 v2.2 implements it (PBKDF2 is its only key derivation); Node's own
// declarations cover the same calls when the tests import token-seal.ts.

interface CryptoKey {
  readonly type: string;
}

interface SubtleCrypto {
  importKey(
    format: 'raw',
    keyData: Uint8Array,
    algorithm: 'PBKDF2',
    extractable: false,
    keyUsages: ['deriveKey'],
  ): Promise<CryptoKey>;
  deriveKey(
    algorithm: { name: 'PBKDF2'; hash: 'SHA-256'; salt: Uint8Array; iterations: number },
    baseKey: CryptoKey,
    derivedKeyType: { name: 'AES-GCM'; length: 256 },
    extractable: false,
    keyUsages: ['encrypt', 'decrypt'],
  ): Promise<CryptoKey>;
  encrypt(
    algorithm: { name: 'AES-GCM'; iv: Uint8Array; additionalData: Uint8Array },
    key: CryptoKey,
    data: Uint8Array,
  ): Promise<ArrayBuffer>;
  decrypt(
    algorithm: { name: 'AES-GCM'; iv: Uint8Array; additionalData: Uint8Array },
    key: CryptoKey,
    data: Uint8Array,
  ): Promise<ArrayBuffer>;
}

declare var crypto: {
  readonly subtle: SubtleCrypto;
  getRandomValues<T extends Uint8Array>(array: T): T;
};

declare class TextEncoder {
  encode(input: string): Uint8Array;
}

declare class TextDecoder {
  decode(input: ArrayBuffer | Uint8Array): string;
}
