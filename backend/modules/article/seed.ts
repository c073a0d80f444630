import type { Database } from '../../db';
import { SUPER_USER_ID } from '../../../shared/permissions';
import { ReviewStatus } from '../../../shared/constants';
import { settingsChanged } from '../../platform/config-store';
import { escapeHtml } from '../../platform/search/highlight';
import { setArticleCount } from '../user/service';
import { countArticlesBy, identifierTaken, insertArticle } from './store';
import { keywordsFromTitle } from './view';

// The single pages the footer links to (config `footer.*`: `/article/about` and friends), as
// MOREDOC seeds them (docs/moredoc.md §11) but with text a new site can keep: each is created
// once per site, when no article has its identifier, published and written by the admin: on a
// new site, and on an older one the page is new to (the 隐私政策), never over an owner's own
// page of that identifier, and never again once created (`release.seeded_pages` keeps which
// were), so a page purged from the recycle bin stays gone. They name the credits as the site
// does (`score.credit_name`, which a CONFIG_SCORE_CREDIT_NAME presets).

interface Page {
  identifier: string;
  title: string;
  description: string;
  paragraphs: string[];
}

/** `name` is plain text in a description, escaped in the paragraphs (HTML). */
function pages(name: string): readonly Page[] {
  const credits = escapeHtml(name);
  return [
    {
      identifier: 'about',
      title: '关于我们',
      description: '本站是一个文档分享平台，汇集学习资料、办公文档和行业报告，供大家在线阅读、下载与交流。',
      paragraphs: [
        '本站是一个文档分享平台，汇集学习资料、办公文档、技术手册和行业报告，支持在线阅读、全文搜索与下载。',
        '每一份文档都来自热心用户的分享。我们希望知识能被更多人看到、用上，也希望每一位分享者的付出得到尊重。',
        '如您在使用中遇到问题，或有任何意见与建议，欢迎通过页面右下角的“意见反馈”告诉我们。',
      ],
    },
    {
      identifier: 'contact',
      title: '联系我们',
      description: '通过意见反馈或邮件联系本站，我们会尽快回复。',
      paragraphs: [
        '如需联系我们，请通过页面右下角的“意见反馈”留言，并留下您的联系方式，我们会在 1 至 3 个工作日内回复。',
        '商务合作、版权投诉等事宜，请在反馈中写明事由与联系方式，我们将安排专人与您联系。',
      ],
    },
    {
      identifier: 'agreement',
      title: '文库协议',
      description: `使用本站服务前请阅读本协议：账号、上传内容、下载与${name}、禁止行为及责任说明。`,
      paragraphs: [
        '欢迎使用本站。注册、登录或使用本站服务，即表示您已阅读并同意本协议。',
        '一、账号：请妥善保管您的账号和密码，因您保管不善造成的损失由您自行承担。请勿将账号转让或出借给他人使用。',
        '二、上传内容：您上传的文档应为您本人创作或已获得合法授权，不得含有违反法律法规、侵犯他人合法权益或违背公序良俗的内容。',
        `三、下载与${credits}：部分文档需要消耗${credits}或开通会员后下载，${credits}与会员权益以本站公示的规则为准。`,
        `四、禁止行为：不得利用本站发布广告、传播违法信息、恶意刷取${credits}或以任何方式干扰本站的正常运行。`,
        '五、违规处理：对违反本协议的账号，本站有权删除相关内容，并视情节限制评论、上传、下载或禁用账号。',
        '六、协议修改：本站可能适时修改本协议，修改后的协议公布于本页面即生效。',
      ],
    },
    {
      // What a site taking accounts, mobile numbers and e-mail addresses in China must show and
      // have agreed to at registration (个人信息保护法; decision 066). The owner edits it to fit.
      identifier: 'privacy',
      title: '隐私政策',
      description:
        '本站收集哪些个人信息、为何收集、保存多久、与谁共享，以及您查阅、更正、删除个人信息和撤回同意的权利。',
      paragraphs: [
        '本站重视您的个人信息保护，依据《中华人民共和国个人信息保护法》等法律法规处理您的个人信息。注册、登录或使用本站服务前，请仔细阅读本政策；注册即表示您已阅读并同意本政策。',
        `一、我们收集的信息：（1）账号信息：用户名、密码（仅保存加密后的摘要）、电子邮箱、手机号码，以及您自愿填写的头像、昵称、签名等资料；（2）您上传的文档、发布的文章、评论、举报与反馈内容；（3）使用记录：登录时间与 IP 地址、阅读、搜索、收藏与下载记录、${credits}变动；（4）交易记录：会员与${credits}订单的金额、时间、支付方式与支付状态（本站不接触也不保存您的银行卡号或支付密码）。`,
        `二、使用目的：为您创建和保护账号（登录、找回密码、发送验证码）；提供阅读、上传、下载、会员与支付服务；审核内容、处理举报与反馈；保障网站安全、防范恶意注册与刷取${credits}；在您同意后改进本站服务。我们不会将您的个人信息用于上述目的以外的用途，除非再次征得您的同意。`,
        '三、Cookie 与统计：本站使用 Cookie 保存您的登录状态，关闭浏览器 Cookie 将无法登录。本站可能使用第三方网站统计服务（例如百度统计）了解访问量与页面使用情况，该服务会收集设备与浏览信息，但不会收集您的账号信息。',
        '四、委托处理与共享：为完成支付，我们会将订单号与金额提供给您选择的支付机构（如支付宝、微信支付）；为发送验证码与通知，我们会将您的手机号码或电子邮箱提供给短信服务商和邮件服务商。上述机构仅可在完成相应服务所必需的范围内处理您的信息。除此之外，未经您的同意，我们不会向第三方提供您的个人信息，法律法规另有规定或有权机关依法要求的除外。',
        '五、保存期限：账号信息在您的账号存续期间保存；搜索记录按网站设置的天数保存，到期删除；交易记录依照《中华人民共和国电子商务法》自交易完成之日起保存不少于三年；日志信息保存不少于六个月。超出保存期限后，我们将删除或匿名化处理您的个人信息。您的个人信息存储在中华人民共和国境内。',
        '六、信息安全：我们采取加密存储密码、限制访问权限等措施保护您的个人信息。如发生个人信息泄露等安全事件，我们将及时告知您并向有关部门报告。',
        '七、您的权利：您可以登录后在个人中心查阅和更正您的个人资料、手机号码与电子邮箱，查阅您的上传、收藏与下载记录；您可以要求我们删除您的个人信息或删除账号；您可以撤回对本政策的同意（撤回后我们将无法继续为您提供需要相应信息的服务，但不影响撤回前基于同意进行的处理）。行使上述权利，请通过下述方式联系我们，我们将在核实身份后十五个工作日内处理。',
        '八、未成年人保护：未满十四周岁的未成年人，请在父母或其他监护人的同意和指导下使用本站服务。',
        '九、联系我们：如您对本政策或个人信息的处理有任何疑问、意见或投诉，请通过本站“联系我们”页面或页面右下角的“意见反馈”与我们联系。',
        '十、政策更新：本政策可能适时修订，修订后的政策将公布于本页面；涉及您权利的重大变更，我们将以站内消息或页面显著位置提示等方式通知您。',
      ],
    },
    {
      identifier: 'copyright',
      title: '免责声明',
      description: '本站文档由用户上传，仅供学习交流；如侵犯您的权益，请联系我们删除。',
      paragraphs: [
        '本站文档由用户上传分享，仅供学习与交流使用，文档的观点与内容不代表本站立场。',
        '本站尽力审核用户上传的内容，但无法保证其准确性、完整性与合法性。因使用本站文档而产生的任何后果，由使用者自行承担。',
        '如您认为本站的某份文档侵犯了您的著作权或其他合法权益，请通过“意见反馈”或文档页面的“举报”功能告知我们，并附上权属证明，我们核实后将及时删除。',
      ],
    },
    {
      identifier: 'feedback',
      title: '意见反馈',
      description: '欢迎留下您的意见与建议，我们会认真阅读每一条反馈。',
      paragraphs: [
        '感谢您对本站的关注与支持。无论是功能建议、使用中遇到的问题，还是对内容的意见，都欢迎告诉我们。',
        '请在下方填写反馈内容，可附上截图并留下联系方式，以便我们与您沟通。我们会认真阅读每一条反馈。',
      ],
    },
    {
      identifier: 'help',
      title: '使用帮助',
      description: `如何搜索、阅读、下载与上传文档，以及${name}和会员的说明。`,
      paragraphs: [
        '搜索：在页面顶部的搜索框输入关键词，即可按标题与正文查找文档；多个关键词用空格隔开，结果须同时包含；在词前加减号可排除含有该词的结果，如 图书馆 -量子；用引号括住的词组按原样整体查找，如 "machine learning"。文章在“文章资讯”页搜索，搜索结果页也有去那里的链接。',
        `阅读与下载：打开文档即可在线阅读；下载所需的${credits}或会员权益会显示在下载按钮上。`,
        '上传：登录后可上传文档，审核通过并转换完成后即对其他用户可见。',
        `${credits}与会员：签到、上传等方式可获得${credits}；开通会员可享受免费下载等权益。`,
      ],
    },
  ];
}

const html = (paragraphs: readonly string[]) => paragraphs.map((p) => `<p>${p}</p>`).join('');

/**
 * Creates the pages not created before (`seeded`: the identifiers of those that were) that no
 * article holds the identifier of; answers the identifiers of all, the site's pages from now on.
 */
export async function seedArticles(db: Database, credits: string, seeded: readonly string[]): Promise<string[]> {
  let added = 0;
  const all = pages(credits);
  for (const page of all) {
    if (seeded.includes(page.identifier) || (await identifierTaken(db, page.identifier))) continue;
    await insertArticle(db, {
      identifier: page.identifier,
      title: page.title,
      keywords: keywordsFromTitle(page.title),
      description: page.description,
      content: html(page.paragraphs),
      user_id: SUPER_USER_ID,
      status: ReviewStatus.Approved,
      reject_reason: '',
      recommend_at: null,
    });
    added += 1;
  }
  if (added) {
    await setArticleCount(db, SUPER_USER_ID, await countArticlesBy(db, SUPER_USER_ID));
    // A page added to a running site (an upgrade) is linked by the settings from now on, in every
    // process (config/settings.ts).
    await settingsChanged(db);
  }
  return all.map((page) => page.identifier);
}
