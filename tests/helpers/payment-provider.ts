// An offline stand-in for Alipay and WeChat Pay v3 on 127.0.0.1 port 0. Each harness
// generates its own RSA key pairs: the merchant's (configured as our private key, used here
// to check that our requests are signed) and the provider's (its public half configured as
// "Alipay's public key" / the 微信支付公钥, its private half signing what the stub answers
// and the notifications the tests post) — exactly as the providers sign, written
// independently of the backend's code.
import crypto from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Trade {
  /** Alipay: WAIT_BUYER_PAY, TRADE_SUCCESS, TRADE_CLOSED…; WeChat: NOTPAY, SUCCESS, CLOSED… */
  state: string;
  /** fen */
  amount: number;
  tradeNo: string;
}

export interface RecordedRequest {
  provider: 'alipay' | 'wechat';
  /** Alipay: the `method` parameter; WeChat: `METHOD path`. */
  call: string;
  params: Record<string, unknown>;
  /** Our request's signature verified with the merchant's public key. */
  signatureValid: boolean;
}

export interface PaymentProviderStub {
  url: string;
  /** PAY_* variables pointing the backend at this stub. */
  env: Record<string, string>;
  /** CONFIG_PAY_* presets: payment on, both providers and the manual one configured with this harness's keys. */
  settingsEnv: Record<string, string>;
  /** Trades by order number, as the providers' query APIs report them. */
  trades: Map<string, Trade>;
  requests: RecordedRequest[];
  alipay: AlipayHarness;
  wechat: WechatHarness;
  close(): Promise<void>;
}

export interface AlipayHarness {
  appId: string;
  /** The application's key pair (the merchant's). */
  appKeys: crypto.KeyPairKeyObjectResult;
  /** Alipay's key pair. */
  alipayKeys: crypto.KeyPairKeyObjectResult;
  /** A form-encoded asynchronous notification, signed as Alipay signs it (RSA2 over the sorted parameters). */
  notification(params: Record<string, string>, signWith?: crypto.KeyObject): string;
  /** The parameters Alipay sends when a trade succeeded. */
  paidParams(orderNo: string, amountYuan: string, tradeNo?: string): Record<string, string>;
}

export interface WechatHarness {
  appId: string;
  mchId: string;
  serialNo: string;
  publicKeyId: string;
  apiV3Key: string;
  merchantKeys: crypto.KeyPairKeyObjectResult;
  platformKeys: crypto.KeyPairKeyObjectResult;
  /** A notification as WeChat Pay posts it: the resource AES-256-GCM encrypted with the API v3 key, the body signed. */
  notification(
    transaction: Record<string, unknown>,
    opts?: { eventType?: string; timestamp?: number; signWith?: crypto.KeyObject; serial?: string; apiV3Key?: string },
  ): { headers: Record<string, string>; body: string };
  /** The transaction WeChat reports for a successful payment. */
  paidTransaction(orderNo: string, amountFen: number, transactionId?: string): Record<string, unknown>;
}

const rsaPair = () => crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = (key: crypto.KeyObject, type: 'pkcs1' | 'pkcs8' | 'spki') =>
  key.export({ type, format: 'pem' } as crypto.KeyExportOptions<'pem'>).toString();
/** Alipay's open platform shows keys as bare base64. */
const bareBase64 = (pemText: string) => pemText.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Alipay's signing content: every parameter but sign and sign_type, sorted, `k=v` joined by `&`. */
function alipaySignContent(params: Record<string, string>, keepSignType = false): string {
  return Object.keys(params)
    .filter((k) => k !== 'sign' && (keepSignType || k !== 'sign_type'))
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
}

function beijingNow(): string {
  const shifted = new Date(Date.now() + 8 * 3600_000).toISOString();
  return `${shifted.slice(0, 10)} ${shifted.slice(11, 19)}`;
}

