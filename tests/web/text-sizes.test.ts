// The build's pass that has text follow the browser's font size (web/text-sizes.ts, decision
// 111), through Vite's own CSS pipeline with the SPA's config: what it writes in rem, what it
// leaves in px, and that at the browser's default 16 px every size is the one it replaced.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { preprocessCSS, resolveConfig, type ResolvedConfig } from 'vite';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = process.cwd();
let config: ResolvedConfig;

beforeAll(async () => {
  config = await resolveConfig({ configFile: join(ROOT, 'web/vite.config.ts'), logLevel: 'silent' }, 'build');
});

/** The stylesheet as the SPA's build writes it (the file's path is only its name here). */
const built = async (css: string, file = join(ROOT, 'web/src/sample.css')) =>
  (await preprocessCSS(css, file, config)).code;

/** `css` with every rem back in px of a 16 px root, and `padding: 8px 8px` as `padding: 8px`. */
const atSixteen = (css: string) =>
  css
    .replace(/(-?\d*\.?\d+)rem\b/g, (_, rem: string) => `${Number(rem) * 16}px`)
    .replace(/padding: (\S+) \1;/g, 'padding: $1;');

describe('the build writes text sizes and the heights that hold text in rem', () => {
  it("writes Semi's button's font size, line height, height and vertical padding in rem, its sides in px", async () => {
    const file = join(ROOT, 'node_modules/@douyinfe/semi-foundation/lib/es/button/button.css');
    const css = await built(readFileSync(file, 'utf8'), file);
    const button = /\n\.semi-button \{[^}]*height[^}]*\}/.exec(css)?.[0] ?? '';
    expect(button).toContain('height: 2rem;');
    expect(button).toContain('font-size: 0.875rem;');
    expect(button).toContain('line-height: 1.25rem;');
    expect(button).toContain('padding-top: 0.375rem;');
    expect(button).toContain('padding-left: 12px;');
  });

  it('writes the top and bottom of padding in rem, its sides in px, and leaves a padding with a function as it is', async () => {
    expect(await built('.a { padding: 6px 12px; }')).toContain('padding: 0.375rem 12px;');
    expect(await built('.a { padding: 20px; }')).toContain('padding: 1.25rem 20px;');
    expect(await built('.a { padding: 8px 16px calc(8px + env(safe-area-inset-bottom, 0px)); }')).toContain(
      'padding: 8px 16px calc(8px + env(safe-area-inset-bottom, 0px));',
    );
  });

  it('keeps widths, gaps, margins, borders, shadows, hairlines and media queries in px', async () => {
    const css = await built(
      '@media (max-width: 640px) { .a { width: 240px; gap: 8px; margin: 12px; border: 2px solid red;' +
        ' box-shadow: 0 4px 14px red; min-height: 1px; font-size: 14px; } }',
    );
    expect(css).toContain('@media (max-width: 640px)');
    expect(css).toContain('width: 240px; gap: 8px; margin: 12px; border: 2px solid red; box-shadow: 0 4px 14px red;');
    expect(css).toContain('min-height: 1px; font-size: 0.875rem;');
  });

  it('keeps a box whose width and height are both fixed in px as it is, its text with it', async () => {
    const box = '.avatar { width: 32px; height: 32px; font-size: 12px; line-height: 32px; }';
    expect(await built(box)).toContain(box);
    expect(await built('.field { width: 64px; min-height: 24px; }')).toContain('min-height: 1.5rem;');
  });

  it("draws every stylesheet of the site's and of Semi's as before at the browser's default 16 px", async () => {
    const semi = join(ROOT, 'node_modules/@douyinfe/semi-foundation/lib/es');
    const site = join(ROOT, 'web/src');
    const files = [
      ...readdirSync(semi, { recursive: true, encoding: 'utf8' }).map((file) => join(semi, file)),
      ...readdirSync(site, { recursive: true, encoding: 'utf8' }).map((file) => join(site, file)),
    ].filter((file) => file.endsWith('.css'));
    expect(files.length).toBeGreaterThan(100);
    let rewritten = 0;
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      const css = await built(source, file);
      if (css !== source) rewritten++;
      expect(atSixteen(css), file).toBe(atSixteen(source));
    }
    expect(rewritten).toBeGreaterThan(100);
  });
});
