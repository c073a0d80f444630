// Every admin screen of issues 6 and 15 in Chromium against the real gateway and embedded backend:
// each renders its data, and the screens with their own moves (uploads, trees, punishments,
// password-confirmed deletes, batch actions) work end to end.
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { keptAdminPage, navigateInApp, openInApp, useSiteInBrowser } from './browser';

const site = useSiteInBrowser();
/** The admin's page, kept across the tests: each reaches its screen inside the app. */
const adminScreen = keptAdminPage(site);

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const unique = (prefix: string) => `${prefix}${Date.now() % 1_000_000}`;

const sheet = (page: Page, title: string) =>
  page.locator('.semi-sidesheet-inner', { has: page.locator('.semi-sidesheet-title', { hasText: title }) });
const dialog = (page: Page, title: string) =>
  page.locator('.semi-modal', { has: page.locator('.semi-modal-title', { hasText: title }) });
const row = (page: Page, text: string) => page.locator('.app-resource-table tbody tr', { hasText: text });
const expectToast = (page: Page, title: string) => page.locator('.app-toast', { hasText: title }).first().waitFor();

async function pickOption(page: Page, trigger: Locator, option: string) {
  await trigger.click();
  await page.locator('.semi-select-option', { hasText: option }).first().click();
}

describe('every admin screen', () => {
  const screens: [string, string, string][] = [
    ['/admin/user/list', '用户管理', 'admin'],
    ['/admin/user/group', '角色管理', '普通用户'],
    ['/admin/user/permission', '权限管理', '查看用户列表'],
    ['/admin/user/punishment', '处罚管理', '暂无处罚'],
    ['/admin/navigation', '导航管理', '/library'],
    ['/admin/document/category', '文档分类', '暂无分类'],
    ['/admin/article/category', '文章分类', '暂无分类'],
    ['/admin/friendlink', '友链管理', '书栈网'],
    ['/admin/banner', '轮播图管理', '暂无轮播图'],
    ['/admin/document/language', '行业管理', '教育培训'],
    ['/admin/config/security', '安全配置', '是否允许注册'],
    ['/admin/config/email', '邮箱配置', 'SMTP 服务器地址'],
    ['/admin/config/pay', '支付配置', '支付方式'],
    ['/admin/order', '订单管理', '暂无订单'],
    ['/admin/user/vip', '会员管理', '暂无会员'],
    ['/admin/config/vip', '会员配置', '添加套餐'],
    ['/admin/config/oauth', '第三方登录配置', '是否启用微信登录'],
    ['/admin/config/display', '展示配置', '首页文档展示方式'],
    ['/admin/config/score', '积分配置', '积分名称'],
    ['/admin/article/list', '文章列表', 'about'],
    ['/admin/article/set', '发布文章', '文章标识'],
    ['/admin/article/recycle', '文章回收站', '暂无文章'],
    ['/admin/comment', '评论管理', '暂无评论'],
    ['/admin/report', '举报管理', '暂无举报'],
    ['/admin/feedback', '意见反馈', '暂无反馈'],
    ['/admin/dashboard', '控制面板', '快捷入口'],
  ];

  it('renders each screen with its data, reached as its menu entry does, without page errors', async () => {
    const page = await adminScreen('/admin/dashboard');
    for (const [path, heading, content] of screens) {
      await navigateInApp(page, path);
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      await page.getByText(content, { exact: true }).first().waitFor();
      expect(await page.getByText('建设中').count(), path).toBe(0);
    }
  });
});

