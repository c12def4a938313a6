import { createHash } from 'node:crypto';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from './client';

/**
 * Writes one audit event's copy into the Object Lock audit bucket (decision 097), once: the PUT is
 * conditional (If-None-Match), so an event handed in again finds its object and is done ('existed').
 */
export class S3AuditObjectStore {
  constructor(private readonly bucket: string) {}

  async putOnce(key: string, body: string): Promise<'written' | 'existed'> {
    try {
      await s3().send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: body,
          ContentType: 'application/json',
          // Object Lock buckets require an integrity header on every PUT
          ContentMD5: createHash('md5').update(body).digest('base64'),
          IfNoneMatch: '*',
        }),
      );
      return 'written';
    } catch (e) {
      const status = (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 412) return 'existed'; // copied before: the object exists and is locked
      throw e;
    }
  }
}
