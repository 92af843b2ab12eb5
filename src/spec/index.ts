export * from './auth.ts';
export * from './endpoints.ts';
export * from './schemas.ts';
