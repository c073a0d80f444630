// What other modules may ask of the sms module: sending a verification code under the
// limits, spending a code a member typed, the config page's test message, and the log.

export { spendCode } from './codes';
export { sendTestSms, sendVerificationCode } from './send';
export { listSmsLog, smsStats } from './log';
