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

/**
 * Bodies are validated strictly: a number is not a string, unknown fields are refused
 * (SPEC: bad input gets a clear 4xx). Query strings and path parameters are text by
 * nature, so there numbers and booleans are coerced from their spelling.
 */
export function makeValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const strict = addFormats(new Ajv({ ...SHARED, coerceTypes: false }));
  const coercing = addFormats(new Ajv({ ...SHARED, coerceTypes: true }));
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strict : coercing;
    return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
  };
}

/** A body schema's validator, as routes' bodies are checked: for parts of a body (bulk items). */
export function compileBodyValidator(schema: object): ValidateFunction {
  return addFormats(new Ajv({ ...SHARED, coerceTypes: false })).compile(schema);
}
