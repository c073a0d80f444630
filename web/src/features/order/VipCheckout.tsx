// The checkout of a VIP plan (`/vip/checkout?plan=…`) and of an order (`?order_no=…`, also
// where the providers send the member back): the summary, the ways of paying the config
// offers, then Alipay's page, WeChat Pay's QR code or the transfer instructions, with the
// order's state polled until it is paid, and the result.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { formatDate } from '../../../../shared/format';
import type { Order, PayOrderReply } from '../../../../shared/types/order';
import type { VipPlan } from '../../../../shared/types/config';
import {
  OrderStatus,
  closeReasonOptions,
  paymentProviderOptions,
  yuanToFen,
  type PaymentProviderName,
} from '../../../../shared/vip';
import { optionLabel } from '../../../../shared/constants';
import { ApiError, errorMessage, unwrap } from '../../api/client';
import { useOneAtATime } from '../../api/one-at-a-time';
import { InlineConfirm } from '../../kit/confirm/InlineConfirm';
import { QueryStates } from '../../kit/query-states/QueryStates';
import { CopyTextButton } from '../../kit/share/CopyTextButton';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
import { IconSpin, IconTickCircle } from '../../ui/icons';
import { Panel } from '../../ui/Panel';
import { Button } from '../../ui/semi';
import { Notice } from '../../ui/Notice';
import { EmptyState } from '../../ui/states';
import { useSettings } from '../settings/use-settings';
import { myVipQuery } from '../vip/api';
import { cancelOrder, createOrder, orderQuery, payOrder, refreshAfterPaid } from './api';
import { CANCEL_ORDER_QUESTION } from './MemberOrderActions';
import { OrderStatusTag, orderAmount } from './OrderStatusTag';
import './order.css';

/** How often a pending order is asked for (the backend asks the provider at most every 5 s). */
const POLL_MS = 3000;
const DATE = 'YYYY-MM-DD HH:mm';
const DAY_MS = 24 * 3600_000;

/** Phones get Alipay's wap page and WeChat Pay's H5 page instead of the computer flows. */
function isPhone(): boolean {
  return /Android|iPhone|iPad|iPod|Mobile|HarmonyOS/i.test(navigator.userAgent);
}

/**
 * The end of the VIP period still running that the days to be paid follow (asked afresh, only then);
 * undefined when there is none: the backend then starts them when the order is paid.
 */
function useRunningVipEnd(toPay: boolean): string | undefined {
  const vip = useQuery({ ...myVipQuery(), enabled: toPay });
  return toPay && vip.data?.active === true ? (vip.data.end_at ?? undefined) : undefined;
}

function OrderSummary({ title, days, amount, order }: { title: string; days: number; amount: number; order?: Order }) {
  const extendsVip = useRunningVipEnd((order?.status ?? OrderStatus.Pending) === OrderStatus.Pending) !== undefined;
  return (
    <dl className="app-checkout__summary">
      <dt>会员套餐</dt>
      <dd>{title}</dd>
      <dt>会员时长</dt>
      <dd>
        {days} 天{extendsVip && '（在当前有效期后顺延）'}
      </dd>
      {order?.order_no && (
        <>
          <dt>订单号</dt>
          <dd>{order.order_no}</dd>
          <dt>订单状态</dt>
          <dd>
            <OrderStatusTag order={order} />
          </dd>
        </>
      )}
      {order?.expires_at && (order.status ?? 0) === OrderStatus.Pending && (
        <>
          <dt>支付期限</dt>
          <dd>{formatDate(order.expires_at, DATE)} 前</dd>
        </>
      )}
      <dt>应付金额</dt>
      <dd className="app-checkout__amount">{orderAmount(amount)}</dd>
    </dl>
  );
}

function ProviderChoice({
  providers,
  value,
  onChange,
}: {
  providers: readonly PaymentProviderName[];
  value: PaymentProviderName | undefined;
  onChange: (provider: PaymentProviderName) => void;
}) {
  // A labelled radio group rather than a fieldset: a legend cannot sit in the summary's label column.
  return (
    <div className="app-checkout__providers" role="radiogroup" aria-labelledby="checkout-providers-label">
      <span id="checkout-providers-label" className="app-checkout__providers-label">
        支付方式
      </span>
      <div className="app-checkout__provider-list">
        {providers.map((provider) => (
          <label key={provider} className="app-checkout__provider">
            <input
              type="radio"
              name="provider"
              value={provider}
              checked={value === provider}
              onChange={() => onChange(provider)}
            />
            {optionLabel(paymentProviderOptions, provider)}
          </label>
        ))}
      </div>
    </div>
  );
}

