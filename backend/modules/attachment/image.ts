// Recognises the image formats we accept for uploads by their first bytes and reads their
// pixel size, so that a renamed HTML or script file is never stored as an "image".

export type ImageKind = 'jpeg' | 'png' | 'gif' | 'bmp' | 'webp' | 'ico';

export function sniffImage(head: Buffer): ImageKind | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (head.length >= 6 && /^GIF8[79]a$/.test(head.subarray(0, 6).toString('latin1'))) return 'gif';
  if (head.length >= 2 && head.subarray(0, 2).toString('latin1') === 'BM') return 'bmp';
  if (
    head.length >= 12 &&
    head.subarray(0, 4).toString('latin1') === 'RIFF' &&
    head.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'webp';
  if (head.length >= 4 && head[0] === 0 && head[1] === 0 && head[2] === 1 && head[3] === 0) return 'ico';
  return null;
}

/** Width and height in pixels, or zeros when the header does not say. */
export function imageSize(kind: ImageKind, head: Buffer): { width: number; height: number } {
  try {
    switch (kind) {
      case 'png':
        return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
      case 'gif':
        return { width: head.readUInt16LE(6), height: head.readUInt16LE(8) };
      case 'bmp':
        return { width: Math.abs(head.readInt32LE(18)), height: Math.abs(head.readInt32LE(22)) };
      case 'ico':
        return { width: head[6] || 256, height: head[7] || 256 };
      case 'webp':
        return webpSize(head);
      case 'jpeg':
        return jpegSize(head);
    }
  } catch {
    // truncated header: size unknown
  }
  return { width: 0, height: 0 };
}

function webpSize(head: Buffer): { width: number; height: number } {
  const chunk = head.subarray(12, 16).toString('latin1');
  if (chunk === 'VP8X') return { width: head.readUIntLE(24, 3) + 1, height: head.readUIntLE(27, 3) + 1 };
  if (chunk === 'VP8L') {
    const bits = head.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8 ') return { width: head.readUInt16LE(26) & 0x3fff, height: head.readUInt16LE(28) & 0x3fff };
  return { width: 0, height: 0 };
}

function jpegSize(head: Buffer): { width: number; height: number } {
  let offset = 2;
  while (offset + 9 < head.length) {
    if (head[offset] !== 0xff) return { width: 0, height: 0 };
    const marker = head[offset + 1]!;
    const length = head.readUInt16BE(offset + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { height: head.readUInt16BE(offset + 5), width: head.readUInt16BE(offset + 7) };
    offset += 2 + length;
  }
  return { width: 0, height: 0 };
}
