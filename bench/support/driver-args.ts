import { parseArgs } from 'node:util';

/** The command line shared by the Node load drivers. */
interface DriverArgs {
  readonly url: URL;
  readonly pathsFile: string;
  readonly connections: number;
  readonly seconds: number;
  /** Total requests per second to offer; open loop only. */
  readonly rate: number | undefined;
  /** Open loop only: POST /v1/links this often a second beside the load, with this key. */
  readonly creates: { readonly perSecond: number; readonly key: string } | undefined;
  /** Extra request headers sent with every load request, from `--header 'Name: value'`. */
  readonly headers: Readonly<Record<string, string>>;
}

export function parseDriverArgs(usage: string, args: readonly string[]): DriverArgs {
  const { values } = parseArgs({
    args: [...args],
    options: {
      url: { type: 'string' },
      paths: { type: 'string' },
      connections: { type: 'string', default: '50' },
      seconds: { type: 'string', default: '10' },
      rate: { type: 'string' },
      'creates-per-second': { type: 'string' },
      'create-key': { type: 'string' },
      header: { type: 'string', multiple: true, default: [] },
    },
    strict: true,
  });
  if (values.url === undefined || values.paths === undefined) throw new Error(`usage: ${usage}`);
  return {
    url: new URL(values.url),
    pathsFile: values.paths,
    connections: Math.round(positive('connections', values.connections)),
    seconds: positive('seconds', values.seconds),
    rate: values.rate === undefined ? undefined : positive('rate', values.rate),
    creates:
      values['creates-per-second'] === undefined
        ? undefined
        : {
            perSecond: positive('creates-per-second', values['creates-per-second']),
            key: values['create-key'] ?? '',
          },
    headers: parseHeaders(values.header),
  };
}

/** `Name: value` lines (wrk's -H syntax) as a record; a malformed one is an error. */
function parseHeaders(lines: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim();
    if (name === '' || /\s/.test(name) || /[\r\n]/.test(line)) {
      throw new Error(`--header must look like 'Name: value', not ${JSON.stringify(line)}`);
    }
    headers[name] = line.slice(colon + 1).trim();
  }
  return headers;
}

function positive(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}
