import type { Command } from 'commander';
import { principalFor, SCOPES } from '../../domain/principal.js';
import { DEFAULT_DOMAIN } from '../../domain/link-domain.js';
import { hasKeyExpired } from '../../services/keys/key-expiry.js';
import {
  issueKey,
  listKeys,
  revokeKey,
  type ApiKeyRecord,
} from '../../services/keys/manage-keys.js';
import { withRuntime } from '../with-runtime.js';

interface CreateOptions {
  owner: string;
  admin: boolean;
  name?: string;
  scope?: string[];
  domain?: string[];
  expires?: string;
}

/** Commander's way to take an option more than once. */
const collect = (value: string, previous: string[] | undefined): string[] => [
  ...(previous ?? []),
  value,
];

export function addKeysCommand(program: Command): void {
  const keys = program.command('keys').description('manage API keys');

  keys
    .command('create')
    .description('issue a key and print it (shown only this once)')
    .requiredOption('--owner <owner>', 'owner of the links made with this key')
    .option('--admin', 'an admin key: sees and manages every owner, holds every scope', false)
    .option('--name <name>', 'what people call the key')
    .option(
      '--scope <scope>',
      `what the key may do, repeatable (${SCOPES.join(', ')}); default links:read, links:write, analytics:read`,
      collect,
    )
    .option(
      '--domain <host>',
      'the only domain the key may use, repeatable; default every domain',
      collect,
    )
    .option('--expires <time>', 'RFC 3339 time from which the key is refused')
    .action(async (options: CreateOptions) => {
      await withRuntime(
        async (runtime) => {
          // The operator on the host issues anything, as an admin key would (ADR 0118).
          const issued = await issueKey(runtime.keyService, null, {
            owner: options.owner,
            admin: options.admin,
            name: options.name,
            scopes: options.scope,
            domains: options.domain,
            expiresAt: options.expires,
          });
          const record = issued.record;
          const host = runtime.keyService.defaultHost;
          process.stdout.write(
            `${issued.key}\n` +
              `id ${record.id}, owner ${record.owner}${record.admin ? ', admin' : ''}\n` +
              `name ${record.name ?? '-'}; scopes ${scopesOf(record)}; domains ${domainsOf(record, host)}; expires ${timeOf(record.expiresAt)}\n`,
          );
        },
        { createsDatabase: true },
      );
    });

  keys
    .command('list')
    .description('list keys (never their secrets)')
    .action(async () => {
      await withRuntime(
        async (runtime) => {
          const keys = await listKeys(runtime.keyService, null);
          if (keys.length === 0) {
            process.stdout.write('no keys (hop serve creates an admin key on its first start)\n');
            return;
          }
          const now = runtime.keyService.clock.now();
          const host = runtime.keyService.defaultHost;
          process.stdout.write(
            'id  prefix  owner  state  created  name  scopes  domains  expires  last-used\n',
          );
          for (const key of keys) {
            const state =
              key.revokedAt !== null ? 'revoked' : hasKeyExpired(key, now) ? 'expired' : 'active';
            process.stdout.write(
              `${key.id}  ${key.prefix}…  ${key.owner}${key.admin ? ' (admin)' : ''}  ${state}  ${new Date(key.createdAt).toISOString()}` +
                `  ${key.name === null ? '-' : JSON.stringify(key.name)}  ${scopesOf(key)}  ${domainsOf(key, host)}  ${timeOf(key.expiresAt)}  ${timeOf(key.lastUsedAt)}\n`,
            );
          }
        },
        { readOnly: true },
      );
    });

  keys
    .command('revoke')
    .description('revoke a key by id')
    .argument('<id>', 'the key id, as `hop keys list` shows it')
    .action(async (id: string) => {
      await withRuntime(async (runtime) => {
        await revokeKey(runtime.keyService, null, id);
        process.stdout.write(`revoked ${id}\n`);
      });
    });
}

/** The scopes the key authenticates with, comma-joined: an admin's all, an old key's the default. */
function scopesOf(key: ApiKeyRecord): string {
  const held = principalFor(key).scopes;
  return SCOPES.filter((scope) => held.has(scope)).join(',');
}

function domainsOf(key: ApiKeyRecord, defaultHost: string): string {
  if (key.domains === null) return 'all';
  return key.domains.map((host) => (host === DEFAULT_DOMAIN ? defaultHost : host)).join(',');
}

function timeOf(ms: number | null): string {
  return ms === null ? 'never' : new Date(ms).toISOString();
}
