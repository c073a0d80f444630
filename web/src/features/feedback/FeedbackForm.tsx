// The feedback form of `/article/feedback` and the floating 意见反馈 button: what to say, how
// to be reached, an optional screenshot, the captcha visitors answer when the settings ask;
// after sending, a thank-you that says what happens next.
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useLocation } from 'react-router-dom';
import { FEEDBACK_LIMITS, textProblems } from '../../../../shared/validation';
import { unwrap } from '../../api/client';
import { ImageUploadInput } from '../../kit/image-upload/ImageUploadInput';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { TextAreaField, TextField } from '../../ui/FormField';
import { IconTickCircle } from '../../ui/icons';
import { Button } from '../../ui/semi';
import { CaptchaField, captchaEnabled, captchaFields, captchaProblem, useCaptcha } from '../auth/CaptchaField';
import { useSession } from '../session/use-session';
import { useSettings } from '../settings/use-settings';
import { screenshotUploadTarget, sendFeedback } from './api';
import './feedback.css';
import { useFirstInvalidFocus } from '../../kit/forms/first-invalid';

type Field = 'content' | 'contact' | 'captcha';

export function FeedbackForm({ onClose }: { onClose?: () => void }) {
  const { loggedIn } = useSession();
  const { security } = useSettings();
  const location = useLocation();
  // Visitors answer a captcha when `security.enable_captcha_feedback` is on; members never do.
  const captcha = useCaptcha('feedback', !loggedIn && captchaEnabled(security, 'feedback'));
  const [content, setContent] = useState('');
  const [contact, setContact] = useState('');
  const [image, setImage] = useState('');
  const [captchaText, setCaptchaText] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const { ref: formRef, focusFirstInvalid } = useFirstInvalidFocus();
  const [sent, setSent] = useState(false);

  const send = useMutation({
    mutationFn: async (_: void, context) =>
      unwrap(
        await sendFeedback(
          {
            content: content.trim(),
            contact: contact.trim(),
            image,
            page: location.pathname,
            ...captchaFields(captcha, captchaText),
          },
          context,
        ),
      ),
    onSuccess: () => {
      setSent(true);
      setContent('');
      setContact('');
      setImage('');
      setCaptchaText('');
    },
    onError: (error) => {
      if (captcha.required) captcha.refresh();
      toastFailure('反馈提交失败', error);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = {
      content: textProblems(content.trim(), '反馈内容', FEEDBACK_LIMITS.content, true)[0],
      contact: textProblems(contact.trim(), '联系方式', FEEDBACK_LIMITS.contact)[0],
      captcha: captchaProblem(captcha, captchaText),
    };
    setErrors(next);
    if (next.content || next.contact || next.captcha) focusFirstInvalid();
    else send.mutate();
  };

  if (sent) {
    return (
      <div className="app-feedback__thanks" role="status">
        <IconTickCircle size="extra-large" className="app-feedback__thanks-icon" />
        <h3>感谢你的反馈！</h3>
        <p>我们已经收到你的意见，会在 1 至 3 个工作日内查看并处理。如果你留下了联系方式，处理后我们会通过它回复你。</p>
        <div className="app-form-actions">
          <Button onClick={() => setSent(false)}>再写一条</Button>
          {onClose && (
            <Button theme="solid" onClick={onClose}>
              关闭
            </Button>
          )}
        </div>
      </div>
    );
  }

  const clear = (field: Field) => setErrors((e) => ({ ...e, [field]: undefined }));
  return (
    <form ref={formRef} className="app-feedback" onSubmit={submit} noValidate aria-label="意见反馈">
      <TextAreaField
        id="feedback-content"
        label="反馈内容"
        value={content}
        onChange={(value) => {
          setContent(value);
          clear('content');
        }}
        placeholder="遇到了什么问题，或者有什么建议？"
        max={FEEDBACK_LIMITS.content}
        rows={5}
        error={errors.content}
      />
      <TextField
        id="feedback-contact"
        label="联系方式（选填）"
        value={contact}
        onChange={(value) => {
          setContact(value);
          clear('contact');
        }}
        placeholder="邮箱、手机或 QQ，方便我们回复你"
        error={errors.contact}
      />
      <div className="app-field">
        <span className="app-field__label" id="feedback-image-label">
          截图（选填）
        </span>
        <ImageUploadInput
          id="feedback-image"
          label="截图"
          target={screenshotUploadTarget}
          value={image}
          onChange={setImage}
        />
      </div>
      <CaptchaField
        captcha={captcha}
        value={captchaText}
        onChange={(value) => {
          setCaptchaText(value);
          clear('captcha');
        }}
        error={errors.captcha}
      />
      <div className="app-form-actions">
        <Button htmlType="submit" theme="solid" loading={send.isPending}>
          提交反馈
        </Button>
        {onClose && <Button onClick={onClose}>取消</Button>}
      </div>
    </form>
  );
}
