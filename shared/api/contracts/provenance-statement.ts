/**
 * The signed provenance statement of a package (decision 279; docs/package-format.md
 * "Provenance statement (sidecar)"): a DSSE envelope (in-toto's Dead Simple Signing Envelope) holding an
 * in-toto Statement v1, as stored beside the XML and answered by GET /packages/{id}/provenance-statement.
 */
export interface DsseEnvelope {
  /** 'application/vnd.in-toto+json' */
  payloadType: string;
  /** the statement's bytes, base64 */
  payload: string;
  /** one signature: ECDSA P-256 SHA-256 over PAE(payloadType, payload bytes), DER, low-S, base64 */
  signatures: Array<{ keyid: string; sig: string }>;
}
