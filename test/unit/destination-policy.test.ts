import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  checkDestination,
  type DestinationPolicyOptions,
} from '../../src/domain/destination-policy.js';

/** SPEC §3 "Create rules": which destinations a link may point at, and in what form. */

const OPTIONS: DestinationPolicyOptions = {
  maxLength: 2048,
  ownHosts: ['hop.example'],
  blockedDomains: new Set(['evil.example']),
};

type Case =
  | {
      readonly name: string;
      readonly input: string;
      readonly ok: true;
      /** The stored (WHATWG-normalised) form; the input itself when omitted. */
      readonly destination?: string;
    }
  | { readonly name: string; readonly input: string; readonly ok: false; readonly reason?: RegExp };

function good(name: string, input: string, destination?: string): Case {
  return destination === undefined
    ? { name, input, ok: true }
    : { name, input, ok: true, destination };
}

function bad(name: string, input: string, reason?: RegExp): Case {
  return reason === undefined ? { name, input, ok: false } : { name, input, ok: false, reason };
}

/** Every spelling of one IPv4 address that the WHATWG host parser accepts. */
function ipv4Spellings(
  dotted: string,
): readonly { readonly label: string; readonly host: string }[] {
  const octets = dotted.split('.').map(Number);
  const value = octets.reduce((n, octet) => n * 256 + octet, 0);
  return [
    { label: 'dotted decimal', host: dotted },
    { label: 'one decimal number', host: String(value) },
    { label: 'one hex number', host: `0x${value.toString(16)}` },
    { label: 'dotted hex', host: octets.map((o) => `0x${o.toString(16)}`).join('.') },
    { label: 'dotted octal', host: octets.map((o) => `0${o.toString(8)}`).join('.') },
    { label: 'one octal number', host: `0${value.toString(8)}` },
  ];
}

/** One address from each IPv4 range that must never be a destination. */
const NON_PUBLIC_IPV4: readonly { readonly range: string; readonly address: string }[] = [
  { range: 'loopback 127/8', address: '127.0.0.1' },
  { range: 'loopback 127/8 (top)', address: '127.255.255.254' },
  { range: 'unspecified 0/8', address: '0.0.0.0' },
  { range: 'private 10/8', address: '10.0.0.1' },
  { range: 'private 172.16/12', address: '172.16.0.1' },
  { range: 'private 172.16/12 (top)', address: '172.31.255.255' },
  { range: 'private 192.168/16', address: '192.168.1.1' },
  { range: 'link-local 169.254/16 (cloud metadata)', address: '169.254.169.254' },
  { range: 'CGNAT 100.64/10', address: '100.64.0.1' },
  { range: 'CGNAT 100.64/10 (top)', address: '100.127.255.254' },
  { range: 'multicast 224/4', address: '224.0.0.1' },
  { range: 'multicast 224/4 (SSDP)', address: '239.255.255.250' },
  { range: 'reserved 240/4', address: '240.0.0.1' },
  { range: 'broadcast', address: '255.255.255.255' },
  { range: 'TEST-NET-1 192.0.2/24', address: '192.0.2.1' },
  { range: 'TEST-NET-2 198.51.100/24', address: '198.51.100.7' },
  { range: 'TEST-NET-3 203.0.113/24', address: '203.0.113.9' },
  { range: 'benchmarking 198.18/15', address: '198.18.0.1' },
  { range: 'benchmarking 198.18/15 (top)', address: '198.19.255.254' },
];

const BASE = 'https://example.com/';
const MAX = OPTIONS.maxLength;

