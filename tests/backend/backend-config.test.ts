import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadBackendConfig } from '../../backend/config';

describe('loadBackendConfig', () => {
  it('has defaults for everything', () => {
    const config = loadBackendConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8880,
      dataDir: path.resolve('data'),
      logLevel: 'info',
      configPresets: {},
      jwtExpireDays: 365,
    });
    expect(config.jwtSecret).toBeUndefined();
    expect(config.adminPassword).toBeUndefined();
  });

  it("converts documents with every core but one, two at a time, within the admin's time limit, unless CONVERT_* say otherwise", () => {
    const cores = os.availableParallelism();
    expect(loadBackendConfig({}).convert).toEqual({
      workers: Math.max(1, cores - 1),
      jobs: 2,
      timeoutMs: null,
      pageTimeoutMs: 60_000,
      maxPages: 10_000,
      nice: 10,
    });
    expect(
      loadBackendConfig({
        CONVERT_WORKERS: '3',
        CONVERT_JOBS: '1',
        CONVERT_TIMEOUT_MS: '60000',
        CONVERT_PAGE_TIMEOUT_MS: '20000',
        CONVERT_MAX_PAGES: '500',
        CONVERT_NICE: '0',
        LIBREOFFICE_PATH: '/opt/libreoffice7.6/program',
        CALIBRE_PATH: 'off',
      }).convert,
    ).toEqual({
      workers: 3,
      jobs: 1,
      timeoutMs: 60_000,
      pageTimeoutMs: 20_000,
      maxPages: 500,
      nice: 0,
      libreofficePath: '/opt/libreoffice7.6/program',
      calibrePath: null,
    });
  });

  it('leases jobs for 30 s and looks for due ones every second, unless JOB_* say otherwise', () => {
    expect(loadBackendConfig({}).jobs).toEqual({ leaseMs: 30_000, pollIntervalMs: 1000 });
    expect(loadBackendConfig({ JOB_LEASE_MS: '5000', JOB_POLL_MS: '50' }).jobs).toEqual({
      leaseMs: 5000,
      pollIntervalMs: 50,
    });
  });

  it.each([
    ['JOB_LEASE_MS', '999', 'JOB_LEASE_MS must be an integer between 1000 and 3600000, got "999"'],
    ['JOB_POLL_MS', 'soon', 'JOB_POLL_MS must be an integer between 10 and 60000, got "soon"'],
    ['CONVERT_WORKERS', '0', 'CONVERT_WORKERS must be an integer between 1 and 64, got "0"'],
    ['CONVERT_JOBS', 'two', 'CONVERT_JOBS must be an integer between 1 and 16, got "two"'],
    ['CONVERT_TIMEOUT_MS', '10', 'CONVERT_TIMEOUT_MS must be an integer between 1000 and 86400000, got "10"'],
    [
      'CONVERT_PAGE_TIMEOUT_MS',
      '500',
      'CONVERT_PAGE_TIMEOUT_MS must be an integer between 1000 and 3600000, got "500"',
    ],
    ['CONVERT_MAX_PAGES', '-5', 'CONVERT_MAX_PAGES must be an integer between 1 and 100000, got "-5"'],
    ['CONVERT_NICE', '20', 'CONVERT_NICE must be an integer between 0 and 19, got "20"'],
  ])('refuses %s=%s', (variable, value, message) => {
    expect(() => loadBackendConfig({ [variable]: value })).toThrow(new ConfigError(message));
  });

  it('keeps the files under DATA_DIR without S3_BUCKET, and in the bucket S3_* describe with it', () => {
    expect(loadBackendConfig({}).s3).toBeUndefined();
    expect(loadBackendConfig({ S3_BUCKET: 'docs' }).s3).toEqual({
      bucket: 'docs',
      region: 'us-east-1',
      forcePathStyle: false,
      prefix: '',
      presignedSeconds: 0,
    });
    expect(
      loadBackendConfig({
        S3_BUCKET: 'docs',
        S3_ENDPOINT: 'http://127.0.0.1:9000/',
        S3_REGION: 'cn-north-1',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: 'true',
        S3_PREFIX: '/sites/moredoc/',
        S3_PRESIGNED_DOWNLOADS: '1',
      }).s3,
    ).toEqual({
      bucket: 'docs',
      endpoint: 'http://127.0.0.1:9000',
      region: 'cn-north-1',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      forcePathStyle: true,
      prefix: 'sites/moredoc/',
      presignedSeconds: 300,
    });
    // The cache of small blobs read from the bucket: 32 MiB unless S3_CACHE_MB says otherwise (0 = none).
    expect(loadBackendConfig({}).s3CacheBytes).toBeUndefined();
    expect(loadBackendConfig({ S3_BUCKET: 'docs' }).s3CacheBytes).toBe(32 * 1024 * 1024);
    expect(loadBackendConfig({ S3_BUCKET: 'docs', S3_CACHE_MB: '0' }).s3CacheBytes).toBe(0);
  });

  it.each([
    [
      { S3_ENDPOINT: 'http://127.0.0.1:9000' },
      'S3_BUCKET must be set when S3_ENDPOINT is (without S3_BUCKET the files stay under DATA_DIR)',
    ],
    [{ S3_BUCKET: 'a/b' }, 'S3_BUCKET must be a bucket name (letters, digits, dots, hyphens), got "a/b"'],
    [
      { S3_BUCKET: 'docs', S3_ENDPOINT: 'minio:9000' },
      'S3_ENDPOINT must be an http(s) URL without query, fragment or credentials, e.g. http://127.0.0.1:9000, got "minio:9000"',
    ],
    [
      { S3_BUCKET: 'docs', S3_ACCESS_KEY_ID: 'id' },
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither to use the AWS_* variables or the instance role',
    ],
    [
      { S3_BUCKET: 'docs', S3_PREFIX: 'a/../b' },
      'S3_PREFIX must be a folder name like moredoc or sites/docs (no empty, . or .. segment), got "a/../b"',
    ],
    [{ S3_BUCKET: 'docs', S3_FORCE_PATH_STYLE: 'yes' }, 'S3_FORCE_PATH_STYLE must be true or false, got "yes"'],
    [
      { S3_BUCKET: 'docs', S3_REGION: 'us east' },
      'S3_REGION must be a region name like us-east-1 or cn-north-1, got "us east"',
    ],
    [
      { S3_CACHE_MB: '64' },
      'S3_BUCKET must be set when S3_CACHE_MB is (without S3_BUCKET the files stay under DATA_DIR)',
    ],
    [{ S3_BUCKET: 'docs', S3_CACHE_MB: '-1' }, 'S3_CACHE_MB must be an integer between 0 and 4096, got "-1"'],
  ])('refuses the S3 settings %j', (env, message) => {
    expect(() => loadBackendConfig(env)).toThrow(new ConfigError(message));
  });

  it('runs jobs with a 30 s lease unless RUN_JOBS=false (a web instance) or JOB_LEASE_MS say otherwise', () => {
    expect(loadBackendConfig({})).toMatchObject({ runJobs: true, jobs: { leaseMs: 30_000 } });
    expect(loadBackendConfig({ RUN_JOBS: 'false', JOB_LEASE_MS: '2000' })).toMatchObject({
      runJobs: false,
      jobs: { leaseMs: 2000 },
    });
    expect(loadBackendConfig({ RUN_JOBS: ' true ' }).runJobs).toBe(true);
    expect(() => loadBackendConfig({ RUN_JOBS: 'no' })).toThrow(
      new ConfigError('RUN_JOBS must be true or false, got "no"'),
    );
    expect(() => loadBackendConfig({ JOB_LEASE_MS: '500' })).toThrow(
      new ConfigError('JOB_LEASE_MS must be an integer between 1000 and 3600000, got "500"'),
    );
  });

  it('times a stalled request body out after 30 s unless BODY_TIMEOUT_MS says otherwise', () => {
    expect(loadBackendConfig({}).bodyTimeoutMs).toBe(30_000);
    expect(loadBackendConfig({ BODY_TIMEOUT_MS: '5000' }).bodyTimeoutMs).toBe(5000);
    expect(() => loadBackendConfig({ BODY_TIMEOUT_MS: '0' })).toThrow(
      new ConfigError('BODY_TIMEOUT_MS must be an integer between 1 and 3600000, got "0"'),
    );
  });

  it('tries a start whose PostgreSQL or bucket is away again after 1 s first unless START_RETRY_MS says otherwise', () => {
    expect(loadBackendConfig({}).startRetryMs).toBe(1000);
    expect(loadBackendConfig({ START_RETRY_MS: '100' }).startRetryMs).toBe(100);
    expect(() => loadBackendConfig({ START_RETRY_MS: '5' })).toThrow(
      new ConfigError('START_RETRY_MS must be an integer between 10 and 60000, got "5"'),
    );
  });

  it('counts an IPv6 client by its /64 unless CLIENT_IPV6_PREFIX says a prefix from 32 to 64 bits', () => {
    expect(loadBackendConfig({}).ipv6Prefix).toBe(64);
    expect(loadBackendConfig({ CLIENT_IPV6_PREFIX: ' 48 ' }).ipv6Prefix).toBe(48);
    expect(loadBackendConfig({ CLIENT_IPV6_PREFIX: '32' }).ipv6Prefix).toBe(32);
    for (const value of ['31', '65', '128', '/56', '56.5'])
      expect(() => loadBackendConfig({ CLIENT_IPV6_PREFIX: value })).toThrow(
        new ConfigError(`CLIENT_IPV6_PREFIX must be an integer between 32 and 64, got "${value}"`),
      );
  });

  it('believes no proxy unless BACKEND_TRUST_PROXY names them', () => {
    expect(loadBackendConfig({}).trustProxy).toBe(false);
    expect(loadBackendConfig({ BACKEND_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadBackendConfig({ BACKEND_TRUST_PROXY: ' 10.0.0.0/8, 127.0.0.1,::1 ' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
    ]);
    expect(() => loadBackendConfig({ BACKEND_TRUST_PROXY: '2' })).toThrow(
      /^BACKEND_TRUST_PROXY must be true, false or a comma-separated list.*got "2"$/,
    );
    expect(() => loadBackendConfig({ BACKEND_TRUST_PROXY: '10.0.0.0/33' })).toThrow(ConfigError);
  });

  it('reads CONFIG_<CATEGORY>_<KEY> presets', () => {
    const config = loadBackendConfig({
      CONFIG_SECURITY_ENABLE_CAPTCHA_LOGIN: 'false',
      CONFIG_SYSTEM_SITENAME: '我的文库',
      CONFIG_OAUTH_WECHAT: 'true',
      CONFIG_VIP_TIMES_EVERY_DAY: '5',
    });
    expect(config.configPresets).toEqual({
      security: { enable_captcha_login: 'false' },
      system: { sitename: '我的文库' },
      oauth: { wechat: 'true' },
      vip: { times_every_day: '5' },
    });
  });

  it('points social sign-in at the real WeChat and QQ hosts unless OAUTH_* say otherwise', () => {
    expect(loadBackendConfig({}).oauth).toEqual({
      wechat: { authorizeUrl: 'https://open.weixin.qq.com', apiUrl: 'https://api.weixin.qq.com' },
      qq: { authorizeUrl: 'https://graph.qq.com', apiUrl: 'https://graph.qq.com' },
      timeoutMs: 10000,
    });
    const config = loadBackendConfig({
      OAUTH_WECHAT_AUTHORIZE_URL: 'http://127.0.0.1:9000/wechat/',
      OAUTH_WECHAT_API_URL: 'https://egress.internal/weixin-api//',
      OAUTH_QQ_AUTHORIZE_URL: ' https://qq.example.com ',
      OAUTH_QQ_API_URL: 'https://egress.internal/qq',
      OAUTH_TIMEOUT_MS: '2500',
    });
    expect(config.oauth).toEqual({
      wechat: { authorizeUrl: 'http://127.0.0.1:9000/wechat', apiUrl: 'https://egress.internal/weixin-api' },
      qq: { authorizeUrl: 'https://qq.example.com', apiUrl: 'https://egress.internal/qq' },
      timeoutMs: 2500,
    });
  });

  it('points the SMS providers at the real Alibaba and Tencent hosts unless SMS_* say otherwise', () => {
    expect(loadBackendConfig({}).sms).toEqual({
      aliyun: 'https://dysmsapi.aliyuncs.com',
      tencent: 'https://sms.tencentcloudapi.com',
      timeoutMs: 10000,
    });
    const config = loadBackendConfig({
      SMS_ALIYUN_ENDPOINT: 'http://127.0.0.1:9000/',
      SMS_TENCENT_ENDPOINT: ' https://sms.egress.internal ',
      SMS_TIMEOUT_MS: '3000',
    });
    expect(config.sms).toEqual({
      aliyun: 'http://127.0.0.1:9000',
      tencent: 'https://sms.egress.internal',
      timeoutMs: 3000,
    });
  });

  it.each([
    [{ SMS_ALIYUN_ENDPOINT: 'dysmsapi.aliyuncs.com' }, /SMS_ALIYUN_ENDPOINT must be an http\(s\) origin/],
    [{ SMS_ALIYUN_ENDPOINT: 'https://egress.internal/aliyun' }, /SMS_ALIYUN_ENDPOINT/],
    [{ SMS_TENCENT_ENDPOINT: 'https://key:secret@sms.tencentcloudapi.com' }, /SMS_TENCENT_ENDPOINT/],
    [{ SMS_TENCENT_ENDPOINT: 'https://sms.tencentcloudapi.com/?x=1' }, /SMS_TENCENT_ENDPOINT/],
    [{ SMS_TIMEOUT_MS: '99' }, /SMS_TIMEOUT_MS/],
    [{ BACKEND_PORT: 'http' }, /BACKEND_PORT/],
    [{ OAUTH_WECHAT_API_URL: 'api.weixin.qq.com' }, /OAUTH_WECHAT_API_URL must be an http\(s\) URL/],
    [{ OAUTH_QQ_API_URL: 'ftp://graph.qq.com' }, /OAUTH_QQ_API_URL/],
    [{ OAUTH_QQ_AUTHORIZE_URL: 'https://graph.qq.com/?x=1' }, /OAUTH_QQ_AUTHORIZE_URL/],
    [{ OAUTH_WECHAT_AUTHORIZE_URL: 'https://user:pw@open.weixin.qq.com' }, /OAUTH_WECHAT_AUTHORIZE_URL/],
    [{ OAUTH_TIMEOUT_MS: '50' }, /OAUTH_TIMEOUT_MS/],
    [{ OAUTH_TIMEOUT_MS: 'soon' }, /OAUTH_TIMEOUT_MS/],
    [{ BACKEND_PORT: '70000' }, /BACKEND_PORT/],
    [{ JWT_SECRET: 'short' }, /JWT_SECRET/],
    [{ JWT_SECRET: 'moredoc' }, /JWT_SECRET/],
    [{ ADMIN_PASSWORD: '123' }, /ADMIN_PASSWORD/],
    // The login refuses a password past 128 characters: such an admin could never sign in.
    [{ ADMIN_PASSWORD: '密'.repeat(129) }, 'ADMIN_PASSWORD must be 6 to 128 characters long, as the login takes them'],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ JWT_EXPIRE_DAYS: '0' }, /JWT_EXPIRE_DAYS/],
    [{ CONFIG_SECURITY_NO_SUCH_KEY: 'x' }, /CONFIG_SECURITY_NO_SUCH_KEY/],
    [{ CONFIG_SECURITY_ENABLE_REGISTER: 'yes' }, /true or false/],
    [{ CONFIG_SECURITY_MAX_DOCUMENT_SIZE: 'big' }, /integer/],
    [
      { CONFIG_EMAIL_PORT: '70000' },
      'CONFIG_EMAIL_PORT is refused: SMTP 服务器端口必须在 1 到 65535 之间, got "70000"',
    ],
    [
      { CONFIG_FOOTER_ABOUT: 'javascript:alert(1)' },
      /CONFIG_FOOTER_ABOUT is refused: 关于我们必须是 http:\/\/ 或 https:\/\/ 开头的网址/,
    ],
  ])('refuses %j with a clear message', (env, message) => {
    expect(() => loadBackendConfig(env)).toThrow(ConfigError);
    expect(() => loadBackendConfig(env)).toThrow(message);
  });
});

