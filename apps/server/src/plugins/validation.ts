import type { FastifyInstance, FastifySchema, FastifySchemaValidationError } from 'fastify';
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
  ajv.addKeyword({ keyword: 'patternMessage', schemaType: 'string' });
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
    httpPart === 'body' ? bodyAjv.compile(schema as object) : finiteOnly(paramAjv.compile(schema as object)),
  );
}

type Validate = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };

/**
 * Ajv coerces the text "Infinity" (and "1e400") to an integer and then skips minimum and maximum for
 * it, so `?limit=Infinity` would reach SQL. Coerced parameters must be finite numbers.
 */
function finiteOnly(validate: Validate): Validate {
  const wrapped: Validate = (data) => {
    if (!validate(data)) {
      wrapped.errors = validate.errors ?? null;
      return false;
    }
    for (const [key, value] of Object.entries((data ?? {}) as Record<string, unknown>)) {
      if (typeof value === 'number' && !Number.isFinite(value)) {
        const error = { keyword: 'type', instancePath: `/${key}`, schemaPath: '', params: { type: 'finite number' } };
        wrapped.errors = [error as FastifySchemaValidationError];
        return false;
      }
    }
    wrapped.errors = null;
    return true;
  };
  return wrapped;
}