function WechatQrCode({ codeUrl }: { codeUrl: string }) {
  const [image, setImage] = useState<string>();
  useEffect(() => {
    let current = true;
    void QRCode.toDataURL(codeUrl, { width: 220, margin: 1 }).then((url) => current && setImage(url));
    return () => {
      current = false;
    };
  }, [codeUrl]);
  return (
    <div className="app-checkout__qrcode">
      {image ? <img src={image} alt="微信支付二维码" /> : <IconSpin spin aria-label="二维码生成中" />}
      <p>请使用微信扫一扫完成支付</p>
    </div>
  );
}

function Waiting({ children }: { children: ReactNode }) {
  return (
    <p className="app-checkout__waiting" role="status">
      <IconSpin spin />
      {children}
    </p>
  );
}

/**
 * What the member gets when an admin confirms the transfer, as the backend's extendVip adds the
 * days then: after the end of the VIP still running, or from the confirmation when there is none.
 * The date holds only while the VIP runs at the confirmation, which may come after its end (an
 * admin confirms when the money is seen, a closed transfer too): one ended by then starts afresh.
 */
function TransferEffect({ days }: { days: number }) {
  const runningEnd = useRunningVipEnd(true);
  if (runningEnd === undefined) return <>管理员确认收款后会员即刻生效。</>;
  const until = formatDate(Date.parse(runningEnd) + days * DAY_MS, DATE);
  return (
    <>
      管理员确认收款后，会员有效期顺延 {days} 天，至 {until}；如当前会员在确认收款前到期，则自确认收款时起算 {days} 天。
    </>
  );
}

/** What the chosen provider asked of the member (the redirect has left the page already). */
function PaymentStep({ payment, orderNo, days }: { payment: PayOrderReply; orderNo: string; days: number }) {
  if (payment.code_url) {
    return (
      <>
        <WechatQrCode codeUrl={payment.code_url} />
        <Waiting>支付完成后页面会自动跳转</Waiting>
      </>
    );
  }
  if (payment.instructions) {
    return (
      <>
        <p className="app-checkout__instructions">{payment.instructions}</p>
        <p>
          转账备注请填写订单号 <strong>{orderNo}</strong> <CopyTextButton text={orderNo} what="订单号" />
          ，<TransferEffect days={days} />
        </p>
        {payment.order?.expires_at && (
          <p className="app-checkout__deadline">
            请在 <strong>{formatDate(payment.order.expires_at, DATE)}</strong>{' '}
            前完成转账，逾期未确认收款的订单将自动关闭。
          </p>
        )}
        <Waiting>等待管理员确认收款</Waiting>
      </>
    );
  }
  return <Waiting>正在前往支付页面…</Waiting>;
}

/** Starts the payment of an order; an Alipay or WeChat H5 answer leaves for the provider's page. */
function usePay(onStarted: (payment: PayOrderReply) => void) {
  return useMutation({
    mutationFn: async ({ orderNo, provider }: { orderNo: string; provider: PaymentProviderName }, context) =>
      unwrap(await payOrder({ order_no: orderNo, provider, device: isPhone() ? 'mobile' : 'pc' }, context)),
    onSuccess: (payment) => {
      onStarted(payment);
      if (payment.pay_url) window.location.assign(payment.pay_url);
    },
    onError: (error) => toastFailure('发起支付失败', error),
  });
}

function useProviderChoice() {
  const providers = (useSettings().pay?.providers ?? []).filter((p): p is PaymentProviderName =>
    paymentProviderOptions.some((o) => o.value === p),
  );
  const [chosen, setChosen] = useState<PaymentProviderName | undefined>(providers[0]);
  return { providers, chosen: chosen && providers.includes(chosen) ? chosen : providers[0], setChosen };
}

function PlanCheckout({
  plan,
  onStarted,
}: {
  plan: VipPlan;
  onStarted: (order: Order, payment: PayOrderReply) => void;
}) {
  const { providers, chosen, setChosen } = useProviderChoice();
  const [order, setOrder] = useState<Order>();
  const pay = usePay((payment) => onStarted(payment.order ?? order ?? {}, payment));
  // One order and one payment a click: the second click of a double click comes before the button is busy.
  const starting = useRef(false);
  const done = () => {
    starting.current = false;
  };
  const place = useMutation({
    // The same pending order comes back for the same plan: a later click pays it again.
    mutationFn: async (_: void, context) =>
      unwrap(await createOrder({ plan_code: plan.code ?? '', price: plan.price ?? 0 }, context)),
    onSuccess: (created) => {
      setOrder(created);
      if (chosen) pay.mutate({ orderNo: created.order_no ?? '', provider: chosen }, { onSettled: done });
      else done();
    },
    onError: (error) => {
      done();
      toastFailure('下单失败', error);
    },
  });
  const busy = place.isPending || pay.isPending;
  return (
    <Panel title="确认订单" titleId="checkout-title" heading="h1">
      <OrderSummary title={plan.title ?? ''} days={plan.days ?? 0} amount={yuanToFen(plan.price ?? 0)} />
      {providers.length ? (
        <>
          <ProviderChoice providers={providers} value={chosen} onChange={setChosen} />
          <div className="app-checkout__actions">
            <Button
              theme="solid"
              type="primary"
              size="large"
              loading={busy}
              disabled={busy || !chosen}
              onClick={() => {
                if (starting.current) return;
                starting.current = true;
                place.mutate();
              }}
            >
              立即支付
            </Button>
            <Link to="/vip">返回选择套餐</Link>
          </div>
        </>
      ) : (
        <Notice type="warning" description="暂未开放在线支付，请联系管理员" />
      )}
    </Panel>
  );
}

