import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';

type SerializerFactory = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']
>;
type Serializer = (data: unknown) => string;
type ValidationResult = boolean | PromiseLike<unknown>;
interface Validator {
  (data: unknown, dataCxt?: unknown): ValidationResult;
  errors?: unknown;
  schemaEnv?: unknown;
}

// The serializer compiler Fastify itself would use (its own dependency, so always the version it expects).
const fastifyRequire = createRequire(createRequire(import.meta.url).resolve('fastify'));
const { SerializerSelector } = fastifyRequire('@fastify/fast-json-stringify-compiler') as {
  SerializerSelector: () => SerializerFactory;
};

/** The compilations not made yet, by app: `compileAllSchemas` makes them. */
const registries = new WeakMap<FastifyInstance, LazySchemas>();

/**
 * Route schemas compiled on their route's first use rather than all at `ready()` (Ajv's validators and
 * fast-json-stringify's serializers for every route took most of the app's start: ~0.7 s of each test
 * app, and every GET's HEAD twin compiled them again). The compiled function is the one the eager
 * compiler would have made, with the same Ajv instance and options, so answers are the same; a schema
 * that does not compile fails its route's first request instead of the start, which is why a test
 * compiles every route's schemas (`compileAllSchemas`).
 */
export class LazySchemas {
  private readonly pending = new Set<{ name: string; compile: () => unknown }>();

  /**
   * The validator `compile()` would make, compiled on its first call. Ajv's own validators say so with
   * `schemaEnv`: Fastify then hands them the request, so that they may replace a whole part (`ajv: true`).
   */
  validator<V extends object>(name: string, compile: () => V, options: { ajv: boolean }): V {
    let compiled: Validator | undefined;
    const entry = { name, compile: () => (compiled ??= compile() as unknown as Validator) };
    this.pending.add(entry);
    const first = (): Validator => {
      if (!compiled) {
        compiled = compile() as unknown as Validator;
        this.pending.delete(entry);
      }
      return compiled;
    };
    const validate: Validator = (data, dataCxt) => (dataCxt === undefined ? first()(data) : first()(data, dataCxt));
    Object.defineProperty(validate, 'errors', {
      get: () => compiled?.errors,
      set: (errors: unknown) => {
        if (compiled) compiled.errors = errors;
      },
    });
    if (options.ajv) validate.schemaEnv = true;
    return validate as unknown as V;
  }

  /** Fastify's serializer factory (fast-json-stringify), each serializer compiled on its first answer. */
  readonly serializers: SerializerFactory = (externalSchemas, serializerOptions) => {
    const compile = SerializerSelector()(externalSchemas, serializerOptions);
    return (route) => {
      let compiled: Serializer | undefined;
      const entry = {
        name: `${route.method} ${route.url} answer ${route.httpStatus}`,
        compile: () => (compiled ??= compile(route) as Serializer),
      };
      this.pending.add(entry);
      return (data: unknown) => {
        if (!compiled) {
          compiled = compile(route) as Serializer;
          this.pending.delete(entry);
        }
        return compiled(data);
      };
    };
  };

  attach(app: FastifyInstance): void {
    registries.set(app, this);
  }

  /** Compiles every schema not compiled yet: how many it compiled, and the ones that do not compile, with why. */
  compileAll(): { compiled: number; failures: string[] } {
    let compiled = 0;
    const failures: string[] = [];
    for (const entry of this.pending) {
      try {
        entry.compile();
        this.pending.delete(entry);
        compiled += 1;
      } catch (error) {
        failures.push(`${entry.name}: ${(error as Error).message}`);
      }
    }
    return { compiled, failures };
  }
}

/** Compiles every route schema of `app` not compiled yet (a test proves they all compile). */
export function compileAllSchemas(app: FastifyInstance): { compiled: number; failures: string[] } {
  return registries.get(app)?.compileAll() ?? { compiled: 0, failures: [] };
}
