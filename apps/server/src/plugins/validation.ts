import type { FastifyInstance, FastifySchema, FastifySchemaValidationError } from 'fastify';
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { LazySchemas } from './lazy-schemas.js';

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

interface CompilerInput {
  schema: FastifySchema;
  httpPart?: string;
  method?: string;
  url?: string;
}

/**
 * Bodies are JSON and keep their types (a number where a string belongs is a 400); path and query
 * parameters arrive as text and are coerced to the schema's types.
 */
export function registerValidation(app: FastifyInstance, schemas: LazySchemas): void {
  const bodyAjv = createAjv({ coerceTypes: false });
  const paramAjv = createAjv({ coerceTypes: 'array' });
  // Each compiled on its route's first request (lazy-schemas.ts).
  app.setValidatorCompiler(({ schema, httpPart, method, url }: CompilerInput) => {
    const name = `${method} ${url} ${httpPart}`;
    return httpPart === 'body'
      ? schemas.validator(name, () => bodyAjv.compile(schema as object), { ajv: true })
      : finiteOnly(schemas.validator(name, () => paramAjv.compile(schema as object), { ajv: false }));
  });
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

/**
 * Checks each 2xx JSON answer against its route's response schema (the answer assembled from cached
 * JSON skips the serializer that would otherwise shape it). A mismatch becomes a 500 that names the
 * route and the first difference, so a test that sends the request fails.
 */
export function registerResponseChecks(app: FastifyInstance): void {
  const ajv = createAjv({ removeAdditional: false, useDefaults: false, allErrors: true });
  const compiled = new WeakMap<object, Validate>();
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' || reply.statusCode >= 300) return payload;
    const responses = request.routeOptions.schema?.response as Record<string, object> | undefined;
    const schema = responses?.[reply.statusCode] ?? responses?.[`${reply.statusCode}`];
    if (!schema || !String(reply.getHeader('content-type') ?? '').includes('json')) return payload;
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile(schema) as Validate;
      compiled.set(schema, validate);
    }
    if (!validate(JSON.parse(payload))) {
      const [first] = validate.errors ?? [];
      throw new Error(
        `The answer of ${request.method} ${request.routeOptions.url} does not match its schema: ` +
          `${first?.instancePath ?? ''} ${first?.message ?? ''}`,
      );
    }
    return payload;
  });
}
