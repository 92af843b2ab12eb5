export * from './auth.ts';
export * from './endpoints.ts';
export * from './quotes.ts';
export * from './schemas.ts';
