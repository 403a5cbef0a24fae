#!/usr/bin/env node
import { Command } from 'commander';
import { addBackupCommand } from './commands/backup-command.js';
import { addBenchCommand } from './commands/bench-command.js';
import { addDomainsCommand } from './commands/domains-command.js';
import { addImportCommand } from './commands/import-command.js';
import { addKeysCommand } from './commands/keys-command.js';
import { addLinksCommand } from './commands/links-command.js';
import { addMigrateCommand } from './commands/migrate-command.js';
import { addPoolCommand } from './commands/pool-command.js';
import { addServeCommand } from './commands/serve-command.js';
import { addSweepCommand } from './commands/sweep-command.js';
import { addTagsCommand } from './commands/tags-command.js';
import { addWorkerCommand } from './commands/worker-command.js';
import { addVisitsCommand } from './commands/visits-command.js';
import { exitQuietlyOnClosedStdout } from './closed-stdout.js';
import { refuseUnknownCommand } from './unknown-command.js';

/**
 * The `hop` command line: serve (default), worker, migrate, backup, keys, domains, links,
 * tags, pool, sweep, bench.
 */
const program = new Command('hop').description('hop, the URL shortener');
addServeCommand(program);
addMigrateCommand(program);
addBackupCommand(program);
addKeysCommand(program);
addDomainsCommand(program);
addLinksCommand(program);
addImportCommand(program);
addTagsCommand(program);
addVisitsCommand(program);
addPoolCommand(program);
addSweepCommand(program);
addWorkerCommand(program);
addBenchCommand(program);
exitQuietlyOnClosedStdout();
refuseUnknownCommand(program, process.argv);
await program.parseAsync(process.argv);
