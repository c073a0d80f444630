import { crc32, deflateRawSync } from 'node:zlib';

// A minimal zip writer for test files: documents built from parts (docx, epub) and hostile
// archives (bombs, headers that lie about sizes). Single-disk, no zip64, no encryption.

export interface ZipEntry {
  name: string;
  data: Buffer | string | Deflated;
  /** stored entries (the EPUB `mimetype`) keep their bytes as they are */
  store?: boolean;
  /** the uncompressed size the headers claim; by default the true one */
  declaredSize?: number;
}

/** Data compressed once and stored in many entries (zip bombs), with what its headers need. */
export interface Deflated {
  body: Buffer;
  crc: number;
  size: number;
}

export function deflated(data: Buffer): Deflated {
  return { body: deflateRawSync(data, { level: 9 }), crc: crc32(data), size: data.length };
}

function pack(entry: ZipEntry): Deflated & { method: number } {
  if (typeof entry.data === 'object' && 'body' in entry.data) return { ...entry.data, method: 8 };
  const data = Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data, 'utf8');
  const body = entry.store ? data : deflateRawSync(data, { level: 9 });
  return { body, crc: crc32(data), size: data.length, method: entry.store ? 0 : 8 };
}

export function zip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const packed = pack(entry);
    const { body, crc, method } = packed;
    const size = entry.declaredSize ?? packed.size;

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // version made by
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