describe('screens with their own moves', () => {
  it('offers in 转换配置 only what the converter reads', async () => {
    const page = await adminScreen('/admin/config/converter');
    await page.getByRole('heading', { name: '转换配置', exact: true }).waitFor();
    await page.getByText('转换超时(分钟)', { exact: true }).waitFor();
    for (const label of ['是否启用GZIP压缩', '是否启用SVGO', '预览格式'])
      expect(await page.getByText(label).count(), label).toBe(0);
    expect(await page.getByText('兼容 MOREDOC').count()).toBe(0);
  });

  it('shows in 安全配置 the review setting of each kind, all on for a new site, and saves a change to the default role', async () => {
    const page = await adminScreen('/admin/config/security');
    const panel = page.getByRole('region', { name: '内容审核' });
    const toggle = (label: string) => panel.getByRole('switch', { name: label });
    for (const label of ['上传的文档需要审核', '评论需要审核', '文章需要审核']) {
      await toggle(label).waitFor();
      expect(await toggle(label).getAttribute('aria-checked'), label).toBe('true');
    }
    await panel.getByText('新注册用户所在的默认角色“普通用户”').waitFor();
    const defaultRole = async () => {
      const res = await page.request.get('/api/v1/group/list');
      return (
        (await res.json()) as { group: { is_default?: boolean; enable_article_approval?: boolean }[] }
      ).group.find((g) => g.is_default);
    };

    await toggle('文章需要审核').click();
    await expectToast(page, '保存成功');
    expect((await defaultRole())?.enable_article_approval).toBeUndefined(); // false, omitted on the wire
    await page.reload();
    await page.getByRole('region', { name: '内容审核' }).getByRole('switch', { name: '文章需要审核' }).waitFor();
    expect(await toggle('文章需要审核').getAttribute('aria-checked')).toBe('false');
    expect(await toggle('评论需要审核').getAttribute('aria-checked')).toBe('true');

    await toggle('文章需要审核').click();
    await expectToast(page, '保存成功');
    expect((await defaultRole())?.enable_article_approval).toBe(true);

    // On a phone the switches and their labels stay inside the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await panel.scrollIntoViewIfNeeded();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    const box = await panel.boundingBox();
    const label = await panel.getByText('文章需要审核', { exact: true }).boundingBox();
    expect(label && box && label.x + label.width <= box.x + box.width).toBe(true);
  });

  it('uploads a banner image and shows it in the list and on the home page', async () => {
    const page = await adminScreen('/admin/banner');
    const title = unique('首页横幅');
    await page.getByRole('button', { name: '新建轮播图' }).click();
    const form = sheet(page, '新建轮播图');
    await form.getByLabel('标题').fill(title);
    await form.getByRole('button', { name: '创建' }).click();
    await form.getByText('请上传图片').waitFor();
    await form
      .locator('input[type=file][data-upload-kind=banner]')
      .setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: PNG });
    const preview = form.getByRole('img', { name: '图片预览' });
    await preview.waitFor();
    expect(await preview.getAttribute('src')).toMatch(/^\/uploads\/.+\.png$/);
    await form.getByRole('button', { name: '创建' }).click();
    await expectToast(page, '创建成功');
    await row(page, title).locator('img').waitFor();
    expect(await row(page, title).textContent()).toContain('网站轮播图');

    // The home page, reached as the admin's link to it does: the write marked the banners stale.
    await openInApp(page, '/');
    await page.locator(`img[alt="${title}"]`).first().waitFor({ state: 'attached' });
  });

  it('builds a category tree and refuses to move a category below itself', async () => {
    const page = await adminScreen('/admin/document/category');
    const parent = unique('教育');
    await page.getByRole('button', { name: '新建分类' }).click();
    let form = sheet(page, '新建分类');
    await form.getByLabel('分类名称').fill(`${parent}\n${parent}资料`);
    await form.getByRole('button', { name: '创建' }).click();
    await expectToast(page, '创建成功');
    await row(page, `${parent}资料`).waitFor();

    await page.getByRole('button', { name: `编辑“${parent}资料”` }).click();
    form = sheet(page, '编辑分类');
    await form.locator('[data-field="parent_id"] .semi-tree-select').click();
    await page.locator('.semi-tree-select-popover .semi-tree-option', { hasText: parent }).first().click();
    await form.getByLabel('描述', { exact: true }).fill('中小学教育资料');
    await form.getByRole('switch', { name: '在列表上方显示描述' }).click();
    await form.getByRole('button', { name: '保存' }).click();
    await expectToast(page, '保存成功');

    // The child now sits under its parent; the parent cannot move below it.
    await page.getByRole('button', { name: `编辑“${parent}”` }).click();
    form = sheet(page, '编辑分类');
    await form.locator('[data-field="parent_id"] .semi-tree-select').click();
    const own = page.locator('.semi-tree-select-popover .semi-tree-option', { hasText: `${parent}资料` }).first();
    // The choices follow the list, which the save before has the screen read again.
    await expect.poll(() => own.getAttribute('class')).toContain('disabled');
    // Nothing to save: the page is left as it is. (An Escape here closed the dropdown, or in a
    // whole run sometimes the sheet with it, and 取消 was then gone.)

    // The public header lists the new document categories, on the home page reached inside the app
    // (the writes marked the public list stale).
    await openInApp(page, '/');
    await page.getByRole('navigation', { name: '文档分类' }).getByText(parent).waitFor();
  });

  it('punishes a user and ends the punishment', async () => {
    const page = await adminScreen('/admin/user/list');
    const username = unique('spammer');
    await page.getByRole('button', { name: '新建用户' }).click();
    const userForm = sheet(page, '新建用户');
    await userForm.getByLabel('用户名').fill(username);
    await userForm.getByLabel('密码', { exact: true }).fill('spammer-pass');
    await userForm.getByRole('button', { name: '创建' }).click();
    await expectToast(page, '创建成功');

    await openInApp(page, '/admin/user/punishment');
    await page.getByRole('button', { name: '新建处罚' }).click();
    const form = sheet(page, '新建处罚');
    const picker = form.locator('[data-field="users"] .semi-select');
    await picker.click();
    await page.keyboard.type(username.slice(0, 7));
    await page.locator('.semi-select-option', { hasText: username }).first().click();
    await pickOption(page, form.locator('[data-field="types"] .semi-select'), '禁用账号');
    await form.getByLabel('处罚原因').fill('发布垃圾广告');
    await form.getByRole('button', { name: '创建' }).click();
    await expectToast(page, '创建成功');
    const punished = row(page, username);
    await punished.getByText('生效中').waitFor();

    // Back in the list inside the app: the punishment's write, not a reload, shows the account disabled.
    await openInApp(page, '/admin/user/list');
    await row(page, username).getByText('禁用').waitFor();

    await openInApp(page, '/admin/user/punishment');
    await row(page, username).getByRole('button', { name: /结束“/ }).click();
    await dialog(page, '结束').getByRole('button', { name: '确定' }).click();
    await expectToast(page, '处罚已结束');
    await row(page, username).getByText('已结束').waitFor();
  });

  it('edits a user and deletes it only with the admin password', async () => {
    const page = await adminScreen('/admin/user/list');
    const username = unique('leaver');
    await page.getByRole('button', { name: '新建用户' }).click();
    let form = sheet(page, '新建用户');
    await form.getByLabel('用户名').fill(username);
    await form.getByLabel('密码', { exact: true }).fill('leaver-pass');
    await form.getByLabel('邮箱').fill(`${username}@example.com`);
    await form.getByRole('button', { name: '创建' }).click();
    await expectToast(page, '创建成功');

    await page.getByRole('button', { name: `编辑“${username}”` }).click();
    form = sheet(page, '编辑用户');
    expect(await form.getByLabel('用户名').isDisabled()).toBe(true);
    await form.getByLabel('真实姓名').fill('李雷');
    await form.getByLabel('手机号').fill('13800138000');
    await form.getByRole('button', { name: '保存' }).click();
    await expectToast(page, '保存成功');
    await row(page, username).getByText('（李雷）').waitFor();

    await page.getByRole('button', { name: `删除“${username}”` }).click();
    const confirm = dialog(page, '删除用户');
    await confirm.getByLabel('请输入您的登录密码以确认').fill('not-my-password');
    await confirm.getByRole('button', { name: '删除' }).click();
    await page.locator('.app-toast', { hasText: '删除失败' }).getByText('密码错误').waitFor();
    await confirm.getByLabel('请输入您的登录密码以确认').fill(site.adminPassword);
    await confirm.getByRole('button', { name: '删除' }).click();
    await expectToast(page, '删除成功');
    await row(page, username).waitFor({ state: 'detached' });
  });

  it('renames a permission and disables industries in a batch', async () => {
    const page = await adminScreen('/admin/user/permission');
    await page.getByRole('button', { name: '编辑“删除友链”' }).click();
    const form = sheet(page, '编辑权限');
    expect(await form.getByLabel('路径').inputValue()).toBe('/api.v1.FriendlinkAPI/DeleteFriendlink');
    await form.getByLabel('名称').fill('删除友情链接');
    await form.getByRole('button', { name: '保存' }).click();
    await expectToast(page, '保存成功');
    await row(page, '删除友情链接').waitFor();

    await openInApp(page, '/admin/document/language');
    // Semi draws the checkbox over its input: click what the user sees.
    await row(page, '金融财经').locator('.semi-checkbox').click();
    await row(page, '医疗卫生').locator('.semi-checkbox').click();
    await page.getByRole('button', { name: '批量禁用' }).click();
    await dialog(page, '批量禁用').getByRole('button', { name: '确定' }).click();
    await expectToast(page, '已禁用');
    await page.getByLabel('状态').click();
    await page.locator('.semi-select-option', { hasText: '禁用' }).first().click();
    await row(page, '金融财经').waitFor();
    await row(page, '医疗卫生').waitFor();
  });
});
