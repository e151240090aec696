/**
 * Bedrock credentials and region.
 *
 * Credential environment naming: `apiKeyEnv` names the variable that holds the access key id, and must end
 * in `ACCESS_KEY_ID`; what precedes that suffix is the prefix of its siblings:
 *
 *   apiKeyEnv = AWS_ACCESS_KEY_ID          -> AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_REGION
 *   apiKeyEnv = BEDROCK_EU_ACCESS_KEY_ID   -> BEDROCK_EU_SECRET_ACCESS_KEY, BEDROCK_EU_SESSION_TOKEN, BEDROCK_EU_REGION
 *
 * A name without that suffix is taken as the prefix itself (`BEDROCK_EU` -> `BEDROCK_EU_ACCESS_KEY_ID`...);
 * `null` means the standard `AWS_*` variables. Naming the access key id keeps the generic "is this
 * endpoint's credential present?" check (`env[apiKeyEnv]`) meaningful for Bedrock too.
 *
 * Region: from the host `bedrock-runtime[-fips].<region>.amazonaws.com[.cn]`; for any other host (a VPC
 * endpoint, a proxy, the simulator) `<prefix>REGION`, then `AWS_REGION` / `AWS_DEFAULT_REGION`, then us-east-1.
 */
import type { EndpointConfig } from '../../config/schema.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { AwsCredentials } from './sigv4.js';

const SUFFIX = 'ACCESS_KEY_ID';

export function credentialPrefix(apiKeyEnv: string | null): string {
  if (apiKeyEnv === null) return 'AWS_';
  return apiKeyEnv.endsWith(SUFFIX) ? apiKeyEnv.slice(0, -SUFFIX.length) : `${apiKeyEnv}_`;
}

/** The endpoint's AWS credentials; a GatewayError (our configuration, not the client's) when missing. */
export function awsCredentials(ep: EndpointConfig, env: NodeJS.ProcessEnv): AwsCredentials {
  const prefix = credentialPrefix(ep.apiKeyEnv);
  const accessKeyId = env[`${prefix}${SUFFIX}`];
  const secretAccessKey = env[`${prefix}SECRET_ACCESS_KEY`];
  if (!accessKeyId || !secretAccessKey) {
    throw new GatewayError('upstream_error', { message: 'The provider credentials are not configured.' });
  }
  const sessionToken = env[`${prefix}SESSION_TOKEN`];
  return sessionToken ? { accessKeyId, secretAccessKey, sessionToken } : { accessKeyId, secretAccessKey };
}

const HOST_REGION = /^bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?$/;

export function awsRegion(ep: EndpointConfig, env: NodeJS.ProcessEnv): string {
  const host = new URL(ep.baseUrl).hostname;
  const fromHost = HOST_REGION.exec(host)?.[1];
  if (fromHost) return fromHost;
  return env[`${credentialPrefix(ep.apiKeyEnv)}REGION`] || env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1';
}
