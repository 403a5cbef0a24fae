import { writeFileSync } from 'node:fs';

/** deploy/haproxy.cfg's 429 body for an address sending too many 4xx, escaped for HAProxy. */
const TOO_MANY_4XX = JSON.stringify({
  type: 'urn:hop:problem:rate-limited',
  title: 'Too many requests',
  status: 429,
  detail: 'Too many failed requests from this address; slow down.',
}).replaceAll('"', '\\"');

/** One load-balanced entry point: a frontend on `port` spreading over `servers` (ports). */
interface LbFrontend {
  readonly name: string;
  readonly port: number;
  readonly servers: readonly number[];
  /** GET /healthz every 2 s, as deploy/haproxy.cfg does; off for a server that has none. */
  readonly healthChecks: boolean;
}

/**
 * Writes an HAProxy 2.6 config to `file`: for each frontend, the request handling of
 * deploy/haproxy.cfg (X-Forwarded-For replaced, X-Forwarded-Proto, an X-Request-Id, the
 * per-address 4xx stick table) and its backend's (round robin, keep-alive reuse, retries of
 * GETs, maxconn 500 per server), all on loopback. Differences from the deployed file, so it
 * can run beside the servers under test: one thread (it is pinned to one core), no
 * per-request log (one line per redirect would cost more than the redirect), no runtime API
 * socket and no admin frontend.
 */
export function writeHaproxyConfig(file: string, frontends: readonly LbFrontend[]): void {
  const sections = frontends.map((frontend) =>
    [
      `frontend ${frontend.name}`,
      `    bind 127.0.0.1:${frontend.port}`,
      '    http-request del-header X-Forwarded-For',
      '    option forwardfor',
      '    http-request set-header X-Forwarded-Proto http',
      '    unique-id-format %{+X}o%ci:%cp_%fi:%fp_%Ts_%rt:%pid',
      '    http-request set-header X-Request-Id %[unique-id] unless { req.hdr(x-request-id) -m found }',
      '    stick-table type ipv6 size 1m expire 60s store http_err_rate(10s)',
      '    http-request track-sc0 src',
      `    http-request return status 429 content-type application/problem+json string "${TOO_MANY_4XX}" hdr retry-after 10 if { sc_http_err_rate(0) gt 100 }`,
      `    default_backend ${frontend.name}_servers`,
      '',
      `backend ${frontend.name}_servers`,
      '    balance roundrobin',
      ...(frontend.healthChecks
        ? [
            '    option httpchk',
            '    http-check send meth GET uri /healthz',
            '    http-check expect status 200',
          ]
        : []),
      '    http-reuse aggressive',
      '    http-request disable-l7-retry unless METH_GET',
      `    default-server ${frontend.healthChecks ? 'check inter 2s fastinter 500ms fall 2 rise 2 slowstart 10s ' : ''}maxconn 500 pool-purge-delay 2s`,
      ...frontend.servers.map((port, i) => `    server s${i + 1} 127.0.0.1:${port}`),
      '',
    ].join('\n'),
  );
  const config = [
    '# Written by bench/scale-bench.ts for one run; deploy/haproxy.cfg is the real one.',
    'global',
    '    nbthread 1',
    '',
    'defaults',
    '    mode http',
    '    timeout connect 1s',
    '    timeout server 10s',
    '    timeout client 30s',
    '    timeout http-request 5s',
    '    timeout http-keep-alive 10s',
    '    timeout queue 2s',
    '    timeout check 1s',
    '    retries 2',
    '    option redispatch 1',
    '    retry-on conn-failure empty-response',
    '',
    ...sections,
  ].join('\n');
  writeFileSync(file, config);
}