/**
 * The end of the member's VIP as it stands now, not the order's `vip_end_at`: that is the interval
 * this order added, which a later order follows and a refund of an earlier one moves forward.
 */
function VipEndLine() {
  const vip = useQuery(myVipQuery()).data;
  if (!vip?.end_at) return null;
  const end = formatDate(vip.end_at, DATE);
  return <p>{vip.active ? `VIP 会员有效期至 ${end}` : `VIP 已于 ${end} 到期`}</p>;
}

function OrderResult({ order }: { order: Order }) {
  const status = order.status ?? OrderStatus.Pending;
  if (status === OrderStatus.Paid) {
    return (
      <div className="app-checkout__result" role="status">
        <IconTickCircle size="extra-large" style={{ color: 'var(--semi-color-success)' }} />
        <h2>支付成功</h2>
        <VipEndLine />
        <p>
          <Link to="/member">前往个人中心</Link> · <Link to="/member/order">查看我的订单</Link>
        </p>
      </div>
    );
  }
  const title = status === OrderStatus.Refunded ? '订单已退款' : '订单已关闭';
  const reason =
    status === OrderStatus.Closed && order.close_reason
      ? `（${optionLabel(closeReasonOptions, order.close_reason, order.close_reason)}）`
      : '';
  return (
    <div className="app-checkout__result" role="status">
      <h2>
        {title}
        {reason}
      </h2>
      {order.late_paid && <p>订单关闭后收到了您的付款，管理员会为您处理（退款或重新开通），如有疑问请联系管理员。</p>}
      <p>
        <Link to="/vip">重新选择套餐</Link> · <Link to="/member/order">查看我的订单</Link>
      </p>
    </div>
  );
}