describe('DATABASE_URL', () => {
  it('is SQLite in DATA_DIR when unset, whatever the pool size says', () => {
    expect(loadBackendConfig({}).database).toBeNull();
    expect(loadBackendConfig({ DATABASE_URL: ' ', DATABASE_POOL_SIZE: '5' }).database).toBeNull();
  });

  it('takes postgres:// and postgresql:// URLs with their query, a pool of 10 unless DATABASE_POOL_SIZE says otherwise', () => {
    expect(
      loadBackendConfig({ DATABASE_URL: 'postgres://moredoc:s3cret@db.internal:5433/moredoc?sslmode=verify-full' })
        .database,
    ).toEqual({
      url: 'postgres://moredoc:s3cret@db.internal:5433/moredoc?sslmode=verify-full',
      label: 'postgres://moredoc:***@db.internal:5433/moredoc?sslmode=verify-full',
      poolSize: 10,
    });
    expect(
      loadBackendConfig({
        DATABASE_URL: 'postgresql://moredoc@localhost/moredoc?sslmode=disable',
        DATABASE_POOL_SIZE: '25',
      }).database,
    ).toMatchObject({ label: 'postgresql://moredoc@localhost/moredoc?sslmode=disable', poolSize: 25 });
    // A Unix socket: the host is a query parameter.
    expect(
      loadBackendConfig({ DATABASE_URL: 'postgres://moredoc:s3cret@/moredoc?host=/var/run/postgresql' }).database,
    ).toMatchObject({ label: 'postgres://moredoc:***@/moredoc?host=/var/run/postgresql', poolSize: 10 });
  });

  it.each([
    [
      { DATABASE_URL: 'mysql://root:hunter2@db/moredoc' },
      'DATABASE_URL must be a PostgreSQL URL like postgres://user:password@host:5432/database (the value given is not shown: it may hold a password)',
    ],
    [{ DATABASE_URL: 'moredoc:hunter2@db/moredoc' }, /DATABASE_URL must be a PostgreSQL URL/],
    [
      { DATABASE_URL: 'postgres://moredoc:hunter2@db.internal' },
      'DATABASE_URL names no database, e.g. postgres://user:password@host:5432/database, got "postgres://moredoc:***@db.internal"',
    ],
    [
      { DATABASE_URL: 'postgres://moredoc:hunter2@db.internal/moredoc?sslmode=bogus' },
      'DATABASE_URL has sslmode=bogus, which is none of disable, prefer, require, verify-ca, verify-full, no-verify',
    ],
    [
      { DATABASE_URL: 'postgres://moredoc:hunter2@db.internal/moredoc', DATABASE_POOL_SIZE: '0' },
      'DATABASE_POOL_SIZE must be an integer between 1 and 1000, got "0"',
    ],
  ])('refuses %j without showing the password', (env, message) => {
    expect(() => loadBackendConfig(env)).toThrow(ConfigError);
    expect(() => loadBackendConfig(env)).toThrow(message);
    expect(() => loadBackendConfig(env)).not.toThrow(/hunter2/);
  });
});
