import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/index.ts';

describe('configuration', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 4000, databaseUrl: 'sqlite:data/adgraph.sqlite', publicUrl: 'http://localhost:4000', seedDemo: true, sessionTtlSeconds: 86_400, tokenTtlSeconds: 300 });
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT must be between/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must start with/],
    [{ SEED_DEMO: 'maybe' }, /SEED_DEMO must be true or false/],
    [{ PUBLIC_URL: 'ftp://x' }, /PUBLIC_URL must start with/],
    [{ REDIS_URL: 'not a url' }, /REDIS_URL is not a valid URL/],
  ])('rejects %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
