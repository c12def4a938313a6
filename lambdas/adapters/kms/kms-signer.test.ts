import { createHash, generateKeyPairSync, verify } from 'node:crypto';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { p256 } from '@noble/curves/nist.js';
import { describe, expect, it, vi } from 'vitest';
import { isHighS } from '../../../shared/domain/ecdsa-low-s';
import { signDigestP256 } from '../local/ecdsa-p256';
import { KmsSigner } from './kms-signer';

const N = p256.Point.CURVE().n;
const highS = (der: Uint8Array) => {
  const sig = p256.Signature.fromBytes(der, 'der');
  return new p256.Signature(sig.r, N - sig.s).toBytes('der');
};

/** A KMS client whose `send` answers from a local key, recording what it was asked. */
function fakeKms(keySpec = 'ECC_NIST_P256') {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const d = new Uint8Array(Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url'));
  const client = new KMSClient({
    region: 'eu-west-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
  });
  const send = vi.spyOn(client, 'send').mockImplementation(async (command: unknown) => {
    // KMS does not promise low-S: this one always answers with the high-S twin
    if (command instanceof SignCommand)
      return { Signature: highS(signDigestP256(d, command.input.Message!)) };
    if (command instanceof GetPublicKeyCommand)
      return {
        PublicKey: publicKey.export({ type: 'spki', format: 'der' }),
        KeySpec: keySpec,
        SigningAlgorithms: ['ECDSA_SHA_256'],
      };
    throw new Error('unexpected command');
  });
  return { client, send };
}

describe('KmsSigner', () => {
  it('asks KMS to sign the digest as a digest with ECDSA_SHA_256', async () => {
    const { client, send } = fakeKms();
    const signer = new KmsSigner('alias/package-signing', client);
    const data = Buffer.from('manifest');
    const sig = await signer.sign(createHash('sha256').update(data).digest());
    const input = (send.mock.calls[0]![0] as SignCommand).input;
    expect(input).toMatchObject({
      KeyId: 'alias/package-signing',
      MessageType: 'DIGEST',
      SigningAlgorithm: 'ECDSA_SHA_256',
    });
    expect(verify('sha256', data, { key: await signer.publicKeyPem(), dsaEncoding: 'der' }, sig)).toBe(true);
    // the high-S answer came back in its low-S form
    expect(isHighS(sig)).toBe(false);
  });
  it('returns the public key as PEM and asks KMS only once', async () => {
    const { client, send } = fakeKms();
    const signer = new KmsSigner('k', client);
    expect(await signer.publicKeyPem()).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    await signer.publicKeyPem();
    expect(send.mock.calls.filter(([c]) => c instanceof GetPublicKeyCommand)).toHaveLength(1);
  });
  it('refuses a key that is not ECC_NIST_P256', async () => {
    const { client } = fakeKms('RSA_2048');
    await expect(new KmsSigner('k', client).publicKeyPem()).rejects.toThrow(
      /packages need an ECC_NIST_P256 signing key/,
    );
  });
  it('refuses to send anything but a 32-byte digest', async () => {
    const { client, send } = fakeKms();
    await expect(new KmsSigner('k', client).sign(new Uint8Array(64))).rejects.toThrow(/32-byte/);
    expect(send).not.toHaveBeenCalled();
  });
});
