// A client that sends a request the way a slow or stalled one does: the head and the first
// bytes of the body at once, then further pieces at given moments, then nothing. Answers what
// came back (parsed), whether the server closed the connection, or `answered: false` when
// nothing came within `waitMs`.
import net from 'node:net';

export interface SlowAnswer {
  answered: boolean;
  status: number;
  headers: Record<string, string>;
  body: string;
  closed: boolean;
}

export function slowRequest(
  url: string,
  head: string,
  pieces: readonly { afterMs: number; data: string | Buffer }[],
  waitMs: number,
): Promise<SlowAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    const timers: NodeJS.Timeout[] = [];
    let received = Buffer.alloc(0);
    const finish = (closed: boolean) => {
      timers.forEach(clearTimeout);
      socket.destroy();
      const text = received.toString('utf8');
      const cut = text.indexOf('\r\n\r\n');
      if (cut < 0) return resolve({ answered: false, status: 0, headers: {}, body: '', closed });
      const [statusLine = '', ...lines] = text.slice(0, cut).split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ answered: true, status: Number(statusLine.split(' ')[1]), headers, body: text.slice(cut + 4), closed });
    };
    socket.on('connect', () => {
      socket.write(head);
      for (const piece of pieces)
        timers.push(setTimeout(() => socket.writable && socket.write(piece.data), piece.afterMs));
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => finish(true));
    timers.push(setTimeout(() => finish(false), waitMs));
  });
}
