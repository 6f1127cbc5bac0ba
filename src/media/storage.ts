import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/**
 * Where uploaded media lives: one interface, so a deployment can put it elsewhere (object storage) without the
 * surfaces knowing. The embedded default is a local folder (MEDIA_DIR). Media is addressed by its content (SHA-256
 * and the type's extension): the same bytes are stored once, and a key cannot be guessed without the bytes.
 */
export interface MediaStorage {
  /** Stores the bytes (of a type already checked); answers their key. */
  put(bytes: Buffer, type: MediaType): Promise<string>;
  /** The bytes and type under a key, or null. */
  get(key: string): Promise<{ bytes: Buffer; type: MediaType } | null>;
}

/** The media types accepted, by what their bytes are (never by what the caller says they are). */
export const MEDIA_TYPES = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
} as const;
export type MediaType = keyof typeof MEDIA_TYPES;

const KEY = /^([0-9a-f]{64})\.(jpg|png|gif|webp)$/;
const typeOfExtension = (extension: string) => (Object.entries(MEDIA_TYPES).find(([, ext]) => ext === extension)?.[0] ?? null) as MediaType | null;

export function localFolderStorage(dir: string): MediaStorage {
  const root = resolve(dir);
  return {
    async put(bytes, type) {
      const key = `${createHash('sha256').update(bytes).digest('hex')}.${MEDIA_TYPES[type]}`;
      await mkdir(root, { recursive: true });
      // Written whole under a temporary name, then renamed: a reader never sees half a file.
      const temporary = join(root, `.${key}.${process.pid}.tmp`);
      await writeFile(temporary, bytes);
      await rename(temporary, join(root, key));
      return key;
    },
    async get(key) {
      const match = KEY.exec(key);
      const type = match ? typeOfExtension(match[2]!) : null;
      if (!match || !type) return null;
      try {
        return { bytes: await readFile(join(root, key)), type };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
  };
}
