import { DEFAULT_CREDIT_NAME, DOCUMENT_EXTENSIONS } from '../../../shared/constants';

// Every configuration key the backend knows: MOREDOC's 95 keys (docs/moredoc.md §10)
// plus our own categories `pay`, `vip`, `oauth` and `sms` (docs/api.md). The seed inserts missing
// rows with `value` and refreshes the metadata of existing rows, never their value.

export type ConfigInputType =
  'text' | 'textarea' | 'number' | 'switch' | 'select' | 'select-multi' | 'password' | 'image';

export interface ConfigKeyDef {
  category: string;
  name: string;
  label: string;
  value: string;
  input_type: ConfigInputType;
  sort: number;
  col_num?: number;
  options?: string;
  placeholder?: string;
  is_secret?: boolean;
  /** Values an earlier version seeded and no admin would choose: the seed replaces them with today's default. */
  retired?: readonly string[];
}

/** The help of a MOREDOC converter key our converter does not read. */
const UNUSED = '此项为兼容 MOREDOC 保留，不影响转换';

const CLOSE_STATEMENT = [
  '<div>尊敬的用户，您好：</div>',
  // MOREDOC's notice names a time long past (2024-10-24 06:00:00); a fresh site's says none.
  '<div>为了给您提供更好的服务，本站正在进行系统升级维护，<span style="color: red;">将尽快恢复访问</span>。</div>',
  '<div>维护期间普通用户暂时无法访问本站，由此给您带来的不便，敬请谅解。</div>',
  '<div>感谢您的理解与支持！</div>',
].join('\n');

type Row = [
  name: string,
  label: string,
  value: string,
  input_type: ConfigInputType,
  sort: number,
  col_num?: number,
  extra?: Partial<ConfigKeyDef>,
];

function category(name: string, rows: Row[]): ConfigKeyDef[] {
  return rows.map(([key, label, value, input_type, sort, col_num, extra]) => ({
    category: name,
    name: key,
    label,
    value,
    input_type,
    sort,
    col_num: col_num ?? 24,
    ...extra,
  }));
}

/**
 * MOREDOC's seed of the home page's title, keywords and description: its own brand, which a new
 * site shows to visitors and search engines until the admin writes its own (the 建站清单 says so).
 */
export const SEEDED_HOME_TEXT = 'MOREDOC · 魔豆文库';

