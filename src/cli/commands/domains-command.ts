import type { Command } from 'commander';
import { toDomainJson } from '../../main/domain-wire-json.js';
import { createDomain } from '../../services/domains/create-domain.js';
import { deleteDomain } from '../../services/domains/delete-domain.js';
import type { DomainView } from '../../services/domains/domain-view.js';
import { listDomains } from '../../services/domains/list-domains.js';
import { BOOTSTRAP_OWNER } from '../../services/keys/manage-keys.js';
import { operator } from '../operator.js';
import { withRuntime } from '../with-runtime.js';

/** `hop domains add|list|remove` (issue 22): the API's domain use cases, for an operator. */
export function addDomainsCommand(program: Command): void {
  const domains = program
    .command('domains')
    .description('manage short domains (the host of HOP_PUBLIC_URL is the default)');

  domains
    .command('add')
    .description('add a short domain; point its DNS at hop first')
    .argument('<host>', 'the host name, such as go.acme.com')
    .option('--root-redirect <url>', 'where GET / on the domain goes')
    .option('--not-found-redirect <url>', 'where unknown, disabled, expired codes go, not the 404')
    .option('--http', 'short URLs on the domain are http://, not https://', false)
    .addHelpText(
      'after',
      `
Example:
  $ hop domains add go.acme.com --root-redirect https://acme.com/`,
    )
    .action(
      async (
        host: string,
        options: { rootRedirect?: string; notFoundRedirect?: string; http: boolean },
      ) => {
        await withRuntime(
          async (runtime) => {
            const domain = await createDomain(runtime.domainService, operator(BOOTSTRAP_OWNER), {
              host,
              rootRedirect: options.rootRedirect,
              notFoundRedirect: options.notFoundRedirect,
              https: !options.http,
            });
            process.stdout.write(`added ${describeDomain(domain)}\n`);
          },
          { createsDatabase: true },
        );
      },
    );

  domains
    .command('list')
    .description('list the domains, the default first')
    .option('--json', 'one JSON object a line, as the API writes domains', false)
    .action(async (options: { json: boolean }) => {
      await withRuntime(
        async (runtime) => {
          const views = await listDomains(runtime.domainService, operator(BOOTSTRAP_OWNER));
          for (const domain of views) {
            process.stdout.write(
              options.json
                ? `${JSON.stringify(toDomainJson(domain))}\n`
                : `${describeDomain(domain)}\n`,
            );
          }
        },
        { readOnly: true },
      );
    });

  domains
    .command('remove')
    .description('remove a domain no link uses (deleted links count until purged)')
    .argument('<host>', 'the host name, as `hop domains list` shows it')
    .action(async (host: string) => {
      await withRuntime(async (runtime) => {
        await deleteDomain(runtime.domainService, operator(BOOTSTRAP_OWNER), host);
        process.stdout.write(`removed ${host}\n`);
      });
    });
}

/** One line: `go.acme.com  https  root https://acme.com/  not-found -`. */
function describeDomain(domain: DomainView): string {
  const scheme = domain.https ? 'https' : 'http';
  const name = domain.isDefault ? `${domain.host} (default)` : domain.host;
  return `${name}  ${scheme}  root ${domain.rootRedirect ?? '-'}  not-found ${domain.notFoundRedirect ?? '-'}`;
}
