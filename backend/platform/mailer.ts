import { unavailable } from '../wire/errors';
import type { ConfigStore } from './config-store';

// Sends mail through the SMTP server of the `email` config category. When the service is
// off or unconfigured the caller gets a clear 503 instead of a silent failure. nodemailer loads
// with the first mail, not at every process's start.

export interface MailMessage {
  to: string;
  subject: string;
  html: string;
}

/** What a visitor or member is told when the SMTP server refuses or fails (the reason goes to the log). */
const SEND_FAILED = '邮件发送失败，请稍后再试或联系管理员';

/** What nodemailer puts on the error it throws (`code` its own, `originalCode` the socket's). */
interface SmtpError {
  message?: string;
  code?: string;
  originalCode?: string;
  response?: string;
}

const CONNECT_FAILURES: Record<string, string> = {
  ECONNREFUSED: '连接被拒绝',
  ETIMEDOUT: '连接超时',
  EHOSTUNREACH: '主机不可达',
  ENETUNREACH: '网络不可达',
  ECONNRESET: '连接被对方断开',
};

/**
 * The admin's reason for a failed test mail, in Chinese for the common causes (the server cannot be
 * reached, its name does not resolve, it refuses the account, TLS fails); the SMTP server's own
 * answer stays as the detail where it has one, and what is not recognised is given as nodemailer says it.
 */
function failureReason(error: unknown, host: string, port: number): string {
  const e = (error ?? {}) as SmtpError;
  const server = `${host}:${port}`;
  const connect =
    CONNECT_FAILURES[e.originalCode ?? ''] ?? (e.code === 'ETIMEDOUT' ? CONNECT_FAILURES.ETIMEDOUT : undefined);
  if (connect) return `无法连接邮件服务器 ${server}（${connect}）`;
  if (e.code === 'ETLS' || e.originalCode?.startsWith('ERR_SSL')) {
    return `与邮件服务器 ${server} 建立 TLS 加密连接失败，请检查端口与 TLS 设置是否匹配`;
  }
  const answer = e.response ? `（服务器答复：${e.response}）` : '';
  switch (e.code) {
    case 'EDNS':
      return `找不到邮件服务器 ${host}（域名无法解析）`;
    case 'ENOAUTH':
      return `邮件服务器 ${server} 要求登录，请填写账号的密码`;
    case 'EAUTH':
      return `邮件服务器 ${server} 拒绝登录，请检查账号和密码${answer}`;
    default:
      return e.message ?? String(error);
  }
}

export class Mailer {
  constructor(private readonly settings: ConfigStore) {}

  /** Throws ApiError(Unavailable) when the mail service cannot be used. */
  async assertConfigured(): Promise<void> {
    const cfg = await this.settings.snapshot();
    if (!cfg.bool('email', 'enable')) throw unavailable('邮件服务未启用，请联系管理员');
    if (!cfg.str('email', 'host') || !cfg.str('email', 'username')) {
      throw unavailable('邮件服务未配置 SMTP 服务器或账号，请联系管理员');
    }
  }

  /**
   * Sends one mail. A failure is a 503: `邮件发送失败，…` for visitors and members, the SMTP
   * server's reason logged (its text is English and names the server); with `withReason` (the
   * admin's test mail) the reason is in the message.
   */
  async send(mail: MailMessage, opts: { withReason?: boolean } = {}): Promise<void> {
    await this.assertConfigured();
    const cfg = await this.settings.snapshot();
    const username = cfg.str('email', 'username');
    const port = cfg.int('email', 'port') || 465;
    const { default: nodemailer } = await import('nodemailer');
    const transport = nodemailer.createTransport({
      host: cfg.str('email', 'host'),
      port,
      secure: cfg.bool('email', 'is_tls') && port !== 587 && port !== 25,
      auth: cfg.str('email', 'password') ? { user: username, pass: cfg.str('email', 'password') } : undefined,
      // MOREDOC does not verify the SMTP server certificate either (`email.is_tls`, docs/moredoc.md §10).
      tls: { rejectUnauthorized: false },
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    const fromName = cfg.str('email', 'from_name') || username;
    try {
      await transport.sendMail({
        from: { name: fromName, address: username },
        to: mail.to,
        subject: mail.subject,
        html: mail.html,
      });
    } catch (error) {
      if (opts.withReason) throw unavailable(`邮件发送失败：${failureReason(error, cfg.str('email', 'host'), port)}`);
      const failed = unavailable(SEND_FAILED);
      failed.cause = error;
      throw failed;
    } finally {
      transport.close();
    }
  }
}
