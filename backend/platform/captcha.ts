import crypto from 'node:crypto';
import svgCaptcha from 'svg-captcha';
import type { Database } from '../db';
import { databaseNow } from '../db/dialect';
import { addressKey } from '../../shared/address-key';

// Image captchas kept in the `captcha` table, so that any backend process sharing the database
// checks the one another handed out: 10 minutes, bounded per client address and in all, and
// consumed by the action that checks them. Readable: dark glyphs (contrast of at least 7:1
// against the light background) as large as the image allows; svg-captcha's per-glyph paths,
// rotation and crossing lines keep plain OCR out.

export interface CaptchaOptions {
  type: string;
  length: number;
  width: number;
  height: number;
}
export interface CaptchaImage {
  text: string;
  image: string;
}
export type CaptchaGenerator = (options: CaptchaOptions) => CaptchaImage;

const TTL_MS = 10 * 60 * 1000;

/**
 * How many live captchas the table keeps: in all, and of one client address. A loop asking for
 * captchas from one address pushes out its own oldest, never another address's (before, it
 * pushed everyone's out of the 10,000 and they failed their sign-in). 200 an address: for someone
 * at a school behind one address to lose the captcha on their screen, 200 more must be asked for
 * from that address while they type it (a minute at most), which pages opened by people do not
 * come near; a flood needs 50 addresses to fill the table.
 */
export interface CaptchaLimits {
  total: number;
  perAddress: number;
}
export const CAPTCHA_LIMITS: CaptchaLimits = { total: 10_000, perAddress: 200 };

export const CAPTCHA_BACKGROUND = '#f5f7fa';
/** Glyph colours, each at least 7:1 against the background (WCAG AAA). */
export const CAPTCHA_INKS = ['#1d2129', '#0e3fa8', '#9c1c17', '#0b5a32', '#5b1a8f', '#7a3f06'];
/** How many attempts of an action (a wrong password and the next try) one rightly answered captcha covers. */
export const CAPTCHA_ATTEMPTS = 3;

/** svg-captcha draws grey glyphs when it has no background; we colour them dark and add ours. */
function inked(svg: string): string {
  const withInks = svg.replace(
    /<path fill="#[0-9a-f]{3,6}" d=/gi,
    () => `<path fill="${CAPTCHA_INKS[crypto.randomInt(CAPTCHA_INKS.length)]}" d=`,
  );
  return withInks.replace(/^<svg([^>]*)>/, `<svg$1><rect width="100%" height="100%" fill="${CAPTCHA_BACKGROUND}"/>`);
}

/** svg-captcha's own call: the given text drawn as the captcha (its typings leave it out). */
const drawText = svgCaptcha as unknown as (text: string, options: Parameters<typeof svgCaptcha.create>[0]) => string;

/**
 * The 算术 captcha's question: a sum of two numbers from 1 to 20, asked as `a+b=?` (svg-captcha's
 * own `a-b` drew the minus as a speck, and no `=?` said that a result is wanted).
 */
export function mathQuestion(pick: (min: number, max: number) => number = crypto.randomInt): {
  question: string;
  answer: string;
} {
  const [a, b] = [pick(1, 21), pick(1, 21)];
  return { question: `${a}+${b}=?`, answer: String(a + b) };
}

const svgCaptchaGenerator: CaptchaGenerator = ({ type, length, width, height }) => {
  const common = { width, height, noise: 2, color: false, fontSize: Math.round(height * 0.95) };
  const math = type === 'math' ? mathQuestion() : undefined;
  const result = math
    ? { text: math.answer, data: drawText(math.question, common) }
    : svgCaptcha.create({
        ...common,
        size: length,
        // "string" uses letters and digits without look-alikes; "digit" (and the unsupported "audio") digits only.
        charPreset: type === 'string' ? 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789' : '0123456789',
      });
  return {
    text: result.text,
    image: `data:image/svg+xml;base64,${Buffer.from(inked(result.data)).toString('base64')}`,
  };
};

/** How often (in captchas made by a process) the table is cut back to its total. */
const TRIM_EVERY = 100;

/**
 * The first characters of the ids of the captchas handed out to `address`'s client: hex of the hash of its key
 * (addressKey: an IPv6 client's prefix, CLIENT_IPV6_PREFIX, so that rotating the bits after it is one client), of a
 * fixed length, so that an address's captchas are one range of the primary key (below) on both
 * engines, without a column of their own. The client sees only the key of its own address.
 */
function addressPrefix(address: string, ipv6Prefix: number): string {
  return crypto.createHash('sha256').update(addressKey(address, ipv6Prefix)).digest('hex').slice(0, 16);
}

export class CaptchaStore {
  private made = 0;
  private sequence = 0;

  constructor(
    private readonly db: Database,
    private readonly generate: CaptchaGenerator = svgCaptchaGenerator,
    private readonly limits: CaptchaLimits = CAPTCHA_LIMITS,
  ) {}

