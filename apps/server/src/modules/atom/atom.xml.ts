/**
 * A small Atom (RFC 4287) writer: every value goes through `xmlText`, which escapes markup and drops the
 * characters XML 1.0 cannot carry at all (most C0 controls, lone surrogates, U+FFFE/U+FFFF), so no text a
 * person wrote can end an element early or make the document unreadable to a feed reader.
 */

// XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text (or an attribute value) as XML: markup characters escaped, characters XML cannot hold removed. */
export function xmlText(value: string): string {
  return value.replace(NOT_XML_CHAR, '').replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}

/** The same escaping, for text inside HTML (the entry's content before it is escaped again into the feed). */
export const htmlText = xmlText;

/** An element with attributes and children already written as XML; every attribute value is escaped. */
export function element(name: string, attributes: Record<string, string | number | undefined>, children = ''): string {
  const attrs = Object.entries(attributes)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) => ` ${key}="${xmlText(String(value))}"`)
    .join('');
  return children === '' ? `<${name}${attrs}/>` : `<${name}${attrs}>${children}</${name}>`;
}

/** An element holding text (escaped). */
export const textElement = (name: string, text: string, attributes: Record<string, string | undefined> = {}) =>
  element(name, attributes, xmlText(text));
