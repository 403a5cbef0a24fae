import { ConfigError } from '../config/load-config.js';

/**
 * The address a server was told to listen on could not be had (in use, not ours, not an
 * address): a configuration error naming the variables to change.
 */
export function cannotListen(
  host: string,
  portVariable: 'HOP_PORT' | 'HOP_WORKER_PORT',
  port: number,
  error: unknown,
): ConfigError {
  const reason = error instanceof Error ? error.message : String(error);
  return new ConfigError([
    `HOP_HOST=${JSON.stringify(host)} ${portVariable}=${JSON.stringify(String(port))} cannot be listened on: ${reason}`,
  ]);
}
