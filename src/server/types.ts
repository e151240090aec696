/** What the pipeline sees of an HTTP exchange: no uWS types cross this line. */
export interface IncomingRequest {
  /** Upper-case method. */
  method: string;
  path: string;
  query: string;
  /** Lower-case header names. */
  headers: ReadonlyMap<string, string>;
  /** Client address as text (IPv4-mapped IPv6 unwrapped). */
  ip: string;
  body: Buffer;
  /** performance.now() when the request line arrived. */
  startedAt: number;
}

/** Response headers by name; an `undefined` value is not sent (a fixed-shape object can list optional names). */
export type HeaderList = Record<string, string | undefined>;

/** The response side. Every method is a no-op after the client went away. */
export interface ResponseSink {
  readonly aborted: boolean;
  /** Called once when the client disconnects before the response ended. */
  onAbort(cb: () => void): void;
  /** Whole response: status line, headers, body, end. */
  send(status: number, headers: HeaderList, body: string | Uint8Array): void;
  /** Starts a streamed response: status and headers leave with the first body write (one socket write). */
  begin(status: number, headers: HeaderList): void;
  /** Writes a chunk of a begun stream (an empty one is skipped); false means the socket buffer is full: await drained(). */
  write(chunk: string | Uint8Array): boolean;
  drained(): Promise<void>;
  /** How many writes found the socket full (the stream then waited for drain before reading upstream). */
  readonly backpressureEvents: number;
  /** Ends the response; the chunks given (a begun stream's end: usage comment, closing event) leave with it in one socket write. */
  end(...chunks: (string | Uint8Array)[]): void;
  /**
   * Closes the connection without ending a begun stream: the client reads a broken response (a transport error),
   * never one that looks complete without its end.
   */
  cut(): void;
}

export type Handler = (req: IncomingRequest, res: ResponseSink) => void | Promise<void>;

/** A request before its body is read. */
export type RequestHead = Omit<IncomingRequest, 'body'>;

/** A whole answer the server layer writes (and then closes the connection, leaving the body unread). */
export interface Refusal {
  status: number;
  headers: HeaderList;
  body: string;
}

/**
 * Runs with the headers only, while the body is held back: returns the handler for the body, or a refusal
 * (the body is then never read or parsed). The dashboard checks session and Origin this way.
 */
export type Gate = (head: RequestHead) => Promise<Handler | Refusal>;
