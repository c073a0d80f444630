import type { FastifyBaseLogger } from 'fastify';
import { maskMobile } from '../../../shared/validation';
import type { SmsDelivery, SmsMessage, SmsProvider } from './sms-provider';

// The development provider: nothing is sent. The message text is handed back (the sms log
// keeps it, for tests that read the database) and written to the backend's log as a warning
// (nothing was sent; and the embedded backend logs from `warn` up when the site logs `info`),
// where a developer running the site finds the code.

export class LogOnlySmsProvider implements SmsProvider {
  readonly name = 'log' as const;

  constructor(
    private readonly logger: FastifyBaseLogger,
    private readonly signName: string,
  ) {}

  async send(message: SmsMessage): Promise<SmsDelivery> {
    const content = `${this.signName ? `【${this.signName}】` : ''}${message.text}`;
    this.logger.warn(
      { mobile: maskMobile(message.mobile), template: message.templateId, content },
      'sms not sent (log-only provider)',
    );
    return { bizId: '', content };
  }
}
