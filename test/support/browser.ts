import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (apt-get install -y chromium): never a browser download. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Flags this machine needs (../.library/env): headless as root without a sandbox, and no
 * background traffic, which the closed network would refuse many times a start.
 */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

/**
 * Registers the suites of `register` when Chromium is installed. Under CI=true a missing
 * browser is a failing test, never a silent skip; elsewhere one skipped test says why.
 */
export function whenChromium(name: string, register: () => void): void {
  if (existsSync(CHROMIUM)) {
    register();
    return;
  }
  const why = `${CHROMIUM} is missing (apt-get install -y chromium)`;
  if (process.env['CI'] === 'true') {
    test(name, () => {
      throw new Error(why);
    });
  } else {
    test(name, (t) => {
      t.skip(why);
    });
  }
}
