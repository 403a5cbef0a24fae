/**
 * Link-preview agents of chat and social apps: they may fetch any short link, so a shared
 * link unfolds into its card (ADR 0093, 0121). Google's and Bing's bots are not among them:
 * they follow the rules for everyone, which let them in on crawlable links only.
 */
const PREVIEW_AGENTS = [
  'Twitterbot',
  'facebookexternalhit',
  'Facebot',
  'LinkedInBot',
  'Slackbot-LinkExpanding',
  'Slackbot',
  'Slack-ImgProxy',
  'Discordbot',
  'TelegramBot',
  'WhatsApp',
  'SkypeUriPreview',
] as const;

/** The service's own paths: nobody's search result, nobody's card. */
const SERVICE_PATHS = [
  '/v1/',
  '/admin',
  '/docs',
  '/openapi.json',
  '/metrics',
  '/healthz',
  '/readyz',
];

/**
 * robots.txt (RFC 9309) of a domain whose crawlable links hold `crawlableCodes`: everything
 * is disallowed to everyone but those links' paths, each allowed exactly (`$`: the path
 * ends there, so `/abc` does not open `/abcd` too; Google and Bing read it). RFC 9309 §2.2.2:
 * the longest match wins, whatever the order, so `Allow: /abc$` beats `Disallow: /`.
 */
export function renderRobotsTxt(crawlableCodes: readonly string[]): string {
  return [
    '# hop: short links redirect to other sites; only the links marked crawlable are for search engines.',
    'User-agent: *',
    'Disallow: /',
    ...crawlableCodes.map((code) => `Allow: /${code}$`),
    '',
    '# Link previews in chat and social apps.',
    ...PREVIEW_AGENTS.map((agent) => `User-agent: ${agent}`),
    'Allow: /',
    ...SERVICE_PATHS.map((path) => `Disallow: ${path}`),
    '',
  ].join('\n');
}
