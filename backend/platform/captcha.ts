import crypto from 'node:crypto';
import svgCaptcha from 'svg-captcha';

// Image captchas kept in process memory (like base64Captcha's default store): 10 minutes,
// bounded, and consumed by the action that checks them.

export interface CaptchaOptions { type: string; length: number; width: number; height: number }
export interface CaptchaImage { text: string; image: string }
export type CaptchaGenerator = (options: CaptchaOptions) => CaptchaImage;

const TTL_MS = 10 * 60 * 1000;
const MAX_ENTRIES = 10_000;

const svgCaptchaGenerator: CaptchaGenerator = ({ type, length, width, height }) => {
  const common = { width, height, noise: 2, color: true, background: '#f5f7fa' };
  const result = type === 'math'
    ? svgCaptcha.createMathExpr({ ...common, mathMin: 1, mathMax: 20, mathOperator: '+/-' })
    : svgCaptcha.create({
      ...common,
      size: length,
      // "string" uses letters and digits without look-alikes; "digit" (and the unsupported "audio") digits only.
      charPreset: type === 'string' ? 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789' : '0123456789',
    });
  return { text: result.text, image: `data:image/svg+xml;base64,${Buffer.from(result.data).toString('base64')}` };
};

export class CaptchaStore {
  private readonly entries = new Map<string, { answer: string; expires: number }>();

  constructor(private readonly generate: CaptchaGenerator = svgCaptchaGenerator) {}

  create(options: CaptchaOptions): { id: string; image: string } {
    const { text, image } = this.generate(options);
    const id = crypto.randomBytes(10).toString('hex');
    this.prune();
    this.entries.set(id, { answer: text.toLowerCase(), expires: Date.now() + TTL_MS });
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
