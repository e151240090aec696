import { describe, expect, it } from 'vitest';
import { countTokensPlan } from '../../../src/formats/messages/count-tokens.js';
import { imageDimensions, imageSourceTokens, imageTokensFor, MAX_IMAGE_TOKENS } from '../../../src/formats/messages/image-tokens.js';
import { expectInvalid } from './helpers.js';

/** Image headers built byte by byte from each format's specification. */
function png(w: number, h: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(w, 8);
  ihdr.writeUInt32BE(h, 12);
  ihdr.set([8, 6, 0, 0, 0], 16); // bit depth, colour type RGBA, compression, filter, interlace; CRC left zero
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr, Buffer.alloc(40)]);
}

function segment(marker: number, payload: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

/** SOI, APP0 (JFIF), APP1 (a 3000-byte EXIF blob), DQT, a fill byte, SOFn, then scan data. */
function jpeg(w: number, h: number, sof = 0xc0): Buffer {
  const frame = Buffer.from([8, 0, 0, 0, 0, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  frame.writeUInt16BE(h, 1);
  frame.writeUInt16BE(w, 3);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1')),
    segment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), Buffer.alloc(3000, 0xff)])),
    segment(0xdb, Buffer.alloc(65, 1)),
    Buffer.from([0xff]),
    segment(sof, frame),
    segment(0xc4, Buffer.alloc(20)),
    Buffer.from([0xff, 0xda, 0, 2, 1, 2, 3]),
  ]);
}

function gif(w: number, h: number): Buffer {
  const b = Buffer.alloc(13);
  b.write('GIF89a', 0, 'latin1');
  b.writeUInt16LE(w, 6);
  b.writeUInt16LE(h, 8);
  return b;
}

function webp(kind: 'VP8X' | 'VP8L' | 'VP8 ', w: number, h: number): Buffer {
  const b = Buffer.alloc(40);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(32, 4);
  b.write('WEBPVP8', 8, 'latin1');
  b.write(kind, 12, 'latin1');
  if (kind === 'VP8X') {
    b.writeUIntLE(w - 1, 24, 3);
    b.writeUIntLE(h - 1, 27, 3);
  } else if (kind === 'VP8L') {
    b[20] = 0x2f;
    b.writeUInt32LE(((w - 1) & 0x3fff) | (((h - 1) & 0x3fff) << 14), 21);
  } else {
    b.set([0x9d, 0x01, 0x2a], 23);
    b.writeUInt16LE(w, 26);
    b.writeUInt16LE(h, 28);
  }
  return b;
}

const b64 = (b: Buffer) => b.toString('base64');

describe('image dimensions from header bytes', () => {
  const cases: [string, Buffer, number, number][] = [
    ['PNG', png(640, 480), 640, 480],
    ['baseline JPEG after JFIF, EXIF, DQT and a fill byte', jpeg(1024, 768), 1024, 768],
    ['progressive JPEG (SOF2)', jpeg(300, 200, 0xc2), 300, 200],
    ['GIF', gif(33, 17), 33, 17],
    ['WebP VP8X', webp('VP8X', 5000, 3000), 5000, 3000],
    ['WebP VP8L', webp('VP8L', 1000, 250), 1000, 250],
    ['WebP VP8 (lossy)', webp('VP8 ', 800, 600), 800, 600],
  ];
  for (const [name, bytes, width, height] of cases) {
    it(name, () => expect(imageDimensions(bytes)).toStrictEqual({ width, height }));
  }

  it('unknown, truncated or zero-sized headers give null', () => {
    expect(imageDimensions(Buffer.from('hello world, not an image'))).toBeNull();
    expect(imageDimensions(png(640, 480).subarray(0, 20))).toBeNull();
    expect(imageDimensions(jpeg(10, 10).subarray(0, 100))).toBeNull();
    expect(imageDimensions(png(0, 480))).toBeNull();
    expect(imageDimensions(Buffer.alloc(0))).toBeNull();
  });
});

