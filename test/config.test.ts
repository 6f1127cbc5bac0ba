import express from 'express';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/index.ts';

describe('configuration', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 4000,
      databaseUrl: 'sqlite:data/adgraph.sqlite',
      publicUrl: 'http://localhost:4000',
      seedDemo: true,
      sessionTtlSeconds: 86_400,
      tokenTtlSeconds: 300,
    });
    expect(config).toMatchObject({ logLevel: 'info', trustProxy: false });
    expect(config).toMatchObject({ shutdownDrainMs: 0, shutdownTimeoutMs: 10_000 });
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT must be between/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must start with/],
    [{ SEED_DEMO: 'maybe' }, /SEED_DEMO must be true or false/],
    [{ PUBLIC_URL: 'ftp://x' }, /PUBLIC_URL must start with/],
    [{ REDIS_URL: 'not a url' }, /REDIS_URL is not a valid URL/],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, got "loud"$/],
    [{ TRUST_PROXY: 'everyone' }, /^TRUST_PROXY must be false, true, a hop count, or a comma list of .*; got "everyone"$/],
    [{ TRUST_PROXY: '10.0.0.0/33' }, /TRUST_PROXY must be .*; got "10.0.0.0\/33"$/],
    [{ TRUST_PROXY: '10.1.2' }, /TRUST_PROXY must be .*; got "10.1.2"$/],
    [{ TRUST_PROXY: 'loopback,,10.0.0.1' }, /TRUST_PROXY must be .*; got ""$/],
    [{ TRUST_PROXY: '1000' }, /^TRUST_PROXY must be a hop count of at most 100, got 1000$/],
    [{ SHUTDOWN_DRAIN_MS: 'soon' }, /^SHUTDOWN_DRAIN_MS must be a whole number, got "soon"$/],
    [{ KEEP_ALIVE_TIMEOUT_MS: '0' }, /^KEEP_ALIVE_TIMEOUT_MS must be/],
    [{ SHUTDOWN_DRAIN_MS: '10000' }, /^SHUTDOWN_DRAIN_MS must be less than SHUTDOWN_TIMEOUT_MS \(10000\), which bounds the whole shutdown, got 10000$/],
    [{ SHUTDOWN_DRAIN_MS: '5000', SHUTDOWN_TIMEOUT_MS: '3000' }, /^SHUTDOWN_DRAIN_MS must be less than SHUTDOWN_TIMEOUT_MS \(3000\)/],
    [{ CORS_ORIGINS: '*', CORS_CREDENTIALS: 'true' }, /^CORS_ORIGINS may not be \* while CORS_CREDENTIALS is true/],
    [{ CORS_ORIGINS: '*,http://localhost:5173' }, /^CORS_ORIGINS is either \* alone or a comma list of origins, not both$/],
    [{ CORS_ORIGINS: 'http://localhost:5173/' }, /^CORS_ORIGINS must be a comma list of origins .*, got "http:\/\/localhost:5173\/"$/],
    [{ CORS_ORIGINS: 'https://App.example.com' }, /got "https:\/\/App.example.com"$/],
    [{ CORS_ORIGINS: 'https://app.example.com:443' }, /got "https:\/\/app.example.com:443"$/],
    [{ CORS_ORIGINS: 'localhost:5173' }, /got "localhost:5173"$/],
    [{ CORS_ORIGINS: 'null' }, /got "null"$/],
    [{ CORS_ORIGINS: 'https://app.example.com/spa' }, /got "https:\/\/app.example.com\/spa"$/],
    [{ CORS_CREDENTIALS: 'sometimes' }, /^CORS_CREDENTIALS must be true or false/],
    [{ CORS_MAX_AGE_SECONDS: '100000' }, /^CORS_MAX_AGE_SECONDS must be between 0 and 86400/],
  ])('rejects %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it.each([
    [{ LOG_LEVEL: 'debug' }, { logLevel: 'debug' }],
    [{ LOG_LEVEL: 'WARN' }, { logLevel: 'warn' }],
    [{ LOG_LEVEL: 'silent' }, { logLevel: 'silent' }],
    [{ TRUST_PROXY: '' }, { trustProxy: false }],
    [{ TRUST_PROXY: 'false' }, { trustProxy: false }],
    [{ TRUST_PROXY: '0' }, { trustProxy: false }],
    [{ TRUST_PROXY: 'true' }, { trustProxy: true }],
    [{ TRUST_PROXY: '2' }, { trustProxy: 2 }],
    [{ TRUST_PROXY: 'loopback' }, { trustProxy: ['loopback'] }],
    [{ TRUST_PROXY: ' 10.0.0.0/8, 192.168.1.10 ,uniquelocal' }, { trustProxy: ['10.0.0.0/8', '192.168.1.10', 'uniquelocal'] }],
    [{ TRUST_PROXY: '::1,FC00::/7,linklocal' }, { trustProxy: ['::1', 'fc00::/7', 'linklocal'] }],
    [{ SHUTDOWN_DRAIN_MS: '5000' }, { shutdownDrainMs: 5_000, shutdownTimeoutMs: 10_000 }],
    [{}, { keepAliveTimeoutMs: 65_000 }],
    [{}, { cors: { origins: [], credentials: false, maxAgeSeconds: 600 } }],
    [
      { CORS_ORIGINS: ' http://localhost:5173 ,https://app.example.com,http://localhost:5173' },
      { cors: { origins: ['http://localhost:5173', 'https://app.example.com'] } },
    ],
    [{ CORS_ORIGINS: 'http://[::1]:8080' }, { cors: { origins: ['http://[::1]:8080'] } }],
    [{ CORS_ORIGINS: '*' }, { cors: { origins: '*', credentials: false } }],
    [{ CORS_ORIGINS: 'https://app.example.com', CORS_CREDENTIALS: 'true', CORS_MAX_AGE_SECONDS: '0' }, { cors: { credentials: true, maxAgeSeconds: 0 } }],
    [{ KEEP_ALIVE_TIMEOUT_MS: '620000' }, { keepAliveTimeoutMs: 620_000 }],
    [
      { SHUTDOWN_DRAIN_MS: '0', SHUTDOWN_TIMEOUT_MS: '0' },
      { shutdownDrainMs: 0, shutdownTimeoutMs: 0 },
    ],
  ])('accepts %j', (env, expected) => {
    const config = loadConfig(env);
    expect(config).toMatchObject(expected);
    // Whatever is accepted is a value Express's `trust proxy` takes (it throws on an address it cannot read).
    expect(() => express().set('trust proxy', config.trustProxy)).not.toThrow();
  });
});

