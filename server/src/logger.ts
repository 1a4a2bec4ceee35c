import { pino, type Logger } from 'pino';

/*
 * Structured JSON logs. Secrets never reach them: request bodies are not logged, and these paths are
 * censored in case a log call passes an object that carries one.
 */
const REDACT = [
  'password',
  'pass',
  'ssid',
  'session',
  'token',
  'subscript',
  'oldSubscript',
  '*.password',
  '*.pass',
  '*.ssid',
  '*.session',
  '*.token',
  '*.passwordHash',
  'req.headers.authorization',
  'req.headers.cookie',
];

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: REDACT, censor: '[redacted]' } });
}