function OrderCheckout({
  orderNo,
  payment,
  onStarted,
}: {
  orderNo: string;
  payment: PayOrderReply | undefined;
  onStarted: (payment: PayOrderReply) => void;
}) {
  const client = useQueryClient();
  const order = useQuery(orderQuery(orderNo, POLL_MS));
  const { providers, chosen, setChosen } = useProviderChoice();
  const [switching, setSwitching] = useState(false);
  const pay = usePay((started) => {
    setSwitching(false);
    onStarted(started);
  });
  // One payment a click, as in PlanCheckout.
  const payOnce = useOneAtATime(pay);
  const startPayment = (provider: PaymentProviderName) => payOnce({ orderNo, provider });
  const cancel = useMutation({
    mutationFn: async (_: void, context) => unwrap(await cancelOrder(orderNo, context)),
    onSuccess: (closed) =>
      toast.success((closed.status ?? 0) === OrderStatus.Paid ? '订单已支付，无需取消' : '订单已取消'),
    onError: (error) => toastFailure('取消订单失败', error),
  });
  // Asked first: a cancelled order cannot be paid or confirmed any more, a transfer already made included.
  const cancelButton = (size?: 'large') => (
    <InlineConfirm
      question={CANCEL_ORDER_QUESTION}
      confirmLabel="确定取消"
      onConfirm={() => cancel.mutate()}
      trigger={(ask) => (
        <Button type="danger" size={size} loading={cancel.isPending} onClick={ask}>
          取消订单
        </Button>
      )}
    />
  );
  const status = order.data?.status ?? OrderStatus.Pending;
  // A transfer submitted earlier (another visit, 去支付 in 我的订单): its instructions come with the order.
  const submitted: PayOrderReply | undefined =
    payment ??
    (order.data?.provider === 'manual' && order.data.instructions
      ? { order: order.data, provider: 'manual', instructions: order.data.instructions }
      : undefined);
  // 更换支付方式 can be undone while the step shown before still holds: a QR code or a transfer's
  // instructions are good until the order's payment deadline (WeChat Pay is given it as time_expire).
  const [canGoBack, setCanGoBack] = useState(false);
  const switchAway = (step: PayOrderReply, expiresAt: string | undefined) => {
    setCanGoBack(Boolean(step.code_url || step.instructions) && (!expiresAt || Date.parse(expiresAt) > Date.now()));
    setSwitching(true);
  };
  const back =
    switching && canGoBack && submitted
      ? `返回${optionLabel(paymentProviderOptions, submitted.provider ?? '')}`
      : undefined;
  const wasPending = useRef(true);
  useEffect(() => {
    if (status === OrderStatus.Paid && wasPending.current) void refreshAfterPaid(client);
    wasPending.current = status === OrderStatus.Pending;
  }, [status, client]);

  const content = (data: Order) => (
    <>
      <OrderSummary title={data.plan_title ?? ''} days={data.days ?? 0} amount={data.amount ?? 0} order={data} />
      {(data.status ?? OrderStatus.Pending) !== OrderStatus.Pending ? (
        <OrderResult order={data} />
      ) : submitted && !switching ? (
        <>
          <PaymentStep payment={submitted} orderNo={orderNo} days={data.days ?? 0} />
          <div className="app-checkout__actions">
            {providers.length > 1 && (
              <Button onClick={() => switchAway(submitted, data.expires_at)}>更换支付方式</Button>
            )}
            {cancelButton()}
          </div>
        </>
      ) : (
        <>
          {data.provider && data.provider !== 'manual' && !payment && (
            <Waiting>如果您已完成支付，订单状态会自动更新</Waiting>
          )}
          {providers.length ? (
            <ProviderChoice providers={providers} value={chosen} onChange={setChosen} />
          ) : (
            <Notice type="warning" description="暂未开放在线支付，请联系管理员" />
          )}
          <div className="app-checkout__actions">
            <Button
              theme="solid"
              type="primary"
              size="large"
              loading={pay.isPending}
              disabled={pay.isPending || !chosen}
              onClick={() => chosen && startPayment(chosen)}
            >
              立即支付
            </Button>
            {back && <Button onClick={() => setSwitching(false)}>{back}</Button>}
            {cancelButton('large')}
          </div>
        </>
      )}
    </>
  );

  return (
    <Panel title="订单支付" titleId="checkout-title" heading="h1">
      {order.data === undefined && order.error instanceof ApiError && order.error.status === 404 ? (
        // Another member's order or a mistyped number: asking again cannot help, the member's own list can.
        <EmptyState title="订单不存在" description="请在“我的订单”中查看您的订单。">
          <Link to="/member/order">查看我的订单</Link>
        </EmptyState>
      ) : order.data !== undefined && order.isError ? (
        // A poll that failed (the site restarting, the network away a moment) keeps the order, its
        // instructions or QR code on screen, and the polling goes on.
        <>
          <Notice
            type="warning"
            description={`订单状态暂时无法刷新（${errorMessage(order.error, '订单加载失败')}），稍后会自动重试`}
          />
          {content(order.data)}
        </>
      ) : (
        <QueryStates query={order} loadingRows={5} failure="订单加载失败">
          {content}
        </QueryStates>
      )}
    </Panel>
  );
}

/** `/vip/checkout`: a plan to order (`?plan=`), or an order to pay or see (`?order_no=`). */
export function VipCheckout() {
  const settings = useSettings();
  const [params, setParams] = useSearchParams();
  const [payment, setPayment] = useState<PayOrderReply>();
  const orderNo = params.get('order_no') ?? '';
  const planCode = params.get('plan') ?? '';
  if (orderNo) {
    return (
      <OrderCheckout
        orderNo={orderNo}
        payment={payment?.order?.order_no === orderNo ? payment : undefined}
        onStarted={setPayment}
      />
    );
  }
  const plan = (settings.vip?.plans ?? []).find((p) => p.code === planCode);
  if (!plan || !settings.vip?.enable) {
    // VIP off sale closes every plan, named or not: choosing another cannot help, unlike a plan that
    // is gone; with no plan named (the address typed or bookmarked) there is one to choose first.
    const [title, description] = !settings.vip?.enable
      ? ['VIP 会员暂未开放购买', '本站暂未开放 VIP 会员购买，请稍后再来或联系网站管理员。']
      : planCode
        ? ['套餐不存在或已下架', '请返回会员页重新选择套餐。']
        : ['请先选择会员套餐', '在会员页选择要开通的套餐后再来下单。'];
    return (
      <Panel title="购买 VIP" titleId="checkout-title" heading="h1">
        <EmptyState title={title} description={description}>
          <Link to="/vip">查看会员套餐</Link>
        </EmptyState>
      </Panel>
    );
  }
  return (
    <PlanCheckout
      plan={plan}
      onStarted={(order, started) => {
        setPayment(started);
        // The order's own address: a reload or the provider's return lands on the same order.
        setParams({ order_no: order.order_no ?? '' }, { replace: true });
      }}
    />
  );
}
