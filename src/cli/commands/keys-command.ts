import type { Command } from 'commander';
import { issueKey, listKeys, revokeKey } from '../../services/keys/manage-keys.js';
import { withRuntime } from '../with-runtime.js';

export function addKeysCommand(program: Command): void {
  const keys = program.command('keys').description('manage API keys');

  keys
    .command('create')
    .description('issue a key and print it (shown only this once)')
    .requiredOption('--owner <owner>', 'owner of the links made with this key')
    .option('--admin', 'an admin key: sees and manages every owner', false)
    .action(async (options: { owner: string; admin: boolean }) => {
      await withRuntime(
        async (runtime) => {
          const issued = await issueKey(runtime.keyService, options.owner, options.admin);
          process.stdout.write(
            `${issued.key}\n` +
              `id ${issued.record.id}, owner ${issued.record.owner}${issued.record.admin ? ', admin' : ''}\n`,
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
          const keys = await listKeys(runtime.keyService);
          if (keys.length === 0) {
            process.stdout.write('no keys (hop serve creates an admin key on its first start)\n');
            return;
          }
          process.stdout.write('id  prefix  owner  state  created\n');
          for (const key of keys) {
            const state = key.revokedAt === null ? 'active' : 'revoked';
            process.stdout.write(
              `${key.id}  ${key.prefix}…  ${key.owner}${key.admin ? ' (admin)' : ''}  ${state}  ${new Date(key.createdAt).toISOString()}\n`,
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
        await revokeKey(runtime.keyService, id);
        process.stdout.write(`revoked ${id}\n`);
      });
    });
}
