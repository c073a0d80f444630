import { useCallback, useState } from 'react';

// Text typed into a form, kept in the tab's sessionStorage under `key` while it is typed: a reader
// who leaves the page (a link, a reload) finds it again on coming back; an empty text is forgotten.
// Where the storage cannot be used (turned off, full), the text lives as long as the form.

function read(key: string): string {
  try {
    return sessionStorage.getItem(key) ?? '';
  } catch {
    return '';
  }
}

function write(key: string, text: string): void {
  try {
    if (text) sessionStorage.setItem(key, text);
    else sessionStorage.removeItem(key);
  } catch {
    // kept in the form only
  }
}

/** The draft kept under `key`, and its setter; another key (another page in the same form) reads its own. */
export function useSessionDraft(key: string): [string, (text: string) => void] {
  const [draft, setDraft] = useState(() => ({ key, text: read(key) }));
  let current = draft;
  if (draft.key !== key) {
    current = { key, text: read(key) };
    setDraft(current);
  }
  const update = useCallback(
    (text: string) => {
      setDraft({ key, text });
      write(key, text);
    },
    [key],
  );
  return [current.text, update];
}
