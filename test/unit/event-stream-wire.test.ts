import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { describe, test } from 'node:test';
import { toClickEventJson } from '../../src/http/click-event-json.js';
import { sseEventBody, sseFrame, SseResponse } from '../../src/http/sse-response.js';
import type { ClickEventRecord } from '../../src/ports/event-log.js';
import {
  formatStreamPosition,
  parseStreamPosition,
} from '../../src/services/events/stream-position.js';

/** Dimensions named alike in the record and on the wire; `oses` is `os` there. */
const DIMENSIONS = {
  countries: { DE: 2, FR: 1 },
  devices: { mobile: 3 },
  browsers: { safari: 3 },
  referrers: { '': 1, 'news.example': 2 },
  languages: { de: 2 },
};
const OSES = { ios: 3 };

describe('link.clicked on the wire', () => {
  test('one link, one second: the count and the dimensions, as a webhook body', () => {
    const record: ClickEventRecord = {
      position: '17',
      linkId: '01JABCDEFGHJKMNPQRSTVWXYZ0',
      second: Date.parse('2026-06-01T12:00:05Z'),
      clicks: 3,
      botClicks: 1,
      ...DIMENSIONS,
      oses: OSES,
      recordedAt: Date.parse('2026-06-01T12:00:07Z'),
    };
    assert.deepEqual(toClickEventJson(record), {
      type: 'link.clicked',
      timestamp: '2026-06-01T12:00:05.000Z',
      data: {
        link_id: '01JABCDEFGHJKMNPQRSTVWXYZ0',
        second: '2026-06-01T12:00:05.000Z',
        clicks: {
          count: 3,
          bot_count: 1,
          ...DIMENSIONS,
          operating_systems: OSES,
        },
      },
    });
  });
});

describe('stream positions', () => {
  test('two log positions joined by ~ and read back', () => {
    for (const position of [
      { links: '', clicks: '' },
      { links: '42', clicks: '' },
      { links: '7301:12', clicks: '99' },
    ]) {
      assert.deepEqual(parseStreamPosition(formatStreamPosition(position)), position);
    }
    assert.equal(formatStreamPosition({ links: '7301:12', clicks: '99' }), '7301:12~99');
  });

  test('anything else is not one', () => {
    for (const text of ['', '42', '~~', '1~2~3', 'a~1', '1~-2', '1 ~2', `${'9'.repeat(21)}~`]) {
      assert.equal(parseStreamPosition(text), null, text);
    }
  });
});

describe('SSE frames', () => {
  test('an id, a type and one data line, ended by a blank line', () => {
    assert.equal(
      sseFrame('4~', sseEventBody('link.created', '{"a":"b\\nc"}')),
      'id: 4~\nevent: link.created\ndata: {"a":"b\\nc"}\n\n',
    );
  });

  test('a client that does not read is reported once its unsent bytes pass the bound', async () => {
    let response: ServerResponse | undefined;
    const server = createServer((_request, res) => {
      response = res;
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    // A client that sends its request and then never reads a byte.
    const socket = connect(port, '127.0.0.1');
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    socket.pause();
    try {
      for (let polls = 0; response === undefined && polls < 1000; polls++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.ok(response !== undefined, 'the request arrived');
      const sse = new SseResponse(response, { maxUnsentBytes: 64 * 1024, heartbeatMs: 60_000 });
      sse.open({});
      const frame = sseFrame('1~', sseEventBody('link.created', JSON.stringify('x'.repeat(1000))));
      let writes = 0;
      // Loopback buffers take a few MB; a bounded number of frames always fills them.
      while (sse.send(frame)) {
        writes++;
        assert.ok(writes < 200_000, 'the client was never reported');
        if (writes % 100 === 0) await new Promise(setImmediate);
      }
      assert.ok(response.writableLength > 64 * 1024);
      sse.end({ abort: true });
      assert.ok(sse.ended);
    } finally {
      socket.destroy();
      server.close();
    }
  });
});