function makeAlipay(): AlipayHarness {
  const appKeys = rsaPair();
  const alipayKeys = rsaPair();
  const appId = '2021000000000001';
  return {
    appId,
    appKeys,
    alipayKeys,
    notification(params, signWith = alipayKeys.privateKey) {
      const withType = { ...params, sign_type: 'RSA2' };
      const sign = crypto.sign('sha256', Buffer.from(alipaySignContent(withType), 'utf8'), signWith).toString('base64');
      return new URLSearchParams({ ...withType, sign }).toString();
    },
    paidParams(orderNo, amountYuan, tradeNo = `2024${crypto.randomInt(1e9, 1e10)}`) {
      return {
        gmt_create: beijingNow(),
        charset: 'utf-8',
        gmt_payment: beijingNow(),
        notify_time: beijingNow(),
        subject: '魔豆文库 月度会员',
        buyer_id: '2088102177846880',
        invoice_amount: amountYuan,
        version: '1.0',
        notify_id: crypto.randomUUID().replace(/-/g, ''),
        fund_bill_list: '[{"amount":"' + amountYuan + '","fundChannel":"ALIPAYACCOUNT"}]',
        notify_type: 'trade_status_sync',
        out_trade_no: orderNo,
        total_amount: amountYuan,
        trade_status: 'TRADE_SUCCESS',
        trade_no: tradeNo,
        auth_app_id: appId,
        receipt_amount: amountYuan,
        point_amount: '0.00',
        app_id: appId,
        buyer_pay_amount: amountYuan,
        seller_id: '2088102177296610',
      };
    },
  };
}

