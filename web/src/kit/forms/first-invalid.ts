import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * A form's ref and `focusFirstInvalid()`, which a submit its checks refuse calls: once the errors
 * are drawn, the keyboard goes to the first field marked `aria-invalid`, and a screen reader reads
 * it with its message (the field's `aria-describedby`). Left on the button, a keyboard would have
 * to go back through the form to find what is wrong.
 */
export function useFirstInvalidFocus<E extends HTMLElement = HTMLFormElement>() {
  const ref = useRef<E>(null);
  const [requests, setRequests] = useState(0);
  useEffect(() => {
    if (requests > 0) ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [requests]);
  const focusFirstInvalid = useCallback(() => setRequests((n) => n + 1), []);
  return { ref, focusFirstInvalid };
}
