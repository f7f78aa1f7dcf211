import { compileMessage } from '@lingui/message-utils/compileMessage';
import MagicString from 'magic-string';
import type { Plugin } from 'vite';
import type { MessagesByModule } from './chunk-words.ts';

/**
 * English, the source language (issue 43), travels with the code that shows it: Lingui's macros keep each
 * message's English beside its id (`descriptorFields: 'message'` in vite.config.ts), and this plugin compiles
 * that English at build time into the form Lingui's runtime formats (the same form `lingui compile` gives a
 * catalogue). So an English visitor loads no catalogue and no message parser: each page's words come in that
 * page's own chunk. The other languages load each chunk's words (chunk-words.ts), and find every message there by
 * its id.
 *
 * It runs after the macros and after JSX became calls, so a `<Trans>`'s props and a `t`'s descriptor are the
 * same thing to it: an object literal with a string `id` and a string `message`.
 */
export function sourceMessages(messagesByModule?: MessagesByModule): Plugin {
  return {
    name: 'share-arts:source-messages',
    enforce: 'post',
    transform: {
      filter: { id: { include: /\/src\/.*\.[jt]sx?$/, exclude: /node_modules/ }, code: { include: /message/ } },
      handler(code, id) {
        const ast = this.parse(code);
        const out = new MagicString(code);
        const ids = new Set<string>();
        const visit = (node: unknown): void => {
          if (!node || typeof node !== 'object') return;
          if (Array.isArray(node)) {
            for (const child of node) visit(child);
            return;
          }
          const n = node as { type?: string; properties?: unknown[] } & Record<string, unknown>;
          if (n.type === 'ObjectExpression' && Array.isArray(n.properties)) {
            const props = n.properties as {
              type: string;
              key?: { type: string; name?: string; value?: unknown };
              value?: { type: string; value?: unknown; start: number; end: number };
              computed?: boolean;
            }[];
            const named = (name: string) =>
              props.find(
                (p) =>
                  p.type === 'Property' &&
                  !p.computed &&
                  (p.key?.type === 'Identifier' ? p.key.name === name : p.key?.value === name),
              );
            const idProp = named('id');
            const messageProp = named('message');
            if (
              idProp?.value?.type === 'Literal' &&
              typeof idProp.value.value === 'string' &&
              messageProp?.value?.type === 'Literal' &&
              typeof messageProp.value.value === 'string'
            ) {
              let compiled: unknown;
              try {
                compiled = compileMessage(messageProp.value.value);
              } catch (error) {
                this.error(
                  `${id}: the message "${messageProp.value.value}" is not valid ICU MessageFormat: ${String(error)}`,
                );
              }
              out.overwrite(messageProp.value.start, messageProp.value.end, JSON.stringify(compiled));
              ids.add(idProp.value.value);
            }
          }
          for (const key of Object.keys(n)) {
            if (key !== 'type' && key !== 'start' && key !== 'end') visit(n[key]);
          }
        };
        visit(ast);
        // Which chunk's words each message goes with, in the other languages (chunk-words.ts).
        messagesByModule?.set(id, ids);
        return ids.size > 0 ? { code: out.toString(), map: out.generateMap({ hires: 'boundary', source: id }) } : null;
      },
    },
  };
}
