/** The fields of a link's JSON (SPEC §3), sorted: the API and the CLI's --json write these. */
export const LINK_JSON_KEYS = [
  'bot_clicks',
  'clicks',
  'code',
  'created_at',
  'custom',
  'destination',
  'expires_at',
  'id',
  'owner',
  'short_url',
  'state',
  'status_code',
  'tags',
  'title',
  'updated_at',
  'version',
] as const;
