// How the product's Chinese is spaced where values are put into it (docs/decisions/068).

const HAN = /\p{Script=Han}/u;
const LATIN_OR_DIGIT = /[A-Za-z0-9]/;

/** Whether two characters meet as Chinese and a Latin letter or digit, in either order. */
function parted(before: string, after: string): boolean {
  return (HAN.test(before) && LATIN_OR_DIGIT.test(after)) || (LATIN_OR_DIGIT.test(before) && HAN.test(after));
}

/**
 * A Chinese sentence with values in it, a space put where a value's Latin letter or digit meets a
 * Chinese character: zh`${'QQ'}登录未开启` is `QQ 登录未开启`, zh`${'微信'}登录未开启` `微信登录未开启`.
 */
export function zh(strings: TemplateStringsArray, ...values: unknown[]): string {
  let text = strings[0] ?? '';
  values.forEach((value, i) => {
    for (const part of [String(value), strings[i + 1] ?? '']) {
      if (text && part && parted(text.at(-1)!, part[0]!)) text += ' ';
      text += part;
    }
  });
  return text;
}
