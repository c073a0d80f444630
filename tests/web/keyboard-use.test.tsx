// What a keyboard alone does on the public screens: the skip link past the header, and a form sent
// with wrong fields taking the keyboard to the first of them.
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearSession } from '../../web/src/features/session/session-store';
import { clearToasts } from '../../web/src/kit/toasts/toast-store';
import { renderApp } from './render-app';

afterEach(() =>
  act(() => {
    clearSession();
    clearToasts();
  }),
);

describe('keyboard use', () => {
  it("offers 跳到正文 as the first Tab stop, and Enter on it takes the keyboard past the header's links", async () => {
    const { router } = renderApp('/library');
    const main = await screen.findByRole('main');
    await userEvent.tab();
    const skip = screen.getByRole('link', { name: '跳到正文' });
    expect(document.activeElement).toBe(skip);
    await userEvent.keyboard('{Enter}');
    expect(document.activeElement).toBe(main);
    // Focused, not followed: the address keeps no #hash.
    expect(router.state.location.hash).toBe('');
    // The next Tab goes on inside the screen, not back to the header.
    await userEvent.tab();
    await waitFor(() => expect(main.contains(document.activeElement)).toBe(true));
  });
});
