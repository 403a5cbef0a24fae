/**
 * The fields of a link's JSON (SPEC §3, issue 21's smart-link fields, issue 22's domain), sorted: the API
 * and the CLI's --json write these, for plain and smart links alike.
 */
export const LINK_JSON_KEYS = [
  'bot_clicks',
  'clicks',
  'code',
  'crawlable',
  'created_at',
  'custom',
  'destination',
  'domain',
  'expires_at',
  'fallback_url',
  'forward_query',
  'id',
  'max_clicks',
  'owner',
  'password_protected',
  'preview',
  'rules',
  'short_url',
  'state',
  'status_code',
  'tags',
  'title',
  'updated_at',
  'utm',
  'variants',
  'version',
] as const;