function makeWechat(): WechatHarness {
  const merchantKeys = rsaPair();
  const platformKeys = rsaPair();
  const apiV3Key = crypto.randomBytes(16).toString('hex');
  const appId = 'wxd678efh567hg6787';
  const mchId = '1230000109';
  const publicKeyId = 'PUB_KEY_ID_0112300001092024000000000000000000';
  return {
    appId,
    mchId,
    serialNo: '5157F09EFDC096DE15EBE81A47057A7232F1B8E1',
    publicKeyId,
    apiV3Key,
    merchantKeys,
    platformKeys,
    notification(transaction, opts = {}) {
      const nonce = crypto.randomBytes(6).toString('hex');
      const associatedData = 'transaction';
      const cipher = crypto.createCipheriv(
        'aes-256-gcm',
        Buffer.from(opts.apiV3Key ?? apiV3Key, 'utf8'),
        Buffer.from(nonce, 'utf8'),
      );
      cipher.setAAD(Buffer.from(associatedData, 'utf8'));
      const ciphertext = Buffer.concat([
        cipher.update(JSON.stringify(transaction), 'utf8'),
        cipher.final(),
        cipher.getAuthTag(),
      ]).toString('base64');
      const body = JSON.stringify({
        id: crypto.randomUUID(),
        create_time: new Date().toISOString(),
        resource_type: 'encrypt-resource',
        event_type: opts.eventType ?? 'TRANSACTION.SUCCESS',
        summary: '支付成功',
        resource: {
          original_type: 'transaction',
          algorithm: 'AEAD_AES_256_GCM',
          ciphertext,
          associated_data: associatedData,
          nonce,
        },
      });
      const timestamp = String(opts.timestamp ?? Math.floor(Date.now() / 1000));
      const signNonce = crypto.randomBytes(16).toString('hex');
      const signature = crypto
        .sign(
          'sha256',
          Buffer.from(`${timestamp}\n${signNonce}\n${body}\n`, 'utf8'),
          opts.signWith ?? platformKeys.privateKey,
        )
        .toString('base64');
      return {
        body,
        headers: {
          'content-type': 'application/json',
          'wechatpay-timestamp': timestamp,
          'wechatpay-nonce': signNonce,
          'wechatpay-signature': signature,
          'wechatpay-serial': opts.serial ?? publicKeyId,
          'wechatpay-signature-type': 'WECHATPAY2-SHA256-RSA2048',
        },
      };
    },
    paidTransaction(orderNo, amountFen, transactionId = `4200000${crypto.randomInt(1e9, 1e10)}`) {
      return {
        appid: appId,
        mchid: mchId,
        out_trade_no: orderNo,
        transaction_id: transactionId,
        trade_type: 'NATIVE',
        trade_state: 'SUCCESS',
        trade_state_desc: '支付成功',
        bank_type: 'OTHERS',
        attach: '',
        success_time: new Date().toISOString().replace(/\.\d+Z$/, '+00:00'),
        payer: { openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' },
        amount: { total: amountFen, payer_total: amountFen, currency: 'CNY', payer_currency: 'CNY' },
      };
    },
  };
}

/** Our WECHATPAY2-SHA256-RSA2048 Authorization header, checked against the merchant's public key. */
function wechatRequestSigned(
  req: IncomingMessage,
  path: string,
  body: string,
  merchantPublicKey: crypto.KeyObject,
  mchId: string,
): boolean {
  const auth = req.headers.authorization ?? '';
  if (!auth.startsWith('WECHATPAY2-SHA256-RSA2048 ')) return false;
  const fields = Object.fromEntries([...auth.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
  if (fields.mchid !== mchId) return false;
  const message = `${req.method}\n${path}\n${fields.timestamp}\n${fields.nonce_str}\n${body}\n`;
  return crypto.verify(
    'sha256',
    Buffer.from(message, 'utf8'),
    merchantPublicKey,
    Buffer.from(fields.signature ?? '', 'base64'),
  );
}

export async function startPaymentProvider(): Promise<PaymentProviderStub> {
  const alipay = makeAlipay();
  const wechat = makeWechat();
  const trades = new Map<string, Trade>();
  const requests: RecordedRequest[] = [];

  const ALIPAY_SUCCESS = { code: '10000', msg: 'Success' };
  const ALIPAY_TRADE_NOT_EXIST = {
    code: '40004',
    msg: 'Business Failed',
    sub_code: 'ACQ.TRADE_NOT_EXIST',
    sub_msg: '交易不存在',
  };

  function alipayAnswer(res: ServerResponse, method: string, payload: Record<string, unknown>) {
    const key = `${method.replaceAll('.', '_')}_response`;
    const inner = JSON.stringify(payload);
    const sign = crypto.sign('sha256', Buffer.from(inner, 'utf8'), alipay.alipayKeys.privateKey).toString('base64');
    const text = `{"${key}":${inner},"sign":"${sign}"}`;
    res.writeHead(200, { 'content-type': 'application/json;charset=utf-8' });
    res.end(text);
  }

  function wechatAnswer(res: ServerResponse, status: number, payload: Record<string, unknown> | null) {
    const body = payload ? JSON.stringify(payload) : '';
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = crypto.randomBytes(16).toString('hex');
    const signature = crypto
      .sign('sha256', Buffer.from(`${timestamp}\n${nonce}\n${body}\n`, 'utf8'), wechat.platformKeys.privateKey)
      .toString('base64');
    res.writeHead(status, {
      'content-type': 'application/json',
      'wechatpay-timestamp': timestamp,
      'wechatpay-nonce': nonce,
      'wechatpay-signature': signature,
      'wechatpay-serial': wechat.publicKeyId,
    });
    res.end(body);
  }

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://stub');
      const body = await readBody(req);
      if (url.pathname === '/alipay/gateway.do') {
        const params: Record<string, string> = Object.fromEntries([...url.searchParams, ...new URLSearchParams(body)]);
        const method = params.method ?? '';
        const signatureValid = crypto.verify(
          'sha256',
          Buffer.from(alipaySignContent(params, true), 'utf8'),
          alipay.appKeys.publicKey,
          Buffer.from(params.sign ?? '', 'base64'),
        );
        const bizContent = JSON.parse(params.biz_content ?? '{}') as Record<string, string>;
        requests.push({
          provider: 'alipay',
          call: method,
          params: { ...params, biz_content: bizContent },
          signatureValid,
        });
        const orderNo = bizContent.out_trade_no ?? '';
        const trade = trades.get(orderNo);
        if (!signatureValid)
          return alipayAnswer(res, method, {
            code: '40002',
            msg: 'Invalid Arguments',
            sub_code: 'isv.invalid-signature',
            sub_msg: '验签出错',
          });
        if (method === 'alipay.trade.query') {
          if (!trade) return alipayAnswer(res, method, ALIPAY_TRADE_NOT_EXIST);
          return alipayAnswer(res, method, {
            ...ALIPAY_SUCCESS,
            out_trade_no: orderNo,
            trade_no: trade.tradeNo,
            trade_status: trade.state,
            total_amount: (trade.amount / 100).toFixed(2),
            send_pay_date: beijingNow(),
          });
        }
        if (method === 'alipay.trade.close') {
          if (!trade) return alipayAnswer(res, method, ALIPAY_TRADE_NOT_EXIST);
          if (trade.state === 'WAIT_BUYER_PAY') trade.state = 'TRADE_CLOSED';
          return alipayAnswer(res, method, {
            ...ALIPAY_SUCCESS,
            out_trade_no: orderNo,
            trade_no: trade.tradeNo,
          });
        }
        return alipayAnswer(res, method, { code: '40004', msg: 'Business Failed', sub_code: 'isv.unknown-method' });
      }
      if (url.pathname.startsWith('/wechat/v3/')) {
        const path = `${url.pathname.slice('/wechat'.length)}${url.search}`;
        const signatureValid = wechatRequestSigned(req, path, body, wechat.merchantKeys.publicKey, wechat.mchId);
        const params = body ? (JSON.parse(body) as Record<string, unknown>) : Object.fromEntries(url.searchParams);
        requests.push({
          provider: 'wechat',
          call: `${req.method} ${url.pathname.slice('/wechat'.length)}`,
          params,
          signatureValid,
        });
        if (!signatureValid) return wechatAnswer(res, 401, { code: 'SIGN_ERROR', message: '签名错误' });
        const byNo = /^\/wechat\/v3\/pay\/transactions\/out-trade-no\/([^/]+)(\/close)?$/.exec(url.pathname);
        if (
          req.method === 'POST' &&
          (url.pathname === '/wechat/v3/pay/transactions/native' || url.pathname === '/wechat/v3/pay/transactions/h5')
        ) {
          const orderNo = String(params.out_trade_no);
          const amount = (params.amount as { total: number }).total;
          if (!trades.has(orderNo))
            trades.set(orderNo, { state: 'NOTPAY', amount, tradeNo: `4200000${crypto.randomInt(1e9, 1e10)}` });
          return url.pathname.endsWith('native')
            ? wechatAnswer(res, 200, { code_url: `weixin://wxpay/bizpayurl?pr=${orderNo.slice(-8)}` })
            : wechatAnswer(res, 200, {
                h5_url: `https://wx.tenpay.com/cgi-bin/mmpayweb-bin/checkmweb?prepay_id=wx${orderNo}`,
              });
        }
        if (byNo && req.method === 'GET') {
          const trade = trades.get(decodeURIComponent(byNo[1]!));
          if (!trade) return wechatAnswer(res, 404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' });
          return wechatAnswer(res, 200, {
            appid: wechat.appId,
            mchid: wechat.mchId,
            out_trade_no: decodeURIComponent(byNo[1]!),
            transaction_id: trade.tradeNo,
            trade_state: trade.state,
            success_time: new Date().toISOString(),
            amount: { total: trade.amount, payer_total: trade.amount, currency: 'CNY' },
          });
        }
        if (byNo?.[2] && req.method === 'POST') {
          const trade = trades.get(decodeURIComponent(byNo[1]!));
          if (trade && trade.state === 'NOTPAY') trade.state = 'CLOSED';
          return wechatAnswer(res, 204, null);
        }
        return wechatAnswer(res, 404, { code: 'NOT_FOUND', message: '未知接口' });
      }
      res.writeHead(404).end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    env: {
      PAY_ALIPAY_GATEWAY_URL: `${url}/alipay/gateway.do`,
      PAY_WECHAT_API_URL: `${url}/wechat`,
      PAY_TIMEOUT_MS: '3000',
    },
    settingsEnv: {
      CONFIG_SYSTEM_DOMAIN: 'https://docs.example.com',
      CONFIG_VIP_ENABLE: 'true',
      CONFIG_PAY_ENABLE: 'true',
      CONFIG_PAY_PROVIDER: 'alipay,wechat,manual',
      CONFIG_PAY_ALIPAY_APP_ID: alipay.appId,
      CONFIG_PAY_ALIPAY_PRIVATE_KEY: pem(alipay.appKeys.privateKey, 'pkcs1'),
      CONFIG_PAY_ALIPAY_PUBLIC_KEY: bareBase64(pem(alipay.alipayKeys.publicKey, 'spki')),
      CONFIG_PAY_WECHAT_APP_ID: wechat.appId,
      CONFIG_PAY_WECHAT_MCH_ID: wechat.mchId,
      CONFIG_PAY_WECHAT_SERIAL_NO: wechat.serialNo,
      CONFIG_PAY_WECHAT_PRIVATE_KEY: pem(wechat.merchantKeys.privateKey, 'pkcs8'),
      CONFIG_PAY_WECHAT_API_V3_KEY: wechat.apiV3Key,
      CONFIG_PAY_WECHAT_PUBLIC_KEY_ID: wechat.publicKeyId,
      CONFIG_PAY_WECHAT_PUBLIC_KEY: pem(wechat.platformKeys.publicKey, 'spki'),
      CONFIG_PAY_MANUAL_INSTRUCTIONS: '请转账至 招商银行 6225 0000 0000 0000（户名：魔豆文库），备注填写订单号。',
    },
    trades,
    requests,
    alipay,
    wechat,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
