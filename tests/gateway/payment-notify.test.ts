import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, startGateway, startStub, type Stub, type TestGateway } from './helpers';

// Payment notifications (docs/api.md §11) come from Alipay's and WeChat Pay's servers: no
// cookie, no Origin, bodies that are not JSON (Alipay posts a form). The gateway must hand
// them to the backend byte for byte with the providers' signature headers, and hand the
// backend's answer (`success`, 204) back unchanged — a changed byte breaks the signature.

let stub: Stub;
let gw: TestGateway;

beforeAll(async () => {
  stub = await startStub((req, res) => {
    if (req.url === '/api/v1/pay/notify/alipay') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.end('success');
    }
    res.writeHead(204);
    res.end();
  });
  gw = await startGateway(stub.url, { publicOrigin: 'https://docs.example.com' });
});
afterAll(async () => {
  await gw.close();
  await stub.close();
});

describe('payment notify routes through the gateway', () => {
  it('pass an Alipay form notification through unchanged and answer `success`', async () => {
    const body =
      'gmt_create=2024-05-01+10%3A20%3A30&charset=utf-8&out_trade_no=2024050110203012345678&total_amount=30.00' +
      '&trade_status=TRADE_SUCCESS&subject=%E9%AD%94%E8%B1%86%E6%96%87%E5%BA%93&sign_type=RSA2&sign=ab%2Bc%2F%3D%3D';
    const res = await send(`${gw.url}/api/v1/pay/notify/alipay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8', 'user-agent': 'Mozilla/4.0' },
      body,
    });
    expect(res.status).toBe(200);
    expect(res.text).toBe('success');
    const received = stub.requests.at(-1)!;
    expect(received.method).toBe('POST');
    expect(received.url).toBe('/api/v1/pay/notify/alipay');
    expect(received.body.toString('utf8')).toBe(body);
    expect(received.headers['content-type']).toBe('application/x-www-form-urlencoded; charset=utf-8');
  });

  it('pass a WeChat Pay notification through with its Wechatpay-* signature headers and answer 204', async () => {
    const body =
      '{"id":"EV-2018022511223320873","create_time":"2015-05-20T13:29:35+08:00","resource_type":"encrypt-resource",' +
      '"event_type":"TRANSACTION.SUCCESS","summary":"支付成功","resource":{"original_type":"transaction","algorithm":"AEAD_AES_256_GCM",' +
      '"ciphertext":"c2lnbmVk","associated_data":"transaction","nonce":"fdasflkja484w"}}';
    const signatureHeaders = {
      'wechatpay-timestamp': '1554208460',
      'wechatpay-nonce': '593BEC0C930BF1AFEB40B4A08C8FB242',
      'wechatpay-signature':
        'uOVRnA4qG/MNnYzdQxJanN+zU+lTgIcnU9BxGw5dKjK+VdEUz2FeIoC+D5sB/LN+nGzX3hfZg6r5wT1pl2ZobmIc6p0ldN7J6yDgUzbX8Uk3sD4a4eZVPTBvqNDoUqcYMlZ9uuDdCvNv4TM3c1WzsXUrExwVkI1XO5jCNbgDJ25nkT/c1gIFvqoogl7MdSFGc4W4xZsqCItnqbypR3RuGIlR9h9vlRsy7zJR9PBI83X8alLDIfR1ukt1P7tMnmogZ0cuDY8cZsd8ZlCgLadmvej58SLsIkVxFJ8XyUgx9FmutKSYTmYtWBZ0+tNvfGmbXU7cob8H/4nLBiCwIUFluw==',
      'wechatpay-serial': 'PUB_KEY_ID_0114232134912410000000000000',
      'wechatpay-signature-type': 'WECHATPAY2-SHA256-RSA2048',
    };
    const res = await send(`${gw.url}/api/v1/pay/notify/wechat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signatureHeaders },
      body,
    });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const received = stub.requests.at(-1)!;
    expect(received.url).toBe('/api/v1/pay/notify/wechat');
    expect(received.body.toString('utf8')).toBe(body);
    for (const [name, value] of Object.entries(signatureHeaders)) expect(received.headers[name], name).toBe(value);
  });

  it('are not refused for a cross-site origin: the providers are other sites by nature', async () => {
    const res = await send(`${gw.url}/api/v1/pay/notify/alipay`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://openapi.alipay.com',
        'sec-fetch-site': 'cross-site',
      },
      body: 'out_trade_no=1&sign=x',
    });
    expect(res.status).toBe(200);
    expect(stub.requests.at(-1)!.body.toString('utf8')).toBe('out_trade_no=1&sign=x');
  });
});
