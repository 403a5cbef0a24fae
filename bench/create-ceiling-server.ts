import { randomInt } from 'node:crypto';
import { createServer } from 'node:http';

/**
 * The codes bench's ceiling: a bare node:http server that reads a create's JSON body and
 * answers 201 with a link made up on the spot: no validation, no store, no generator. What
 * hop's creates are measured against, side by side in the same run.
 */
const port = Number(process.argv[2]);
const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const { destination } = JSON.parse(Buffer.concat(chunks).toString()) as {
      destination: string;
    };
    let code = '';
    for (let i = 0; i < 7; i++) code += ALPHABET.charAt(randomInt(62));
    const body = JSON.stringify({ code, destination, short_url: `http://localhost/${code}` });
    response.writeHead(201, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
    });
    response.end(body);
  });
}).listen(port, '127.0.0.1', () => {
  process.stdout.write('ceiling listening\n');
});
