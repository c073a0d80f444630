import crypto from 'node:crypto';
import svgCaptcha from 'svg-captcha';

// Image captchas kept in process memory (like base64Captcha's default store): 10 minutes,
// bounded, and consumed by the action that checks them. Readable: dark glyphs (contrast of
// at least 7:1 against the light background) as large as the image allows; svg-captcha's
// per-glyph paths, rotation and crossing lines keep plain OCR out.

export interface CaptchaOptions { type: string; length: number; width: number; height: number }
export interface CaptchaImage { text: string; image: string }
export type CaptchaGenerator = (options: CaptchaOptions) => CaptchaImage;

const TTL_MS = 10 * 60 * 1000;
const MAX_ENTRIES = 10_000;

export const CAPTCHA_BACKGROUND = '#f5f7fa';
/** Glyph colours, each at least 7:1 against the background (WCAG AAA). */
export const CAPTCHA_INKS = ['#1d2129', '#0e3fa8', '#9c1c17', '#0b5a32', '#5b1a8f', '#7a3f06'];
/** How many failed attempts of an action (a wrong password) one rightly answered captcha covers. */
export const CAPTCHA_ATTEMPTS = 3;

/** svg-captcha draws grey glyphs when it has no background; we colour them dark and add ours. */
function inked(svg: string): string {
  const withInks = svg.replace(/<path fill="#[0-9a-f]{3,6}" d=/gi, () => `<path fill="${CAPTCHA_INKS[crypto.randomInt(CAPTCHA_INKS.length)]}" d=`);
  return withInks.replace(/^<svg([^>]*)>/, `<svg$1><rect width="100%" height="100%" fill="${CAPTCHA_BACKGROUND}"/>`);
}

const svgCaptchaGenerator: CaptchaGenerator = ({ type, length, width, height }) => {
  const common = { width, height, noise: 2, color: false, fontSize: Math.round(height * 0.95) };
  const result = type === 'math'
    ? svgCaptcha.createMathExpr({ ...common, mathMin: 1, mathMax: 20, mathOperator: '+/-' })
    : svgCaptcha.create({
      ...common,
      size: length,
      // "string" uses letters and digits without look-alikes; "digit" (and the unsupported "audio") digits only.
      charPreset: type === 'string' ? 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789' : '0123456789',
    });
  return { text: result.text, image: `data:image/svg+xml;base64,${Buffer.from(inked(result.data)).toString('base64')}` };
};

export class CaptchaStore {
  private readonly entries = new Map<string, { answer: string; expires: number; attempts: number }>();

  constructor(private readonly generate: CaptchaGenerator = svgCaptchaGenerator) {}

  create(options: CaptchaOptions): { id: string; image: string } {
    const { text, image } = this.generate(options);
    const id = crypto.randomBytes(10).toString('hex');
    this.prune();
    this.entries.set(id, { answer: text.toLowerCase(), expires: Date.now() + TTL_MS, attempts: CAPTCHA_ATTEMPTS });
    return { id, image };
  }

  /** True when `answer` matches; the captcha is removed when `consume` or when it is wrong. */
  verify(id: string, answer: string, consume: boolean): boolean {
    const entry = this.entries.get(id);
    if (!entry || entry.expires < Date.now()) {
      this.entries.delete(id);
      return false;
    }
    const ok = entry.answer === answer.trim().toLowerCase();
    if (consume || !ok) this.entries.delete(id);
    return ok;
  }

  /** The action behind a rightly answered captcha succeeded: the captcha is spent. */
  consume(id: string): void {
    this.entries.delete(id);
  }

  /**
   * The action behind a rightly answered captcha failed for another reason (a wrong
   * password): the captcha stays for the next attempt, at most `CAPTCHA_ATTEMPTS` in all, so
   * one solved captcha cannot carry a password-guessing run.
   */
  failedAttempt(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    entry.attempts -= 1;
    if (entry.attempts <= 0) this.entries.delete(id);
  }

  private prune(): void {
    const now = Date.now();
    for (const [id, entry] of this.entries) if (entry.expires < now) this.entries.delete(id);
    while (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}
