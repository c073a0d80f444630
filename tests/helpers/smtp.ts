import net from 'node:net';

// A minimal SMTP sink on 127.0.0.1 for mail tests: accepts any login and keeps every
// message it receives (decoded from quoted-printable/base64 well enough to read links).

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  text: string;
}

export interface SmtpSink {
  port: number;
  mails: ReceivedMail[];
  /** Resolves with the next mail (or one that already arrived after `since`). */
  next(since?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

function decodeBody(raw: string): string {
  const qp = raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const bytes = Buffer.from(qp, 'latin1').toString('utf8');
  const base64Parts = [...raw.matchAll(/\r?\n\r?\n([A-Za-z0-9+/=\r\n]{40,})/g)].map((m) =>
    Buffer.from(m[1]!.replace(/\s/g, ''), 'base64').toString('utf8'),
  );
  return [bytes, ...base64Parts].join('\n');
}

/** The `email` settings that send the site's mail to this sink (no test mail on saving them). */
export function mailSettings(sink: Pick<SmtpSink, 'port'>): Record<string, string> {
  return {
    'email.enable': 'true',
    'email.host': '127.0.0.1',
    'email.port': String(sink.port),
    'email.is_tls': 'false',
    'email.username': 'noreply@example.com',
    'email.password': 'smtp-secret',
    'email.test_email': '',
  };
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const waiters: ((mail: ReceivedMail) => void)[] = [];
  const server = net.createServer((socket) => {
    let buffer = '';
    let inData = false;
    let from = '';
    let to: string[] = [];
    let data = '';
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 sink ESMTP');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      let index;
      while ((index = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            const mail = { from, to, raw: data, text: decodeBody(data) };
            mails.push(mail);
            waiters.splice(0).forEach((w) => w(mail));
            reply('250 OK queued');
          } else {
            data += (line.startsWith('..') ? line.slice(1) : line) + '\r\n';
          }
          continue;
        }
        const command = line.slice(0, 4).toUpperCase();
        if (command === 'EHLO') reply('250-sink\r\n250-AUTH PLAIN\r\n250 8BITMIME');
        else if (command === 'HELO') reply('250 sink');
        else if (command === 'AUTH') reply(/PLAIN \S+/i.test(line) ? '235 OK' : '334 ');
        else if (command === 'MAIL') {
          from = line;
          to = [];
          data = '';
          reply('250 OK');
        } else if (command === 'RCPT') {
          to.push(line.replace(/^RCPT TO:\s*/i, '').replace(/[<>]/g, ''));
          reply('250 OK');
        } else if (command === 'DATA') {
          inData = true;
          reply('354 go ahead');
        } else if (command === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else if (command === 'RSET' || command === 'NOOP') reply('250 OK');
        else if (/^[A-Za-z0-9+/=]+$/.test(line))
          reply('235 OK'); // AUTH PLAIN credentials sent after the 334
        else reply('250 OK');
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    mails,
    next(since = mails.length) {
      if (mails.length > since) return Promise.resolve(mails[since]!);
      return new Promise((resolve) => waiters.push(resolve));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
