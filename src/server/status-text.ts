/** Status lines for uWS writeStatus (uWS needs the full "code reason" text). */
const REASONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  529: 'Overloaded',
};

const cache = new Map<number, string>();

export function statusLine(status: number): string {
  let line = cache.get(status);
  if (!line) {
    line = `${status} ${REASONS[status] ?? 'Status'}`;
    cache.set(status, line);
  }
  return line;
}
