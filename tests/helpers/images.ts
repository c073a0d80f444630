/**
 * The first 64 bytes of a 10×10 PNG (its signature and IHDR), told apart by `seed`: enough for an upload's checks
 * (the kind and size read from the head), a different file, and so a different blob, per seed.
 */
export function pngHead(seed: number): Buffer {
  const buf = Buffer.alloc(64);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(buf, 0);
  buf.writeUInt32BE(13, 8);
  buf.write('IHDR', 12, 'latin1');
  buf.writeUInt32BE(10, 16);
  buf.writeUInt32BE(10, 20);
  buf.writeUInt32BE(seed, 40);
  return buf;
}