  /**
   * A new captcha for the client at `address` (the one the per-address limits count: clientIp, an IPv6 client by its
   * prefix of `ipv6Prefix` bits).
   */
  async create(options: CaptchaOptions, address: string, ipv6Prefix: number): Promise<{ id: string; image: string }> {
    const { text, image } = this.generate(options);
    const key = addressPrefix(address, ipv6Prefix);
    // The database's clock, as the check's: a captcha handed out by one machine and checked by
    // another whose clock is off by more than the TTL still holds its 10 minutes.
    const nowMs = (await databaseNow(this.db)).getTime();
    const id = `${key}${this.madeAt(nowMs)}${crypto.randomBytes(10).toString('hex')}`;
    await this.prune(nowMs);
    await this.makeRoomFor(key);
    await this.db
      .insertInto('captcha')
      .values({
        id,
        answer: text.toLowerCase(),
        attempts: CAPTCHA_ATTEMPTS,
        expires_at: new Date(nowMs + TTL_MS).toISOString(),
      })
      .execute();
    return { id, image };
  }

  /**
   * True when `answer` matches; the captcha is removed when `consume` or when it is wrong.
   * Without `consume` the check is one of the `CAPTCHA_ATTEMPTS` that a rightly answered
   * captcha covers (the action behind it may fail for another reason, a wrong password, and
   * the captcha stays for the next try): counted in the statement that reads it, so that of
   * checks at once no more than those pass, and one solved captcha never carries a run of
   * password guesses or of questions whether an address has an account. `consume` spends it
   * once its action succeeded.
   */
  async verify(id: string, answer: string, consume: boolean): Promise<boolean> {
    if (!id) return false;
    // Removing (or counting) and reading in one statement: of two requests spending one captcha, one gets it.
    const entry = consume
      ? await this.db
          .deleteFrom('captcha')
          .where('id', '=', id)
          .where('attempts', '>', 0)
          .returning(['answer', 'expires_at'])
          .executeTakeFirst()
      : await this.db
          .updateTable('captcha')
          .set((eb) => ({ attempts: eb('attempts', '-', 1) }))
          .where('id', '=', id)
          .where('attempts', '>', 0)
          .returning(['answer', 'expires_at'])
          .executeTakeFirst();
    if (!entry) return false;
    const ok =
      entry.answer === answer.trim().toLowerCase() && entry.expires_at >= (await databaseNow(this.db)).toISOString();
    if (!consume && !ok) await this.consume(id);
    return ok;
  }

  /** The action behind a rightly answered captcha succeeded: the captcha is spent. */
  async consume(id: string): Promise<void> {
    await this.db.deleteFrom('captcha').where('id', '=', id).execute();
  }

  /**
   * The part of an id after the address's that sorts in the order captchas were made: 12 hex of
   * the database's ms and 4 of this process's count, so that of two made in one millisecond (a
   * loop does several a ms) the later sorts after; by their expiry alone such ties fell to the
   * random rest of the id, and the newer of the two could be the one dropped.
   */
  private madeAt(nowMs: number): string {
    this.sequence = (this.sequence + 1) % 0x10000;
    return `${nowMs.toString(16).padStart(12, '0')}${this.sequence.toString(16).padStart(4, '0')}`;
  }

  /**
   * Drops the oldest of the captchas of the address `key` beyond its newest `perAddress - 1`: with
   * the one being made, it holds `perAddress`. Its ids are those from `key` up to `key` + "g" (a
   * character after every hex digit in SQLite's binary order and in PostgreSQL's collations alike),
   * in the order they were made (madeAt). Two made at once may each leave one more; the next one
   * made cuts back.
   */
  private async makeRoomFor(key: string): Promise<void> {
    const older = await this.db
      .selectFrom('captcha')
      .select('id')
      .where('id', '>=', key)
      .where('id', '<', `${key}g`)
      .orderBy('id', 'desc')
      .offset(this.limits.perAddress - 1)
      .limit(this.limits.perAddress)
      .execute();
    const ids = older.map((row) => row.id);
    if (ids.length) await this.db.deleteFrom('captcha').where('id', 'in', ids).execute();
  }

  /** Drops expired captchas; now and then cuts the table back to the newest `total`. */
  private async prune(nowMs: number): Promise<void> {
    await this.db.deleteFrom('captcha').where('expires_at', '<', new Date(nowMs).toISOString()).execute();
    this.made += 1;
    if (this.made % TRIM_EVERY !== 0) return;
    const cut = await this.db
      .selectFrom('captcha')
      .select('expires_at')
      .orderBy('expires_at', 'desc')
      .offset(this.limits.total)
      .limit(1)
      .executeTakeFirst();
    if (cut) await this.db.deleteFrom('captcha').where('expires_at', '<=', cut.expires_at).execute();
  }
}
