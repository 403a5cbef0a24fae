import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * JSON logs on stdout. API keys never reach a log line: the Authorization header and any
 * field named like a key or secret are redacted wherever they appear.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'hop' },
    redact: {
      paths: [
        'req.headers.authorization',
        'headers.authorization',
        // The console's session cookie and CSRF token are credentials too.
        'req.headers.cookie',
        'headers.cookie',
        'req.headers["x-csrf-token"]',
        'headers["x-csrf-token"]',
        'res.headers["set-cookie"]',
        '*.key',
        '*.apiKey',
        '*.secret',
        'key',
        'apiKey',
      ],
      censor: '[redacted]',
    },
  });
}