export const CONFIG_KEYS: readonly ConfigKeyDef[] = [
  ...category('system', [
    ['sitename', '网站名称', '魔豆文库', 'text', 10],
    // MOREDOC seeds its own demo site's address here, so a fresh install's reset mails, sitemaps
    // and payment callbacks pointed at that site; ours starts empty (or PUBLIC_ORIGIN, config.ts)
    // and each feature that needs it says so.
    [
      'domain',
      '【重要】网站域名',
      '',
      'text',
      11,
      24,
      {
        placeholder:
          '例如 https://docs.example.com，包含 http:// 或 https://；用于站点地图、找回密码邮件、第三方登录与在线支付的回调地址',
        retired: ['https://moredoc.mnt.ltd'],
      },
    ],
    ['title', '首页标题', SEEDED_HOME_TEXT, 'text', 20],
    ['keywords', '网站关键字', SEEDED_HOME_TEXT, 'text', 30],
    ['description', '网站描述', SEEDED_HOME_TEXT, 'textarea', 40],
    ['recommend_words', '首页搜索推荐词', '', 'text', 50, 24, { placeholder: '多个推荐词用逗号分隔' }],
    ['logo', '网站Logo', '', 'image', 60, 12],
    ['favicon', '网站Favicon', '', 'image', 61, 12],
    ['register_background', '注册页背景图', '', 'image', 62, 12],
    ['login_background', '登录页背景图', '', 'image', 63, 12],
    ['sec_icp', '公网安备', '', 'text', 68, 12],
    ['icp', '网站备案号', '', 'text', 69, 12],
    ['copyright_start_year', '版权起始年', '2019', 'text', 80],
    [
      'analytics',
      '网站统计代码',
      '',
      'textarea',
      90,
      24,
      {
        placeholder:
          '粘贴统计平台提供的代码，例如百度统计的 <script>…</script>；运行其中 <script> 内的代码，它加载的统计脚本须来自代码中写明的域名',
      },
    ],
  ]),
  ...category('captcha', [
    ['height', '验证码高度', '60', 'number', 13],
    ['width', '验证码宽度', '240', 'number', 14],
    ['length', '验证码长度', '5', 'number', 15],
    ['type', '验证码类型', 'digit', 'select', 16, 24, { options: 'string:字符串\nmath:算术\ndigit:数字\naudio:语音' }],
  ]),
  ...category('security', [
    ['max_document_size', '最大文档大小(MB)', '50', 'number', 1],
    [
      'comment_interval',
      '评论时间间隔',
      '10',
      'number',
      2,
      24,
      { placeholder: '两次评论之间的最小间隔（秒），0 表示不限制' },
    ],
    [
      'document_related_duration',
      '文档的【相关文档】有效期',
      '7',
      'number',
      15,
      24,
      { placeholder: '单位：天。文档的相关文档列表算出后保留的天数，到期重新计算；0 表示不显示相关文档' },
    ],
    [
      'attachment_retention_minute',
      '从回收站清除的文档文件保留时长',
      '1440',
      'number',
      16,
      24,
      { placeholder: '单位：分钟。文档从回收站清除后，其文件再保留多久才删除（1440 分钟即 1 天）；0 表示立即删除' },
    ],
    ['search_record_retention_days', '搜索记录保留天数', '7', 'number', 17, 12],
    [
      'document_allowed_ext',
      '允许上传的文档类型',
      '',
      'select-multi',
      17,
      12,
      { options: DOCUMENT_EXTENSIONS.map((ext) => `.${ext}`).join('\n'), placeholder: '不选则允许上传所有支持的格式' },
    ],
    ['is_close', '是否关闭网站', 'false', 'switch', 160, 8],
    ['close_statement', '闭站说明', CLOSE_STATEMENT, 'textarea', 170],
    ['enable_register', '是否允许注册', 'true', 'switch', 18, 8],
    ['login_required', '是否登录才能访问', 'false', 'switch', 18, 8],
    ['enable_captcha_login', '是否开启登录验证码', 'true', 'switch', 19, 8],
    ['enable_captcha_register', '是否开启注册验证码', 'true', 'switch', 20, 8],
    ['enable_captcha_comment', '是否开启评论验证码', 'true', 'switch', 21, 8],
    ['enable_captcha_find_password', '是否开启找回密码验证码', 'true', 'switch', 22, 8],
    ['enable_captcha_feedback', '是否开启游客意见反馈验证码', 'true', 'switch', 23, 8],
    ['enable_verify_register_email', '是否开启注册邮箱验证', 'false', 'switch', 50, 8],
    // Ours (docs/api.md): the image captcha before an SMS code is sent.
    ['enable_captcha_sms', '是否开启短信验证码的图片验证码', 'true', 'switch', 23, 8],
  ]),
  // The footer's pages as `/article/<identifier>`, which MOREDOC's web client routes and ours
  // opens too; the `/article/detail/<identifier>` an earlier version seeded (ours only) is
  // replaced where an admin left it.
  ...category(
    'footer',
    (
      [
        ['about', '关于我们', 24],
        ['contact', '联系我们', 25],
        ['agreement', '文库协议', 26],
        ['privacy', '隐私政策', 27],
        ['copyright', '免责声明', 28],
        ['feedback', '意见反馈', 29],
      ] as const
    ).map(([name, label, sort]): Row => [
      name,
      label,
      `/article/${name}`,
      'text',
      sort,
      24,
      { retired: [`/article/detail/${name}`] },
    ]),
  ),
  ...category('converter', [
    ['max_preview_percent', '最大预览页数百分比', '100', 'number', -1],
    ['max_preview', '最大预览页数', '12', 'number', 0, 12],
    ['timeout', '转换超时(分钟)', '30', 'number', 20, 12],
    // Kept for MOREDOC's admin, unused by our converter (docs/api.md): the help says so.
    [
      'extension',
      '预览格式',
      'webp',
      'select',
      30,
      12,
      {
        options: 'svg:SVG\njpg:JPEG\npng:PNG\nwebp:WEBP',
        placeholder: `本站逐页选择：SVG（文字与矢量，放大不失真），或更小时为 WebP 图片（如扫描页）。${UNUSED}`,
      },
    ],
    ['enable_convert_repeated_document', '是否转换重复文档', 'false', 'switch', 31, 12],
    [
      'enable_gzip',
      '是否启用GZIP压缩',
      'true',
      'switch',
      40,
      24,
      { placeholder: `SVG 页面总以 gzip 压缩存储。${UNUSED}` },
    ],
    [
      'enable_svgo',
      '是否启用SVGO',
      'false',
      'switch',
      50,
      24,
      { placeholder: `转换时已输出精简的 SVG（字形按字体精度取整），无需 SVGO。${UNUSED}` },
    ],
  ]),
  ...category('download', [
    ['enable_guest_download', '是否允许游客下载', 'false', 'switch', 10, 12],
    ['free_download_duration', '购买文档后多少天内允许免费重复下载', '0', 'number', 20, 12],
    ['url_duration', '下载链接有效时长(秒)', '60', 'number', 30, 12],
    ['times_every_day', '允许登录用户每天下载次数', '10', 'number', 40, 12],
    [
      'times_every_ip',
      '允许每个IP每天下载次数',
      '10',
      'number',
      41,
      12,
      // As shared/address-key.ts counts: an IPv6 subscriber by the prefix of CLIENT_IPV6_PREFIX (a /64 by default).
      {
        placeholder:
          'IPv4 按单个地址计数；IPv6 按所在网段计数（默认 /64，由运维设置 CLIENT_IPV6_PREFIX），同一网段的地址共用次数；0 表示禁止所有下载',
      },
    ],
    ['secret_key', '链接签名密钥', 'moredoc', 'text', 50, 12],
  ]),
  ...category('score', [
    ['credit_name', '积分名称', DEFAULT_CREDIT_NAME, 'text', 1, 8],
    ['register', '注册', '10', 'number', 10, 8],
    ['sign_in', '签到', '1', 'number', 20, 8],
    ['delete_document', '删除文档', '1', 'number', 25, 8],
    ['upload_document', '上传文档', '5', 'number', 30, 8],
    ['upload_document_limit', '每日上传文档奖励次数', '1', 'number', 40, 16],
    ['document_collected', '文档被收藏', '1', 'number', 50, 8],
    ['document_collected_limit', '每日文档被收藏奖励次数', '1', 'number', 60, 16],
    ['document_commented', '文档被评论', '1', 'number', 70, 8],
    ['document_commented_limit', '每日文档被评论奖励次数', '1', 'number', 80, 16],
  ]),
  ...category('email', [
    ['enable', '是否启用邮件服务', 'false', 'switch', 10],
    ['host', 'SMTP 服务器地址', '', 'text', 20],
    ['port', 'SMTP 服务器端口', '465', 'number', 30],
    ['is_tls', '是否启用TLS', 'true', 'switch', 40],
    ['from_name', '发件人名称', '', 'text', 50],
    ['username', 'SMTP 账号', '', 'text', 60],
    ['password', 'SMTP 密码', '', 'password', 70, 24, { is_secret: true }],
    ['duration', '邮件有效期', '30', 'number', 80, 24, { placeholder: '找回密码链接的有效期（分钟），1 到 60' }],
    ['secret', '签名密钥', 'moredoc', 'text', 80],
    ['test_email', '测试邮箱', '', 'text', 90, 24, { placeholder: '保存邮箱配置时向该地址发送一封测试邮件' }],
  ]),
  ...category('display', [
    ['show_document_count', '是否显示文档数', 'true', 'switch', 0, 8],
    ['show_document_download_count', '是否显示文档下载数', 'true', 'switch', 1, 8],
    ['show_document_view_count', '是否显示文档浏览数', 'true', 'switch', 2, 8],
    ['show_document_favorite_count', '是否显示文档收藏数', 'true', 'switch', 3, 8],
    ['show_register_user_count', '是否显示注册用户数', 'true', 'switch', 10, 8],
    ['virtual_register_count', '网站虚拟注册用户数', '0', 'number', 20],
    ['show_document_descriptions', '是否显示文档摘要', 'true', 'switch', 21, 8],
    ['show_index_categories', '是否显示横栏分类', 'true', 'switch', 30, 8],
    ['index_document_style', '首页文档展示方式', 'card', 'select', 31, 8, { options: 'card:卡片\nlist:列表' }],
    ['home_version', '首页版本', 'v1', 'select', 31, 8, { options: 'v1:V1版\nv2:V2版' }],
    ['pages_per_read', '文档【继续阅读】的页数', '5', 'number', 40, 8],
    // Ours (docs/api.md §2): who may select and copy a document's text in the reader.
    [
      'copy_text',
      '阅读器中复制文字',
      'all',
      'select',
      45,
      8,
      { options: 'all:所有访客\nmember:登录会员\nvip:VIP 会员\nnone:禁止复制' },
    ],
    ['max_search_pages', '文档搜索结果最大页数', '100', 'number', 50, 8],
    [
      'copyright_statement',
      '版权声明',
      '本站文档数据由用户上传，仅供学习交流，如侵犯您的权益，请联系我们进行删除。',
      'textarea',
      60,
    ],
    ['hide_keywords_on_lists', '隐藏关键字', 'false', 'switch', 70, 8],
    ['hide_category_without_document', '隐藏无文档分类', 'false', 'switch', 80, 16],
    ['wechat_tip', '微信/微信公众号提示文案', '我们的公众号同样精彩', 'text', 100],
    ['wechat_qrcode', '微信/微信公众号二维码', '', 'image', 110],
    ['contact_tip', '联系我们提示文案', '联系我们，反馈您的意见与建议', 'text', 120],
    ['contact_link', '联系我们跳转链接', '', 'text', 130],
  ]),
  ...category('release', [
    [
      'source',
      '版本检测来源',
      'auto',
      'select',
      10,
      24,
      { options: 'none:不检测\nauto:自动检测\ngitee:Gitee\ngithub:GitHub' },
    ],
    ['tag_name', '最新版版本号', '', 'text', 20],
    ['name', '版本发布名称', '', 'text', 30],
    ['body', '版本发布说明', '', 'textarea', 40],
    ['ignore', '忽略版本提示', '', 'text', 50],
    // Ours: the footer pages the seed has created once (article/seed.ts), which it never creates
    // again, so a page the owner deleted for good stays deleted. Kept here, with what a release
    // did, where no admin writes.
    ['seeded_pages', '已创建的默认单页', '', 'text', 60],
  ]),
  // Ours (docs/api.md §1): paying for VIP orders. Secrets stay server-side (is_secret).
  ...category('pay', [
    ['enable', '是否启用支付', 'false', 'switch', 10, 8],
    [
      'provider',
      '支付方式',
      'alipay,wechat',
      'select-multi',
      20,
      16,
      {
        options: 'alipay:支付宝\nwechat:微信支付\nmanual:线下转账（管理员确认）',
        placeholder: '结算页提供已选且已配置的方式',
      },
    ],
    ['order_timeout', '订单支付超时（分钟）', '30', 'number', 30, 8],
    ['sandbox', '支付宝沙箱环境', 'false', 'switch', 40, 8],
    ['alipay_app_id', '支付宝 AppID', '', 'text', 50, 16],
    [
      'alipay_private_key',
      '支付宝应用私钥',
      '',
      'password',
      60,
      24,
      { is_secret: true, placeholder: 'RSA2 应用私钥（PKCS#1 或 PKCS#8，可带或不带 PEM 首尾行）' },
    ],
    [
      'alipay_public_key',
      '支付宝公钥',
      '',
      'textarea',
      70,
      24,
      { placeholder: '开放平台“接口加签方式”中的支付宝公钥（不是应用公钥）' },
    ],
    ['wechat_app_id', '微信支付 AppID', '', 'text', 80, 8, { placeholder: '与商户号绑定的公众号或开放平台应用' }],
    ['wechat_mch_id', '微信支付商户号', '', 'text', 90, 8],
    ['wechat_serial_no', '商户 API 证书序列号', '', 'text', 100, 8],
    [
      'wechat_private_key',
      '商户 API 私钥',
      '',
      'password',
      110,
      24,
      { is_secret: true, placeholder: 'apiclient_key.pem 的内容' },
    ],
    ['wechat_api_v3_key', 'APIv3 密钥', '', 'password', 120, 8, { is_secret: true, placeholder: '32 个字符' }],
    [
      'wechat_public_key_id',
      '微信支付公钥 ID',
      '',
      'text',
      130,
      16,
      { placeholder: 'PUB_KEY_ID_… 或平台证书序列号；使用平台证书时可留空' },
    ],
    [
      'wechat_public_key',
      '微信支付公钥或平台证书',
      '',
      'textarea',
      140,
      24,
      {
        placeholder: 'PEM 格式：-----BEGIN PUBLIC KEY-----（微信支付公钥）或 -----BEGIN CERTIFICATE-----（平台证书）',
      },
    ],
    [
      'manual_instructions',
      '线下转账说明',
      '',
      'textarea',
      150,
      24,
      { placeholder: '收款账户、户名，以及“转账备注请填写订单号”等；会员下单后看到这段说明' },
    ],
    [
      'manual_timeout',
      '线下转账有效期（天）',
      '3',
      'number',
      155,
      8,
      { placeholder: '选择线下转账的订单自下单起保留的天数，逾期未确认收款则关闭' },
    ],
    [
      'notify_url',
      '支付通知地址',
      '',
      'text',
      160,
      24,
      { placeholder: '留空则使用网站域名；通知发往 <此地址>/api/v1/pay/notify/alipay 或 /wechat' },
    ],
    ['return_url', '支付完成跳转地址', '', 'text', 170, 24, { placeholder: '留空则使用 <网站域名>/vip/checkout' }],
  ]),
  // Ours: VIP membership plans and benefits.
  ...category('vip', [
    ['enable', '是否启用 VIP 会员', 'false', 'switch', 10, 8],
    // the defaults before one space parted Chinese from Latin letters (docs/decisions/068)
    ['title', '会员页标题', 'VIP 会员', 'text', 12, 12, { retired: ['VIP会员'] }],
    [
      'description',
      '会员页说明',
      '开通 VIP 会员，畅享全站文档免费下载',
      'textarea',
      14,
      24,
      { retired: ['开通VIP会员，畅享全站文档免费下载'] },
    ],
    [
      'plans',
      '会员套餐',
      'month|月度会员|30|30\nquarter|季度会员|90|80\nyear|年度会员|365|298|最划算|1',
      'textarea',
      20,
      24,
      {
        placeholder: '每行一个套餐：代码|名称|天数|价格（元）|说明（可选）|推荐填 1（可选）',
      },
    ],
    ['free_download', 'VIP 免费下载', 'true', 'switch', 30, 8],
    ['read_all_pages', 'VIP 阅读全部页面', 'true', 'switch', 35, 8],
    ['times_every_day', 'VIP 每天下载次数', '50', 'number', 40, 8, { placeholder: '0 表示与普通用户相同' }],
    [
      'benefits',
      '会员权益说明',
      '<ul><li>免费下载全站文档</li><li>每日更多下载次数</li><li>专属会员标识</li></ul>',
      'textarea',
      50,
    ],
  ]),
  // Ours: social sign-in providers (docs/product.md: WeChat and QQ flags, default false).
  ...category('oauth', [
    ['wechat', '是否启用微信登录', 'false', 'switch', 10, 8],
    ['wechat_app_id', '微信开放平台 AppID', '', 'text', 20, 12],
    ['wechat_app_secret', '微信开放平台 AppSecret', '', 'password', 30, 12, { is_secret: true }],
    ['qq', '是否启用 QQ 登录', 'false', 'switch', 40, 8],
    ['qq_app_id', 'QQ 互联 AppID', '', 'text', 50, 12],
    ['qq_app_key', 'QQ 互联 AppKey', '', 'password', 60, 12, { is_secret: true }],
    ['callback_url', '登录回调地址', '', 'text', 70, 24, { placeholder: '留空则使用 <网站域名>/oauth/callback' }],
  ]),
  // Ours: SMS codes for sign-up, sign-in, password reset and binding a mobile number.
  ...category('sms', [
    ['enable', '是否启用短信服务', 'false', 'switch', 10, 8],
    [
      'provider',
      '短信服务商',
      'log',
      'select',
      20,
      16,
      { options: 'log:仅记录不发送（开发测试）\naliyun:阿里云短信\ntencent:腾讯云短信' },
    ],
    ['sign_name', '短信签名', '', 'text', 30, 12, { placeholder: '在服务商处审核通过的签名，例如：魔豆文库' }],
    ['sdk_app_id', '腾讯云 SdkAppId', '', 'text', 35, 12, { placeholder: '仅腾讯云：短信应用的 SdkAppId' }],
    ['access_key_id', 'AccessKey ID / SecretId', '', 'text', 40, 12],
    ['access_key_secret', 'AccessKey Secret / SecretKey', '', 'password', 50, 12, { is_secret: true }],
    ['region', '腾讯云地域', 'ap-guangzhou', 'text', 55, 12, { placeholder: '仅腾讯云：例如 ap-guangzhou' }],
    [
      'template_register',
      '注册验证码模板',
      '',
      'text',
      60,
      12,
      { placeholder: '模板须有且仅有一个变量：阿里云 ${code}，腾讯云 {1}' },
    ],
    ['template_login', '登录验证码模板', '', 'text', 70, 12, { placeholder: '其他用途的模板留空时也使用此模板' }],
    ['template_find_password', '找回密码验证码模板', '', 'text', 80, 12],
    ['template_bind', '绑定手机号验证码模板', '', 'text', 90, 12],
    ['interval', '同一手机号发送间隔（秒）', '60', 'number', 100, 12],
    ['mobile_daily_limit', '同一手机号每天最多发送', '10', 'number', 110, 12, { placeholder: '任意 24 小时内' }],
    ['ip_hourly_limit', '同一 IP 每小时最多发送', '20', 'number', 120, 12],
    ['site_hourly_limit', '全站每小时最多发送', '500', 'number', 130, 12],
  ]),
];

export function findConfigKey(categoryName: string, name: string): ConfigKeyDef | undefined {
  return CONFIG_KEYS.find((k) => k.category === categoryName && k.name === name);
}
