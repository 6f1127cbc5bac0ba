import Busboy from 'busboy';
import type { Request } from 'express';
import { paramError } from '../graph-api/params.ts';
import { MEDIA_TYPES, type MediaStorage, type MediaType } from './storage.ts';

/** The most plain fields a multipart call may carry beside its one file. */
const MAX_FIELDS = 50;
const MAX_FIELD_BYTES = 64 * 1024;

/**
 * A multipart/form-data call (a comment's photo sent as `source`): its fields as parameters and its one file,
 * stored once its bytes are known to be an image the gateway takes (by content, not by the name or type the
 * caller gives) and within MEDIA_MAX_BYTES; `source` becomes the stored media's URL. Anything else is refused
 * as the Graph API refuses a parameter, naming it.
 */
export function readMultipart(
  req: Request,
  options: {
    storage: MediaStorage;
    maxBytes: number;
    publicUrl: string;
    /** Whether the caller may upload at all (its token, from the headers or the fields before the file): nothing is stored otherwise. */
    authorized: (fields: Record<string, unknown>) => Promise<boolean>;
  },
): Promise<Record<string, unknown>> {
  return new Promise((resolvePromise, reject) => {
    const params: Record<string, unknown> = {};
    let file: Promise<void> | undefined;
    let failure: Error | undefined;
    const fail = (error: Error) => {
      failure ??= error;
    };
    let parser: ReturnType<typeof Busboy>;
    try {
      parser = Busboy({ headers: req.headers, limits: { files: 1, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, fileSize: options.maxBytes } });
    } catch {
      reject(paramError('body', 'The multipart body has no boundary: send it as multipart/form-data with one'));
      return;
    }
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(paramError(name, `Param ${name} must be at most ${MAX_FIELD_BYTES} bytes`));
      else params[name] = value;
    });
    parser.on('file', (name, stream) => {
      if (name !== 'source') {
        stream.resume();
        fail(paramError(name, `Param ${name} cannot be a file: upload media as source`));
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      // A body cut short fails the file's stream too: handled here, or it would be an uncaught exception.
      stream.on('error', (error: Error) => fail(paramError('source', `The file cannot be read: ${error.message}`)));
      file = new Promise((done) => {
        stream.on('close', () => {
          if ((stream as unknown as { truncated?: boolean }).truncated) {
            fail(paramError('source', `Param source must be at most ${options.maxBytes} bytes`));
            done();
            return;
          }
          const bytes = Buffer.concat(chunks);
          void options
            .authorized(params)
            .then(async (allowed) => {
              // Not stored for a caller with no valid token: the call is refused as any other without one.
              if (!allowed) return;
              // file-type (and its readers) loaded with the first upload, not at every start.
              const { fileTypeFromBuffer } = await import('file-type');
              const detected = await fileTypeFromBuffer(bytes);
              const type = detected?.mime as MediaType | undefined;
              if (!type || !(type in MEDIA_TYPES)) {
                fail(paramError('source', 'Param source must be a JPEG, PNG, GIF or WebP image (its bytes are checked, not its name)'));
                return;
              }
              params.source = `${options.publicUrl}/media/${await options.storage.put(bytes, type)}`;
            })
            .catch((error: unknown) => fail(error as Error))
            .finally(done);
        });
      });
    });
    parser.on('filesLimit', () => fail(paramError('source', 'Send one file, as source')));
    parser.on('fieldsLimit', () => fail(paramError('body', `A multipart call takes at most ${MAX_FIELDS} fields`)));
    // A body that cannot be read (or a caller gone mid-upload) settles at once: busboy may not close after an error.
    const unreadable = (error: Error) => {
      req.unpipe(parser);
      req.resume();
      reject(paramError('body', `The multipart body cannot be read: ${error.message}`));
    };
    parser.on('error', unreadable);
    req.on('aborted', () => unreadable(new Error('the caller closed the connection')));
    parser.on('close', () => {
      void (file ?? Promise.resolve()).then(() => (failure ? reject(failure) : resolvePromise(params)));
    });
    req.pipe(parser);
  });
}
