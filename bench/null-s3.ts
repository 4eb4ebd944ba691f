import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running null S3 endpoint (startNullS3). */
export interface NullS3 {
  endpoint: string;
  /** Body bytes of every part and PutObject received so far. */
  bytesReceived(): number;
  stop(): Promise<void>;
}

/**
 * An S3 endpoint that stores nothing: it answers the requests of a streamed archive (a
 * multipart upload, or one PutObject for a small object) and of the report store's small
 * writes (HeadObject, always 404, then PutObject), and counts the bytes it is sent.
 *
 * Why: moto stores every part in Python on the cores the walk runs on (3–4 s of CPU in a
 * million-endpoint archive), work S3 does on its own machines for a deployed function. An
 * archive uploaded here pays for everything of its own (entry texts, gzip, SHA-256, the SDK's
 * signing, checksums and HTTP) and nothing of the store's, so the bench can tell the two apart.
 * It runs in the bench's own process, whose CPU (reading and counting the bytes) no figure
 * includes. Not a fake for tests: nothing reads back what it was sent, and the tests use moto.
 *
 * @example
 * const sink = await startNullS3();
 * createAwsClients({ endpoint: sink.endpoint, ... }); // then sink.bytesReceived()
 */
export async function startNullS3(): Promise<NullS3> {
  const received = { bytes: 0 };
  let uploads = 0;
  const server = createServer((req, res) => {
    answer(req, res, received, () => `null-s3-upload-${++uploads}`).catch(() => {
      res.statusCode = 500;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bytesReceived: () => received.bytes,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  received: { bytes: number },
  newUploadId: () => string,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://null-s3');
  // Path style, as the SDK sends it to a custom endpoint: /bucket/key.
  const [, bucket = '', ...keyParts] = url.pathname.split('/');
  const key = decodeURIComponent(keyParts.join('/'));
  let bytes = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) bytes += chunk.length;
  const query = url.searchParams;
  const xml = (body: string) => {
    res.setHeader('content-type', 'application/xml');
    res.end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
  };
  if (req.method === 'POST' && query.has('uploads')) {
    xml(
      `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${escapeXml(key)}</Key><UploadId>${newUploadId()}</UploadId></InitiateMultipartUploadResult>`,
    );
  } else if (req.method === 'PUT') {
    // A part (partNumber, uploadId) or a whole small object: either way, bytes of the object.
    received.bytes += bytes;
    res.setHeader('etag', `"${query.get('partNumber') ?? 'object'}"`);
    res.end();
  } else if (req.method === 'POST' && query.has('uploadId')) {
    xml(
      `<CompleteMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${escapeXml(key)}</Key><ETag>"null-s3"</ETag></CompleteMultipartUploadResult>`,
    );
  } else if (req.method === 'HEAD') {
    // Nothing is ever stored here, so no object exists (the report store asks before writing
    // a small one).
    res.statusCode = 404;
    res.end();
  } else if (req.method === 'DELETE') {
    res.statusCode = 204;
    res.end();
  } else {
    res.statusCode = 501;
    xml(`<Error><Code>NotImplemented</Code><Message>null S3 stores nothing</Message></Error>`);
  }
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