describe('image token estimate', () => {
  it('width * height / 750, rounded up, after scaling the long edge to 1568 and capping at 1600', () => {
    expect(imageTokensFor({ width: 200, height: 200 })).toBe(54); // 40000 / 750 = 53.3
    expect(imageTokensFor({ width: 1092, height: 1092 })).toBe(1590);
    expect(imageTokensFor({ width: 1000, height: 250 })).toBe(334);
    expect(imageTokensFor({ width: 3136, height: 200 })).toBe(210); // scaled to 1568 x 100
    expect(imageTokensFor({ width: 4000, height: 3000 })).toBe(MAX_IMAGE_TOKENS);
  });

  it('base64 images are measured; URLs and unreadable data count the maximum', () => {
    expect(imageSourceTokens({ kind: 'base64', mediaType: 'image/png', data: b64(png(200, 200)) })).toBe(54);
    expect(imageSourceTokens({ kind: 'base64', mediaType: 'image/jpeg', data: b64(jpeg(1000, 250)) })).toBe(334);
    expect(imageSourceTokens({ kind: 'url', url: 'https://x.test/a.png' })).toBe(MAX_IMAGE_TOKENS);
    expect(imageSourceTokens({ kind: 'base64', mediaType: 'image/png', data: '!!!not base64' })).toBe(MAX_IMAGE_TOKENS);
  });
});

describe('count_tokens plan', () => {
  it('counts system blocks, message text, tool_use inputs, tool_result text, tool schemas and images', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } } };
    const plan = countTokensPlan({
      model: 'm',
      system: [{ type: 'text', text: 'Sys A', cache_control: { type: 'ephemeral' } }, { type: 'text', text: 'Sys B' }],
      tools: [{ name: 'weather', description: 'Weather now', input_schema: schema }],
      thinking: { type: 'enabled', budget_tokens: 2048 },
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look:' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: b64(png(200, 200)) } },
            { type: 'image', source: { type: 'url', url: 'https://x.test/a.png' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'not counted', signature: 's' },
            { type: 'tool_use', id: 't1', name: 'weather', input: { city: 'Paris' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: '18C' }, { type: 'image', source: { type: 'base64', media_type: 'image/gif', data: b64(gif(1000, 250)) } }] },
            { type: 'text', text: 'Thanks' },
          ],
        },
      ],
    });
    expect(plan).toStrictEqual({
      texts: ['Sys A', 'Sys B', 'Look:', '{"city":"Paris"}', '18C', 'Thanks', JSON.stringify({ name: 'weather', description: 'Weather now', parameters: schema })],
      imageTokens: 54 + MAX_IMAGE_TOKENS + 334,
      // 2 system blocks + user + assistant + 1 tool result + the trailing user text
      messageCount: 6,
    });
  });

  it('needs no max_tokens; validates like /v1/messages otherwise', () => {
    expect(countTokensPlan({ model: 'm', system: 'S', messages: [{ role: 'user', content: 'hi' }] })).toStrictEqual({ texts: ['S', 'hi'], imageTokens: 0, messageCount: 2 });
    expectInvalid(() => countTokensPlan({ messages: [{ role: 'user', content: 'hi' }] }), 'model');
    expectInvalid(() => countTokensPlan({ model: 'm' }), 'messages');
    expectInvalid(() => countTokensPlan({ model: 'm', messages: [{ role: 'user', content: 5 }] }), 'messages[0].content');
    expectInvalid(() => countTokensPlan({ model: 'm', messages: [{ role: 'user', content: 'x' }], system: [{ type: 'text' }] }), 'system[0].text');
    expectInvalid(() => countTokensPlan({ model: 'm', messages: [{ role: 'user', content: 'x' }], tools: [{ name: 'f' }] }), 'tools[0].input_schema');
    expectInvalid(() => countTokensPlan({ model: 'm', messages: [{ role: 'user', content: 'x' }], thinking: { type: 'enabled', budget_tokens: 10 } }), 'thinking.budget_tokens');
  });
});
