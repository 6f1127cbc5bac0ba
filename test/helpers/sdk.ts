import { expect } from 'vitest';
import bizSdk from 'facebook-nodejs-business-sdk';

/**
 * Points the reference client, facebook-nodejs-business-sdk 24.0.1, at a test server: its base URL is the
 * static getter FacebookAdsApi.GRAPH (also axios's baseURL in Http.requestPromise), redefined here; the version
 * is the static getter VERSION ('v24.0'). init() gets crash_log=false: the crash reporter would add a
 * process-wide uncaughtException handler. Returns the function that points it back.
 */
export function pointSdkAt(url: string, token: string): () => void {
  const { FacebookAdsApi } = bizSdk;
  const original = Object.getOwnPropertyDescriptor(FacebookAdsApi, 'GRAPH');
  Object.defineProperty(FacebookAdsApi, 'GRAPH', { get: () => url, configurable: true });
  expect(FacebookAdsApi.GRAPH).toBe(url);
  expect(FacebookAdsApi.VERSION).toBe('v24.0');
  FacebookAdsApi.init(token, 'en_US', false);
  return () => {
    if (original) Object.defineProperty(FacebookAdsApi, 'GRAPH', original);
  };
}

/** An object of the SDK as its classes return it (the bundle ships no types): its id and the fields it read. */
export interface SdkObject {
  id: string;
  _data: Record<string, any>;
  [field: string]: unknown;
}

/** A page of an edge as the SDK's Cursor holds it, with the way to the next. */
export interface SdkCursor extends Array<SdkObject> {
  hasNext(): boolean;
  next(): Promise<SdkCursor>;
}
