/**
 * What of a provider's error text a client may read (security hardening, finding 6). Providers put the
 * operator's account in their messages ("Rate limit reached for gpt-4o in organization org-...", ARNs with
 * the AWS account, `projects/<id>` on Vertex). A client sees our own message for everything but a rejected
 * request; for a rejected request (its own fault: bad parameter, too long) it also sees the provider's
 * reason, with secrets (scrubbed by the caller) and account identifiers removed. The pipeline logs the
 * provider's original text (execute.ts).
 */
import type { ErrorName } from '../errors/codes.js';

const ACCOUNT_PATTERNS: readonly RegExp[] = [
  /\b(?:org|user)-[A-Za-z0-9]{3,}/g, // OpenAI organization and user ids
  /\bproj_[A-Za-z0-9]{3,}/g, // OpenAI project ids
  /\barn:aws[-a-z]*:[^\s"',)]+/g, // AWS ARNs (they carry the account id)
  /\b\d{12}\b/g, // AWS account ids
  /\bprojects\/[^\s/"',)]+/g, // Google Cloud project ids and numbers
  /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, // service-account and user e-mail addresses
];

export function scrubAccounts(text: string): string {
  let out = text;
  for (const re of ACCOUNT_PATTERNS) out = out.replace(re, '[redacted]');
  return out;
}

/** The provider detail to append to our message for an error of kind `name`: '' unless the request was rejected. */
export function clientDetail(name: ErrorName, scrubbed: string): string {
  return name === 'invalid_request' || name === 'payload_too_large' ? scrubAccounts(scrubbed) : '';
}
