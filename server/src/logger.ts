import { pino, stdSerializers, type Logger } from 'pino';

/*
 * Structured JSON logs, one object a line (product.md §10.4). What they must never hold: passwords, session
 * ids (the `ssid` of a body, tokens), push keys (p256dh, auth, the endpoint, whose path is a secret) and
 * message text. Request bodies and socket frames are never logged; these paths are censored in case a log
 * call passes an object that carries one, and errors lose what a failed query or push carried with them.
 */
const SECRET_KEYS = [
  'password',
  'pass',
  'currentPassword',
  'newPassword',
  'passwordHash',
  'ssid',
  'session',
  'sessionId',
  'token',
  'subscript',
  'oldSubscript',
  'subscription',
  'endpoint',
  'p256dh',
  'auth',
  'keys',
  'message',
  'body',
  'text',
  'params',
  'parameters',
];
const REDACT = [
  ...SECRET_KEYS,
  // One level down too, but not an error's own message (errors are scrubbed by safeError instead).
  ...SECRET_KEYS.filter((key) => key !== 'message').map((key) => `*.${key}`),
  'req.headers.authorization',
  'req.headers.cookie',
];

/** Drizzle puts a failed statement's parameters (a message's text, a password's hash) into its message. */
const PARAMS_IN_TEXT = /\nparams: [\s\S]*$/;

interface SerializedError {
  [key: string]: unknown;
  message: string;
  stack: string;
}

/** pino's error serializer, minus what a failed query or push carries: parameters, endpoints, bodies. */
function safeError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const serialized = stdSerializers.err(error) as SerializedError;
  return scrubError(serialized);
}

function scrubError(serialized: SerializedError): SerializedError {
  const out: SerializedError = { ...serialized };
  for (const key of ['params', 'parameters', 'endpoint', 'body', 'headers', 'query']) delete out[key];
  out.message = String(out.message ?? '').replace(PARAMS_IN_TEXT, '');
  out.stack = String(out.stack ?? '').replace(PARAMS_IN_TEXT, '');
  if (out.cause && typeof out.cause === 'object') out.cause = scrubError(out.cause as SerializedError);
  return out;
}

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACT, censor: '[redacted]' },
      serializers: { err: safeError, error: safeError },
    },
    destination,
  );
}
