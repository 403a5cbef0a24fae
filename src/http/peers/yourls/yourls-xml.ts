import type { YourlsFields, YourlsValue } from './yourls-result.js';

/** Control characters spatie/array-to-xml removes from values (tab too; not \n, \r). */
// eslint-disable-next-line no-control-regex -- these are the characters it removes
const CONTROL_CHARACTERS = /[\x00-\x09\x0b\x0c\x0e-\x1f\x7f]/g;

/**
 * `format=xml` as YOURLS writes it (`yourls_xml_encode`: spatie/array-to-xml, root
 * `<root>`, DOMDocument's `saveXML`): the declaration, one line of elements, a newline.
 * An empty or null value is an empty element (`<code/>`).
 */
export function toYourlsXml(fields: YourlsFields): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<root>${elementsOf(fields)}</root>\n`;
}

function elementsOf(fields: YourlsFields): string {
  let xml = '';
  for (const [key, value] of Object.entries(fields)) {
    // spatie: spaces in key names become underscores.
    const name = key.replace(/ /g, '_');
    const content = contentOf(value);
    xml += content === '' ? `<${name}/>` : `<${name}>${content}</${name}>`;
  }
  return xml;
}

function contentOf(value: YourlsValue): string {
  if (value === null) return '';
  if (typeof value === 'object') return elementsOf(value);
  return escapeText(String(value).replace(CONTROL_CHARACTERS, ''));
}

/** libxml2's escaping of text content: `&`, `<`, `>` and carriage returns. */
function escapeText(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#13;');
}
