const SPECIAL = /[&<>"']/g;
const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text or an attribute value (quoted either way) as HTML: the five special characters escaped. */
export function escapeHtml(text: string): string {
  return text.replace(SPECIAL, (character) => ENTITIES[character] ?? character);
}