const cases: Case[] = [
  // --- good: ordinary http(s) URLs, stored in their normalised form -----------------------
  good('https root', 'https://example.com/'),
  good('http without a path gets "/"', 'http://example.com', 'http://example.com/'),
  good('a path', 'https://example.com/path/to/page.html'),
  good('a query', 'https://example.com/search?q=hop&lang=en'),
  good('a fragment', 'https://example.com/page#section-2'),
  good('path, query and fragment', 'https://example.com/a/b?c=d&e=f#g'),
  good('a plus in the query', 'https://example.com/?q=a+b'),
  good('a percent-encoded space', 'https://example.com/a%20b'),
  good('a percent-encoded NUL is data, not a control character', 'https://example.com/?q=%00'),
  good('a percent-encoded tilde kept as given', 'https://example.com/%7Euser'),
  good('an @ in the path is not a credential', 'https://user-content.example/@user'),
  good('an IP literal inside the query', 'https://example.com/?next=http://127.0.0.1/'),
  good('a non-default port', 'https://example.com:8443/x'),
  good('the highest port', 'http://example.com:65535/'),
  good('default http port dropped', 'http://example.com:80/', 'http://example.com/'),
  good('default https port dropped', 'https://example.com:443/', 'https://example.com/'),
  good('dot segments resolved', 'https://example.com/a/./b/../c', 'https://example.com/a/c'),
  good(
    'uppercase scheme and host lower-cased, path kept',
    'HTTPS://EXAMPLE.COM/Path?Q=1',
    'https://example.com/Path?Q=1',
  ),
  good('mixed-case scheme', 'HtTp://Example.Com/', 'http://example.com/'),
  good('a deep subdomain', 'https://a.b.c.example.co.uk/'),
  good('a FQDN with a trailing dot', 'https://example.com./'),
  good('IDN host as punycode', 'http://bücher.de/', 'http://xn--bcher-kva.de/'),
  good('punycode host unchanged', 'http://xn--bcher-kva.de/'),
  good(
    'IDN host and non-ASCII path',
    'https://münchen.example/straße',
    'https://xn--mnchen-3ya.example/stra%C3%9Fe',
  ),
  good('Japanese IDN', 'https://例え.jp/', 'https://xn--r8jz45g.jp/'),
  good(
    'non-ASCII path, query and fragment percent-encoded',
    'https://例え.テスト/パス?クエリ#フラグ',
    'https://xn--r8jz45g.xn--zckzah/%E3%83%91%E3%82%B9?%E3%82%AF%E3%82%A8%E3%83%AA#%E3%83%95%E3%83%A9%E3%82%B0',
  ),
  good('non-ASCII path character', 'https://example.com/café', 'https://example.com/caf%C3%A9'),
  good('public IPv4 literal', 'http://93.184.216.34/'),
  good('public IPv4 literal with port', 'http://8.8.8.8:53/'),
  good('public IPv4 short form', 'http://1.1/', 'http://1.0.0.1/'),
  good('172.32.0.1 lies just above 172.16/12', 'http://172.32.0.1/'),
  good('172.15.255.255 lies just below 172.16/12', 'http://172.15.255.255/'),
  good('100.128.0.1 lies just above CGNAT', 'http://100.128.0.1/'),
  good('198.20.0.1 lies just above 198.18/15', 'http://198.20.0.1/'),
  good('11.0.0.1 lies just above 10/8', 'http://11.0.0.1/'),
  good('public IPv6 literal', 'http://[2606:2800:220:1:248:1893:25c8:1946]/'),
  good(
    'public IPv6 literal compressed and lower-cased',
    'http://[2606:2800:0220:0001:0248:1893:25C8:1946]/',
    'http://[2606:2800:220:1:248:1893:25c8:1946]/',
  ),
  good('public IPv6 literal with port', 'https://[2001:4860:4860::8888]:8443/'),
  good(
    'IPv4-mapped IPv6 of a public address',
    'http://[::ffff:93.184.216.34]/',
    'http://[::ffff:5db8:d822]/',
  ),
  good('a name that merely starts with localhost', 'https://localhost.example.com/'),
  good('a name that merely contains "local"', 'https://local.example.com/'),
  good('not the blocked domain: notevil.example', 'https://notevil.example/'),
  good('not the blocked domain: evil.example.org', 'https://evil.example.org/'),
  good('not our own host: hop.example.com', 'https://hop.example.com/'),
  good('not our own host: hop.example.evil', 'https://hop.example.evil/'),
  good('exactly the maximum length', BASE + 'a'.repeat(MAX - BASE.length)),
  good(
    'IDN whose normalised form is exactly the maximum length',
    'https://bücher.de/' + 'a'.repeat(MAX - 'https://xn--bcher-kva.de/'.length),
    'https://xn--bcher-kva.de/' + 'a'.repeat(MAX - 'https://xn--bcher-kva.de/'.length),
  ),

  // --- bad: not an absolute http(s) URL --------------------------------------------------
  bad('empty string', ''),
  bad('javascript: scheme', 'javascript:alert(1)'),
  bad('javascript: scheme in mixed case', 'JavaScript:alert(document.cookie)'),
  bad('javascript: scheme looking like a URL', 'javascript://example.com/%0aalert(1)'),
  bad('data: URL', 'data:text/html,<script>alert(1)</script>'),
  bad('data: URL in base64', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='),
  bad('file: URL', 'file:///etc/passwd'),
  bad('ftp: URL', 'ftp://ftp.example.com/file.txt'),
  bad('mailto: URL', 'mailto:someone@example.com'),
  bad('vbscript: URL', 'vbscript:msgbox(1)'),
  bad('blob: URL', 'blob:https://example.com/550e8400-e29b-41d4-a716-446655440000'),
  bad('ws: URL', 'ws://example.com/socket'),
  bad('gopher: URL', 'gopher://example.com/'),
  bad('absolute path', '/relative/path'),
  bad('relative path', 'relative/path'),
  bad('query only', '?q=1'),
  bad('bare host name', 'example.com'),
  bad('protocol-relative URL', '//x.com/'),
  bad('missing colon', 'http//example.com/'),
  bad('no host', 'http://'),
  bad('scheme without slashes', 'https:example.com'),
  bad('scheme with one slash', 'http:/example.com/'),
  bad('backslashes instead of slashes', 'http:\\\\example.com\\'),

  // --- bad: credentials -----------------------------------------------------------------
  bad('user and password', 'http://user:password@example.com/'),
  bad('user only', 'http://user@example.com/'),
  bad('password only', 'http://:secret@example.com/'),
  bad('a host-looking user name', 'https://example.com@evil.com/'),
  bad('encoded user name', 'https://user%40mail:pw@example.com/'),
  bad('credentials on an IP literal', 'http://user:pass@93.184.216.34/'),

  // --- bad: control characters, whitespace and invisible characters ---------------------
  bad('NUL in the path', 'https://example.com/a\u0000b'),
  bad('tab in the host', 'https://exa\tmple.com/'),
  bad('newline in the path', 'https://example.com/a\nb'),
  bad('carriage return in the path', 'https://example.com/a\rb'),
  bad('CRLF header injection', 'https://example.com/\r\nSet-Cookie:x=1'),
  bad('DEL in the path', 'https://example.com/a\u007fb'),
  bad('C1 NEL in the path', 'https://example.com/a\u0085b'),
  bad('a space in the path', 'https://example.com/a b'),
  bad('a leading space', ' https://example.com/'),
  bad('a trailing space', 'https://example.com/ '),
  bad('a trailing newline', 'https://example.com/\n'),
  bad('a leading tab before javascript:', '\tjavascript:alert(1)'),
  bad('a no-break space', 'https://example.com/a\u00a0b'),
  bad('an ideographic space', 'https://example.com/a\u3000b'),
  bad('a line separator', 'https://example.com/a\u2028b'),
  bad('a zero-width space in the host', 'https://exam\u200bple.com/'),
  bad('a soft hyphen in the host', 'https://ex\u00adample.com/'),
  bad('a bidi override', 'https://example.com/\u202egnp.exe'),
  bad('a byte order mark', '\ufeffhttps://example.com/'),

  // --- bad: IPv4 literals in non-public ranges, every spelling ---------------------------
  ...NON_PUBLIC_IPV4.flatMap(({ range, address }) =>
    ipv4Spellings(address).map(({ label, host }) =>
      bad(`${range} ${address} as ${label}`, `http://${host}/`),
    ),
  ),
  bad('loopback as 0x7f.0.0.1', 'http://0x7f.0.0.1/'),
  bad('loopback short form 127.1', 'http://127.1/'),
  bad('private short form 10.1', 'http://10.1/'),
  bad('private three-part form 192.168.1', 'http://192.168.1/'),
  bad('link-local two-part form 169.254.43518', 'http://169.254.43518/'),
  bad('unspecified as two-part 0.0', 'http://0.0/'),
  bad('loopback with a trailing dot', 'http://127.0.0.1./'),
  bad('loopback with a port', 'http://127.0.0.1:8080/'),
  bad('loopback in fullwidth digits', 'http://１２７.０.０.１/'),
  bad('loopback over https', 'https://127.0.0.1/'),

  // --- bad: IPv6 literals in non-public ranges -------------------------------------------
  bad('IPv6 loopback ::1', 'http://[::1]/'),
  bad('IPv6 loopback in full', 'http://[0:0:0:0:0:0:0:1]/'),
  bad('IPv6 loopback with a port', 'http://[::1]:8080/'),
  bad('IPv6 unspecified ::', 'http://[::]/'),
  bad('IPv6 link-local fe80::1', 'http://[fe80::1]/'),
  bad('IPv6 link-local with a zone', 'http://[fe80::1%25eth0]/'),
  bad('IPv6 unique-local fc00::1', 'http://[fc00::1]/'),
  bad('IPv6 unique-local fd12::1', 'http://[fd12::1]/'),
  bad('IPv6 site-local fec0::1', 'http://[fec0::1]/'),
  bad('IPv6 multicast ff02::1', 'http://[ff02::1]/'),
  bad('IPv6 multicast ff05::1:3', 'http://[ff05::1:3]/'),
  bad('IPv4-mapped loopback ::ffff:127.0.0.1', 'http://[::ffff:127.0.0.1]/'),
  bad('IPv4-mapped private ::ffff:10.0.0.1', 'http://[::ffff:10.0.0.1]/'),
  bad('IPv4-mapped loopback in hex ::ffff:7f00:1', 'http://[::ffff:7f00:1]/'),
  bad('IPv4-mapped metadata ::ffff:169.254.169.254', 'http://[::ffff:169.254.169.254]/'),
  bad('IPv4-translated ::ffff:0:127.0.0.1', 'http://[::ffff:0:127.0.0.1]/'),
  bad('IPv4-compatible loopback ::127.0.0.1', 'http://[::127.0.0.1]/'),
  bad('IPv4-compatible private ::a00:1', 'http://[::a00:1]/'),
  bad('NAT64 of loopback 64:ff9b::7f00:1', 'http://[64:ff9b::7f00:1]/'),
  bad('NAT64 of private 64:ff9b::10.0.0.1', 'http://[64:ff9b::10.0.0.1]/'),
  bad('6to4 of loopback 2002:7f00:1::', 'http://[2002:7f00:1::]/'),
  bad('Teredo 2001::1', 'http://[2001::1]/'),
  bad('documentation 2001:db8::1', 'http://[2001:db8::1]/'),
  bad('discard-only 100::1', 'http://[100::1]/'),
  bad('not an IPv6 address', 'http://[::g]/'),

  // --- bad: names that only resolve inside a network --------------------------------------
  bad('localhost', 'http://localhost/'),
  bad('LOCALHOST', 'http://LOCALHOST/'),
  bad('localhost with a port', 'http://localhost:8080/'),
  bad('localhost with a trailing dot', 'http://localhost./'),
  bad('localhost over https', 'https://localhost/'),
  bad('a subdomain of localhost', 'http://foo.localhost/'),
  bad('a deep subdomain of localhost', 'http://a.b.localhost./'),
  bad('percent-encoded localhost', 'http://%6c%6fcalhost/'),
  bad('fullwidth localhost', 'http://ｌｏｃａｌｈｏｓｔ/'),
  bad('localhost.localdomain', 'http://localhost.localdomain/'),
  bad('mDNS .local', 'http://printer.local/'),
  bad('.internal', 'http://db.internal/'),
  bad('cloud metadata .internal name', 'http://metadata.google.internal/'),
  bad('.home.arpa', 'http://router.home.arpa/'),
  bad('a single-label host', 'http://intranet/'),
  bad('a single-label host with a port', 'http://intranet:8080/'),
  bad('a single-label host with a trailing dot', 'http://wpad./'),

  // --- bad: the service's own host (a redirect loop) --------------------------------------
  bad('own host', 'https://hop.example/abc1234'),
  bad('own host over http', 'http://hop.example/'),
  bad('own host in uppercase', 'https://HOP.EXAMPLE/'),
  bad('own host in mixed case with a port', 'https://Hop.Example:8443/x'),
  bad('own host on port 8080', 'http://hop.example:8080/'),
  bad('own host with a trailing dot', 'https://hop.example./'),
  bad('own host percent-encoded', 'https://%68op.example/'),
  bad('own host with an ideographic full stop', 'https://hop\u3002example/'),

  // --- bad: the blocklist ---------------------------------------------------------------
  bad('a blocked domain', 'https://evil.example/'),
  bad('a subdomain of a blocked domain', 'https://sub.evil.example/'),
  bad('a deep subdomain of a blocked domain', 'https://a.b.evil.example/x'),
  bad('a blocked domain in uppercase', 'https://EVIL.EXAMPLE/'),
  bad('a blocked domain with a trailing dot', 'https://evil.example./'),
  bad('a blocked domain with a port', 'https://evil.example:8443/'),

  // --- bad: length ----------------------------------------------------------------------
  bad('one over the maximum length', BASE + 'a'.repeat(MAX - BASE.length + 1), /2048/),
  bad('far over the maximum length', BASE + 'a'.repeat(100_000), /2048/),
  bad(
    'at the maximum, but percent-encoding makes it longer',
    BASE + 'a'.repeat(MAX - BASE.length - 1) + 'é',
    /normalised/,
  ),
  bad(
    'at the maximum, but the added "/" makes it longer',
    'https://example.com?' + 'q'.repeat(MAX - 'https://example.com?'.length),
    /normalised/,
  ),
  bad(
    'at the maximum, but punycode makes it longer',
    'https://bücher.de/' + 'a'.repeat(MAX - 'https://bücher.de/'.length),
    /normalised/,
  ),
];

function describeInput(input: string): string {
  return JSON.stringify(input.length > 72 ? `${input.slice(0, 60)}…(${input.length})` : input);
}

for (const c of cases) {
  test(`${c.ok ? 'accepts' : 'refuses'} ${c.name}: ${describeInput(c.input)}`, () => {
    const verdict = checkDestination(c.input, OPTIONS);
    if (c.ok) {
      assert.deepEqual(verdict, { ok: true, destination: c.destination ?? c.input });
      assert.ok(c.input.length <= MAX);
    } else {
      assert.equal(verdict.ok, false, `accepted as ${JSON.stringify(verdict)}`);
      if (!verdict.ok) {
        assert.equal(typeof verdict.reason, 'string');
        assert.ok(verdict.reason.length > 0);
        if (c.reason !== undefined) assert.match(verdict.reason, c.reason);
      }
    }
  });
}

test('the table holds at least 80 destinations, good and bad, with distinct names', () => {
  assert.ok(cases.length >= 80, `only ${cases.length} cases`);
  assert.ok(cases.filter((c) => c.ok).length >= 30);
  assert.ok(cases.filter((c) => !c.ok).length >= 50);
  assert.equal(new Set(cases.map((c) => c.name)).size, cases.length);
  assert.equal(new Set(cases.map((c) => c.input)).size, cases.length);
});
