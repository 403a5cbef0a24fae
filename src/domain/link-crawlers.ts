import { BoundedMemo } from './bounded-memo.js';

/**
 * The link-preview and social crawlers that get a link's card instead of its redirect
 * (issue 22, ADR 0121), by the names their user agents carry:
 *
 * - Slack: `Slackbot-LinkExpanding 1.0`, `Slackbot 1.0`, `Slack-ImgProxy`
 * - X/Twitter: `Twitterbot/1.0`
 * - Facebook: `facebookexternalhit/1.1`, `Facebot`
 * - LinkedIn: `LinkedInBot/1.0`
 * - WhatsApp: `WhatsApp/2.23.20.0 A`
 * - Telegram: `TelegramBot (like TwitterBot)`
 * - Discord: `Mozilla/5.0 (compatible; Discordbot/2.0; …)`
 * - iMessage: `… Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0`
 * - Google and Bing: `Googlebot/2.1`, `bingbot/2.0` (also inside Chrome-like agents)
 *
 * One regex, compiled once, case-sensitive (each crawler spells its name one way). It runs
 * on every counted redirect, so it is built to fail fast on a browser's agent: most names
 * end in `bot` or `Bot`, and the alternation starts there; the lookbehind then checks the
 * name only where a `bot` was found, which a browser's agent almost never holds. The rest
 * (facebookexternalhit, WhatsApp/, Slack-ImgProxy) start with letters a browser's agent
 * rarely has at all. Every name here is a bot to isbot too, so the visit a card answers is
 * counted as a bot visit (ADR 0094; test/unit/link-crawlers.test.ts holds both to it).
 */
export const LINK_CRAWLER_PATTERN =
  /[Bb]ot(?<=(?:Slack|Twitter|Face|Discord|Google|bing)bot|(?:LinkedIn|Telegram)Bot)|facebookexternalhit|WhatsApp\/|Slack-ImgProxy/;

/** Agents whose verdict is remembered, and the longest remembered (ADR 0152). */
const MAX_REMEMBERED_AGENTS = 10_000;
const MAX_REMEMBERED_LENGTH = 512;

/**
 * Verdicts per agent: the pattern ran over every browser's agent, 111 characters for a
 * desktop Chrome, at each counted redirect; a repeated agent is compared with the one held
 * (ADR 0152). Longer agents are matched each time.
 */
const VERDICTS = new BoundedMemo(
  (userAgent: string) => LINK_CRAWLER_PATTERN.test(userAgent),
  MAX_REMEMBERED_AGENTS,
);

/** True for the user agent of a crawler that gets a link's card (ADR 0121). */
export function isLinkCrawler(userAgent: string | undefined): boolean {
  if (userAgent === undefined) return false;
  return userAgent.length > MAX_REMEMBERED_LENGTH
    ? LINK_CRAWLER_PATTERN.test(userAgent)
    : VERDICTS.resolve(userAgent);
}
