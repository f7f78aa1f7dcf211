import type { FastifyInstance, FastifySchema } from 'fastify';
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';

function createAjv(options: Options): Ajv {
  const ajv = new Ajv({
    removeAdditional: true,
    useDefaults: true,
    allErrors: false,
    // Errors carry their schema, so a field's own errorMessage can be shown.
    verbose: true,
    ...options,
  });
  addFormats.default(ajv);
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
  return ajv;
}

/**
 * Bodies are JSON and keep their types (a number where a string belongs is a 400); path and query
 * parameters arrive as text and are coerced to the schema's types.
 */
export function registerValidation(app: FastifyInstance): void {
  const bodyAjv = createAjv({ coerceTypes: false });
  const paramAjv = createAjv({ coerceTypes: 'array' });
  app.setValidatorCompiler(({ schema, httpPart }: { schema: FastifySchema; httpPart?: string }) =>
    (httpPart === 'body' ? bodyAjv : paramAjv).compile(schema as object),
  );
}
