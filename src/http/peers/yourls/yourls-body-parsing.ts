import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';

/** Form fields one call may send; YOURLS's actions read at most a dozen. */
const MAX_FORM_FIELDS = 100;

/**
 * The bodies YOURLS reads (issue 24), in this scope only: urlencoded and multipart forms
 * (ShareX sends multipart; fields only, a file part is refused). Any other body is read
 * and ignored, as PHP ignores it: the query still counts.
 */
export async function installYourlsBodyParsing(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { files: 0, fields: MAX_FORM_FIELDS },
  });
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      const fields: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
      for (const [name, value] of new URLSearchParams(text)) (fields[name] ??= []).push(value);
      done(null, fields);
    },
  );
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => {
    done(null, undefined);
  });
}
