import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { SignatureV4 } from '@smithy/signature-v4';
import type { ArtefactJobs, GenerationJob } from '../../ports/artefact-jobs';

type Data = string | ArrayBuffer | ArrayBufferView;
const bytes = (d: Data): Buffer =>
  typeof d === 'string'
    ? Buffer.from(d, 'utf8')
    : ArrayBuffer.isView(d)
      ? Buffer.from(d.buffer, d.byteOffset, d.byteLength)
      : Buffer.from(d);

/** SHA-256 and HMAC-SHA-256 of Node's crypto, in the shape SignatureV4 asks for. */
class NodeSha256 {
  private readonly h: Hash | Hmac;
  constructor(secret?: Data) {
    this.h = secret ? createHmac('sha256', bytes(secret)) : createHash('sha256');
  }
  update(d: Data): void {
    this.h.update(bytes(d));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.h.digest());
  }
}

/**
 * Starts a generation as an asynchronous invocation of the worker function (Lambda Invoke with
 * `X-Amz-Invocation-Type: Event`, which Lambda queues and answers 202): Lambda's event invoke config
 * retries a failed run and sends the event to the on-failure queue after the last one
 * (infra/lib/constructs/generation.ts). The Invoke API is called signed with SigV4 (the SDK's signer and
 * credential chain), so the route needs no Lambda SDK client in its bundle.
 */
export class LambdaArtefactJobs implements ArtefactJobs {
  private readonly signer: SignatureV4;

  constructor(
    private readonly functionName: string,
    private readonly region: string,
  ) {
    this.signer = new SignatureV4({
      service: 'lambda',
      region,
      credentials: defaultProvider(),
      sha256: NodeSha256,
    });
  }

  async start(job: GenerationJob): Promise<void> {
    const hostname = `lambda.${this.region}.amazonaws.com`;
    const path = `/2015-03-31/functions/${encodeURIComponent(this.functionName)}/invocations`;
    const body = JSON.stringify(job);
    const signed = await this.signer.sign({
      method: 'POST',
      protocol: 'https:',
      hostname,
      path,
      headers: { host: hostname, 'content-type': 'application/json', 'x-amz-invocation-type': 'Event' },
      body,
    });
    const res = await fetch(`https://${hostname}${path}`, {
      method: 'POST',
      headers: signed.headers as Record<string, string>,
      body,
    });
    const text = await res.text();
    if (res.status !== 202)
      throw new Error(`Lambda Invoke (Event) answered ${res.status}: ${text.slice(0, 300)}`);
  }
}
