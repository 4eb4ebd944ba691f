import {
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { StorageError, s3Refusal } from '../aws/errors.js';

/** SigV4 pre-signed URLs live at most seven days. */
export const MAX_LINK_SECONDS = 7 * 86_400;

/** Writes a page or CSV (small: built in memory). */
export async function writeReportObject(
  s3: S3Client,
  bucket: string,
  key: string,
  body: string,
  contentType: 'text/html; charset=utf-8' | 'text/csv; charset=utf-8',
  metadata?: Record<string, string>,
): Promise<void> {
  try {
    await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: body,
        ContentType: contentType,
        ...(metadata ? { Metadata: metadata } : {}),
      }),
    );
  } catch (error) {
    throw new StorageError(`Cannot write s3://${bucket}/${key}`, { cause: error });
  }
}

/** The report day a stored page says it shows (its `report-day` metadata), if it exists. */
export async function storedReportDay(
  s3: S3Client,
  bucket: string,
  key: string,
): Promise<string | undefined> {
  try {
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return head.Metadata?.['report-day'];
  } catch (error) {
    if (s3Refusal(error) === 'missing') return undefined;
    throw new StorageError(`Cannot read s3://${bucket}/${key}`, { cause: error });
  }
}

/**
 * A link to a page that opens in a browser without AWS credentials, for `seconds` (1 s to 7
 * days). It carries the signer's credentials' limits: signed by a Lambda role, it stops
 * working when the role's session ends, whatever `seconds` says.
 *
 * @example
 * const url = await reportLink(s3Client(), bucket, dailyPageKey(gsm, day), 86_400);
 */
export async function reportLink(
  s3: S3Client,
  bucket: string,
  key: string,
  seconds: number,
): Promise<string> {
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_LINK_SECONDS)
    throw new RangeError(`a report link lives 1 to ${MAX_LINK_SECONDS} seconds (got ${seconds})`);
  return getSignedUrl(s3, new GetObjectCommand({ Bucket: bucket, Key: key }), {
    expiresIn: seconds,
  });
}
