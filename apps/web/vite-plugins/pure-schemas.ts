import type { Plugin } from 'vite';

const SCHEMAS = /[\\/]packages[\\/]contract[\\/]src[\\/]schemas[\\/][^\\/]+\.ts$/;

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

const isTypeBoxCall = (node: Node | null | undefined): boolean => {
  if (node?.type !== 'CallExpression') return false;
  const callee = node.callee as Node;
  return (
    callee.type === 'MemberExpression' &&
    (callee.object as Node).type === 'Identifier' &&
    (callee.object as Node).name === 'Type'
  );
};

/** `{ a: Type.…(…), b: Type.Optional(…) }`: a record of schemas, spread into object schemas elsewhere. */
const isSchemaRecord = (node: Node | null | undefined): boolean =>
  node?.type === 'ObjectExpression' &&
  (node.properties as Node[]).some((property) => property.type === 'Property' && isTypeBoxCall(property.value as Node));

/**
 * The contract's schema modules define the server's TypeBox schemas beside a few constants the app reads
 * (SEARCH_LIMITS, MEDIA_LIMITS). A schema is built by a call whose arguments read other schemas
 * (`...PageQuery.properties`), which a bundler must assume has side effects, so importing one constant
 * shipped every schema of the module, and TypeBox itself, to the browser (3.5 KB gzip on every signed-in
 * page). Each top-level `const X = Type.…(…)`, and each record of such calls (`const Fields = { a: Type.…(…) }`),
 * becomes a call the bundler may drop when X is unused.
 */
export function pureSchemas(): Plugin {
  return {
    name: 'share-arts:pure-schemas',
    apply: 'build',
    transform(code, id) {
      if (!SCHEMAS.test(id)) return;
      const program = this.parse(code) as unknown as { body: Node[] };
      const inits: Node[] = [];
      for (const statement of program.body) {
        const declaration =
          statement.type === 'ExportNamedDeclaration' ? (statement.declaration as Node | null) : statement;
        if (declaration?.type !== 'VariableDeclaration') continue;
        for (const declarator of declaration.declarations as Node[]) {
          const init = declarator.init as Node | null;
          if (isTypeBoxCall(init) || isSchemaRecord(init)) inits.push(init!);
        }
      }
      let result = code;
      for (const init of inits.sort((a, b) => b.start - a.start)) {
        const expression = result.slice(init.start, init.end);
        const value = init.type === 'ObjectExpression' ? `(${expression})` : expression;
        result = `${result.slice(0, init.start)}/* @__PURE__ */ (() => ${value})()${result.slice(init.end)}`;
      }
      return { code: result, map: null };
    },
  };
}
