import type { Command } from 'commander';

/**
 * `hop frobnicate`: commander would hand the word to the default command (serve) and
 * complain of "too many arguments for 'serve'". Says instead that the command is unknown
 * and lists the commands, exit 2.
 */
export function refuseUnknownCommand(program: Command, argv: readonly string[]): void {
  const word = argv[2];
  if (word === undefined || word.startsWith('-')) return;
  const names = program.commands.flatMap((command) => [command.name(), ...command.aliases()]);
  if (names.includes(word) || word === 'help') return;
  process.stderr.write(
    `hop: unknown command "${word}". The commands are: ${[...names, 'help'].join(', ')}\n` +
      `(hop help <command> tells more about one)\n`,
  );
  process.exit(2);
}