describe('tracing configuration (the standard OTEL_* variables)', () => {
  it.each([
    [{}, { exporter: 'none' }],
    [{ OTEL_SERVICE_NAME: 'gateway' }, { exporter: 'none' }],
    [{ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, { exporter: 'none' }],
    [{ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' }, { exporter: 'none' }],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }, { exporter: 'otlp', serviceName: 'adgraph', endpoint: 'http://collector:4318/v1/traces' }],
    [{ OTEL_TRACES_EXPORTER: 'otlp' }, { exporter: 'otlp', endpoint: 'http://localhost:4318/v1/traces' }],
    [
      { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://otlp.example/ingest', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://ignored:4318' },
      { exporter: 'otlp', endpoint: 'https://otlp.example/ingest' },
    ],
    [
      { OTEL_TRACES_EXPORTER: 'Console', OTEL_SERVICE_NAME: 'gateway-eu' },
      { exporter: 'console', serviceName: 'gateway-eu' },
    ],
    [
      { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' },
      { exporter: 'otlp', sampleRatio: 1 },
    ],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' }, { sampleRatio: 0.1 }],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_TRACES_SAMPLER: 'parentbased_traceidratio' }, { sampleRatio: 1 }],
  ])('reads %j', (env, expected) => {
    expect(loadConfig(env).tracing).toEqual(expect.objectContaining(expected));
  });

  it.each([
    [{ OTEL_TRACES_EXPORTER: 'jaeger' }, /^OTEL_TRACES_EXPORTER must be one of otlp, console, none, got "jaeger"$/],
    [{ OTEL_TRACES_EXPORTER: 'otlp,console' }, /^OTEL_TRACES_EXPORTER must be one of otlp, console, none, got "otlp,console"$/],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, /^OTEL_EXPORTER_OTLP_ENDPOINT must start with http:\/\/ or https:\/\/$/],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'not a url' }, /^OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is not a valid URL$/],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, /^OTEL_EXPORTER_OTLP_PROTOCOL must be http\/protobuf .*got "grpc"$/],
    [{ OTEL_SDK_DISABLED: 'perhaps' }, /^OTEL_SDK_DISABLED must be true or false/],
    [
      { OTEL_TRACES_EXPORTER: 'otlp', OTEL_TRACES_SAMPLER: 'always_off' },
      /^OTEL_TRACES_SAMPLER must be one of parentbased_always_on, parentbased_traceidratio, got "always_off"$/,
    ],
    [
      { OTEL_TRACES_EXPORTER: 'otlp', OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '10%' },
      /^OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1/,
    ],
    [
      { OTEL_TRACES_EXPORTER: 'otlp', OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '1.5' },
      /^OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1/,
    ],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
