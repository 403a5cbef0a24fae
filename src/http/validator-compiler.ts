import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats is CommonJS; under NodeNext its default export arrives as the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const SHARED: Options = {
  allErrors: true,
  removeAdditional: false,
  useDefaults: false,
  strict: false,
};

/** A validator as it is called: the verdict, and the errors read off it after a false one. */
export interface Validator {
  (data: unknown): boolean;
  errors?: ValidateFunction['errors'];
}

/**
 * The two ajv instances, made on first use and shared by every app this process builds
 * (tests build hundreds): each compiles ajv's meta-schema and the formats when made, and
 * caches what it compiles by schema, which are the same objects in every app.
 */
let strictAjv: Ajv | undefined;
let coercingAjv: Ajv | undefined;
const strict = (): Ajv => (strictAjv ??= addFormats(new Ajv({ ...SHARED, coerceTypes: false })));
const coercing = (): Ajv => (coercingAjv ??= addFormats(new Ajv({ ...SHARED, coerceTypes: true })));

/**
 * `schema`'s validator, compiled when it first validates, not when its route is
 * registered: ajv was 18% of the event loop's busy samples in a CPU profile of one
 * `hop serve` start (2 × Intel Xeon VM, 2026-12-07), compiling routes most processes
 * never serve.
 */
function lazyValidator(ajv: () => Ajv, schema: object): Validator {
  let compiled: ValidateFunction | undefined;
  const validate: Validator = (data) => {
    compiled ??= ajv().compile(schema);
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  };
  return validate;
}

/**
 * Bodies are validated strictly: a number is not a string, unknown fields are refused
 * (SPEC: bad input gets a clear 4xx). Query strings and path parameters are text by
 * nature, so there numbers and booleans are coerced from their spelling.
 */
export function makeValidatorCompiler(): FastifySchemaCompiler<unknown> {
  return ({ schema, httpPart }) =>
    lazyValidator(httpPart === 'body' ? strict : coercing, schema as object) as ReturnType<
      FastifySchemaCompiler<unknown>
    >;
}

/** A body schema's validator, as routes' bodies are checked: for parts of a body (bulk items). */
export function compileBodyValidator(schema: object): Validator {
  return lazyValidator(strict, schema);
}
