import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { worldBuilder } from '../helpers/world.ts';
import { expectGraphError, type GraphHttpResponse } from '../helpers/graph.ts';
import type { PostRecord } from '../../src/comments/store.ts';

/**
 * A comment's photo as a real upload: multipart/form-data with the file as `source`. The bytes are checked (a
 * JPEG, PNG, GIF or WebP, whatever the name says), limited to MEDIA_MAX_BYTES, stored through the media storage
 * (a local folder here, MEDIA_DIR) and served at the `source` URL; a refused upload stores nothing and writes no
 * comment; a caller without a valid token stores nothing.
 */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

let server: TestServer;
let token: string;
let post: PostRecord;
let mediaDir: string;

beforeAll(async () => {
  mediaDir = mkdtempSync(join(tmpdir(), 'adgraph-media-'));
  server = await startTestServer({ MEDIA_DIR: mediaDir, MEDIA_MAX_BYTES: '2048' });
  const world = worldBuilder(server.deps);
  const org = await world.organization();
  post = await world.post(await world.page(org.id));
  token = (await world.user()).token;
});
afterAll(async () => {
  await server?.close();
  rmSync(mediaDir, { recursive: true, force: true });
});

async function upload(
  file: { bytes: Buffer; name: string; field?: string },
  fields: Record<string, string> = {},
  as: string | null = token,
): Promise<GraphHttpResponse> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append(file.field ?? 'source', new Blob([new Uint8Array(file.bytes)], { type: 'image/png' }), file.name);
  const response = await fetch(`${server.url}/v24.0/${post.id}/comments`, { method: 'POST', body: form, headers: as ? { authorization: `Bearer ${as}` } : {} });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), text, headers: response.headers } as GraphHttpResponse;
}
const commentCount = async () => Number(((await server.deps.db('comments').count({ n: '*' })) as Array<{ n: unknown }>)[0]!.n);
const stored = () => readdirSync(mediaDir).filter((name) => !name.startsWith('.'));

describe('uploading a comment photo', () => {
  it('stores the image, and the comment shows it at a URL that serves the same bytes', async () => {
    const created = await upload({ bytes: PNG, name: 'photo.png' }, { message: 'Look at this' });
    expect(created.status, created.text).toBe(200);
    const read = await fetch(`${server.url}/v24.0/${created.body.id}?fields=message,attachment`, { headers: { authorization: `Bearer ${token}` } });
    const comment = (await read.json()) as { message: string; attachment: { type: string; source: string } };
    expect(comment).toMatchObject({ message: 'Look at this', attachment: { type: 'media', source: expect.stringMatching(/\/media\/[0-9a-f]{64}\.png$/) } });
    const served = await fetch(comment.attachment.source.replace(server.deps.config.publicUrl, server.url));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    expect(stored()).toHaveLength(1);
  });

  it('refuses what is no image, what is too large and files of another name, storing and writing nothing', async () => {
    const before = { comments: await commentCount(), files: stored() };
    expectGraphError(await upload({ bytes: Buffer.from('just text, named like a picture'), name: 'photo.png' }), {
      status: 400,
      code: 100,
      message: /Param source must be a JPEG, PNG, GIF or WebP image/,
    });
    expectGraphError(await upload({ bytes: Buffer.concat([PNG, Buffer.alloc(3_000)]), name: 'big.png' }), {
      status: 400,
      code: 100,
      message: /at most 2048 bytes/,
    });
    expectGraphError(await upload({ bytes: PNG, name: 'photo.png', field: 'picture' }), { status: 400, code: 100, message: /Param picture cannot be a file/ });
    // Without a valid token: refused as any call, and nothing stored.
    expectGraphError(await upload({ bytes: Buffer.concat([PNG, Buffer.from('other')]), name: 'photo.png' }, {}, 'not-a-token'), { status: 400, code: 190 });
    expect({ comments: await commentCount(), files: stored() }).toEqual(before);
    expect((await fetch(`${server.url}/media/${'0'.repeat(64)}.png`)).status).toBe(404);
    expect((await fetch(`${server.url}/media/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
  });

  it('answers a multipart body it cannot read with error 100, never a 500 or a hang', async () => {
    const send = async (type: string, body: string) => {
      const response = await fetch(`${server.url}/v24.0/${post.id}/comments`, {
        method: 'POST',
        body,
        headers: { 'content-type': type, authorization: `Bearer ${token}` },
      });
      return { status: response.status, body: (await response.json()) as { error: { code: number; message: string } } };
    };
    const noBoundary = await send('multipart/form-data', 'whatever');
    expect(noBoundary).toMatchObject({ status: 400, body: { error: { code: 100, message: expect.stringMatching(/no boundary/) } } });
    const truncated = await send(
      'multipart/form-data; boundary=xyz',
      '--xyz\r\nContent-Disposition: form-data; name="source"; filename="a.png"\r\n\r\n\x89PNG',
    );
    expect(truncated).toMatchObject({ status: 400, body: { error: { code: 100 } } });
  });
});
