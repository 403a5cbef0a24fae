import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isbot } from 'isbot';
import { isLinkCrawler } from '../../src/domain/link-crawlers.js';
import { DESKTOP, IPAD, IPHONE, LINUX_FIREFOX, MAC_SAFARI } from '../support/user-agents.js';

/** Each crawler the issue names, by the user agents it is seen with. */
const CRAWLERS: Readonly<Record<string, readonly string[]>> = {
  Slack: [
    'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
    'Slackbot 1.0 (+https://api.slack.com/robots)',
    'Slack-ImgProxy (+https://api.slack.com/robots)',
  ],
  'X/Twitter': ['Twitterbot/1.0'],
  Facebook: [
    'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    'Facebot',
  ],
  LinkedIn: [
    'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
  ],
  WhatsApp: ['WhatsApp/2.23.20.0 A', 'WhatsApp/2.19.81 i'],
  Telegram: ['TelegramBot (like TwitterBot)'],
  Discord: ['Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)'],
  iMessage: [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0',
    'facebookexternalhit/1.1 Facebot Twitterbot/1.0',
  ],
  Google: [
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.69 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  ],
  Bing: [
    'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36',
  ],
};

const PEOPLE_AND_SCRIPTS = {
  Chrome: DESKTOP,
  Firefox: LINUX_FIREFOX,
  Safari: MAC_SAFARI,
  'Safari on iPhone': IPHONE,
  'Safari on iPad': IPAD,
  curl: 'curl/8.5.0',
  // Names that hold "bot" or part of a crawler's name, but no crawler's.
  'a Cubot phone':
    'Mozilla/5.0 (Linux; Android 10; CUBOT X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36',
  'a robot vacuum': 'RoboticVacuum/1.0 bot',
  'Slack desktop':
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Slack/4.41.105 Chrome/130.0 Electron/33.2.0 Safari/537.36 Sonic Slack_SSB/4.41.105',
  "WhatsApp's in-app browser":
    'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36 WhatsApp',
} as const;

describe('isLinkCrawler (ADR 0121)', () => {
  for (const [crawler, agents] of Object.entries(CRAWLERS)) {
    test(`${crawler} is a link crawler, and a bot to isbot (its visit counts as one)`, () => {
      for (const agent of agents) {
        assert.equal(isLinkCrawler(agent), true, agent);
        assert.equal(isbot(agent), true, agent);
      }
    });
  }

  test('browsers, curl and look-alikes are not', () => {
    for (const [name, agent] of Object.entries(PEOPLE_AND_SCRIPTS)) {
      assert.equal(isLinkCrawler(agent), false, name);
    }
  });

  test('no user agent, or an empty one, is no crawler', () => {
    assert.equal(isLinkCrawler(undefined), false);
    assert.equal(isLinkCrawler(''), false);
  });
});
