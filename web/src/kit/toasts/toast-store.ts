// Toasts of docs/product.md §3/§4/§9: at most 5 shown, each closes after 5000 ms and is removed 200 ms
// later (the time of its closing animation). Hovering or focusing a toast pauses its timer.
import { signal } from '@preact/signals-react';
import { TOAST } from '../../../../shared/constants';

export const TOAST_MAX = TOAST.maxShown;
export const TOAST_DURATION_MS = TOAST.durationMs;
export const TOAST_REMOVE_DELAY_MS = TOAST.removeDelayMs;

export type ToastColor = 'primary' | 'success' | 'info' | 'warning' | 'error' | 'neutral';
export type ToastIcon = 'success' | 'info' | 'warning' | 'error' | 'loading' | 'none';

export interface ToastAction {
  label: string;
  onClick: () => void;
}

export interface Toast {
  id: number;
  open: boolean;
  title: string;
  description?: string;
  icon: ToastIcon;
  color: ToastColor;
  actions: ToastAction[];
  /** Whether the toast shows a close button. */
  close: boolean;
  /** A later toast of the same key replaces this one while it is open. */
  key?: string;
}

export interface ToastInput {
  title: string;
  description?: string;
  icon?: ToastIcon;
  color?: ToastColor;
  actions?: ToastAction[];
  close?: boolean;
  /** ms before closing; 0 keeps the toast until it is closed by hand. */
  duration?: number;
  /** An open toast of the same key is taken away for this one, so repeats do not stack. */
  key?: string;
}

interface Timer {
  handle: ReturnType<typeof setTimeout> | undefined;
  remaining: number;
  startedAt: number;
}

export const toasts = signal<Toast[]>([]);
const timers = new Map<number, Timer>();
let nextId = 1;

const defaultIcon: Record<ToastColor, ToastIcon> = {
  primary: 'info',
  info: 'info',
  neutral: 'none',
  success: 'success',
  warning: 'warning',
  error: 'error',
};

function stopTimer(id: number): void {
  const timer = timers.get(id);
  if (timer?.handle !== undefined) clearTimeout(timer.handle);
  timers.delete(id);
}

function startTimer(id: number, ms: number): void {
  if (ms <= 0) return;
  timers.set(id, { handle: setTimeout(() => closeToast(id), ms), remaining: ms, startedAt: Date.now() });
}

export function addToast(input: ToastInput): number {
  const id = nextId++;
  const color = input.color ?? 'primary';
  const toast: Toast = {
    id,
    open: true,
    title: input.title,
    description: input.description,
    icon: input.icon ?? defaultIcon[color],
    color,
    actions: input.actions ?? [],
    close: input.close ?? true,
    key: input.key,
  };
  const replaced = input.key === undefined ? [] : toasts.value.filter((t) => t.open && t.key === input.key);
  for (const old of replaced) stopTimer(old.id);
  let list = [...toasts.value.filter((t) => !replaced.includes(t)), toast];
  while (list.length > TOAST_MAX) {
    const dropped = list[0];
    if (dropped) stopTimer(dropped.id);
    list = list.slice(1);
  }
  toasts.value = list;
  startTimer(id, input.duration ?? TOAST_DURATION_MS);
  return id;
}

export function closeToast(id: number): void {
  stopTimer(id);
  const toast = toasts.value.find((t) => t.id === id);
  if (!toast || !toast.open) return;
  toasts.value = toasts.value.map((t) => (t.id === id ? { ...t, open: false } : t));
  setTimeout(() => removeToast(id), TOAST_REMOVE_DELAY_MS);
}

/** Closes the open toasts of `key`. */
export function closeToastsOf(key: string): void {
  for (const t of toasts.value) if (t.open && t.key === key) closeToast(t.id);
}

export function removeToast(id: number): void {
  stopTimer(id);
  toasts.value = toasts.value.filter((t) => t.id !== id);
}

export function pauseToast(id: number): void {
  const timer = timers.get(id);
  if (!timer || timer.handle === undefined) return;
  clearTimeout(timer.handle);
  timer.remaining = Math.max(0, timer.remaining - (Date.now() - timer.startedAt));
  timer.handle = undefined;
}

export function resumeToast(id: number): void {
  const timer = timers.get(id);
  if (!timer || timer.handle !== undefined) return;
  timer.startedAt = Date.now();
  timer.handle = setTimeout(() => closeToast(id), timer.remaining);
}

export function clearToasts(): void {
  for (const id of timers.keys()) stopTimer(id);
  toasts.value = [];
}

/**
 * A success toast replaces an open one that says the same (title and message): 修改成功 of a profile
 * saved twice shows once, as a failure repeated does (failure-toast.ts), while 修改成功 of the profile
 * and of the password, which say different things, stand side by side.
 */
const successKey = (title: string, description?: string) => `success:${title}:${description ?? ''}`;

export const toast = {
  success: (title: string, description?: string) =>
    addToast({ title, description, color: 'success', key: successKey(title, description) }),
  info: (title: string, description?: string) => addToast({ title, description, color: 'info' }),
  warning: (title: string, description?: string) => addToast({ title, description, color: 'warning' }),
  error: (title: string, description?: string) => addToast({ title, description, color: 'error' }),
};
