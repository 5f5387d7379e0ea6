'use client';

import { useSyncExternalStore } from 'react';
import { THEME_KEY } from './theme-script';

/**
 * Light, dark, or the system's choice (the default). The choice is kept in localStorage and applied
 * as a class on <html>; THEME_SCRIPT (theme-script.ts) applies it before first paint so no page flashes the wrong theme.
 */
export type ThemeChoice = 'system' | 'light' | 'dark';

const listeners = new Set<() => void>();

function read(): ThemeChoice {
  try {
    const t = localStorage.getItem(THEME_KEY);
    return t === 'light' || t === 'dark' ? t : 'system';
  } catch {
    return 'system';
  }
}

function apply(choice: ThemeChoice) {
  try {
    if (choice === 'system') localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, choice);
  } catch {
    // private mode: the choice lasts for this page only
  }
  const root = document.documentElement.classList;
  root.remove('light', 'dark');
  if (choice !== 'system') root.add(choice);
  for (const l of listeners) l();
}

function subscribe(l: () => void) {
  listeners.add(l);
  const onStorage = (e: StorageEvent) => e.key === THEME_KEY && apply(read());
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(l);
    window.removeEventListener('storage', onStorage);
  };
}

const NEXT: Record<ThemeChoice, ThemeChoice> = { system: 'light', light: 'dark', dark: 'system' };
const LABEL: Record<ThemeChoice, string> = { system: 'System theme', light: 'Light theme', dark: 'Dark theme' };

export function ThemeToggle() {
  // The server cannot know the stored choice: it renders "system" and the client corrects after hydration.
  const choice = useSyncExternalStore(subscribe, read, () => 'system' as ThemeChoice);
  return (
    <button
      type="button"
      onClick={() => apply(NEXT[choice])}
      aria-label={`${LABEL[choice]}; switch to ${LABEL[NEXT[choice]].toLowerCase()}`}
      title={`${LABEL[choice]} (click for ${LABEL[NEXT[choice]].toLowerCase()})`}
      className="inline-flex h-8 w-8 items-center justify-center rounded-card border border-line text-ink-muted hover:border-accent hover:text-ink"
      data-theme-choice={choice}
    >
      <svg aria-hidden="true" width="16" height="16" viewBox="0 0 16 16">
        {choice === 'dark' ? (
          <path d="M13 9.5A5.5 5.5 0 0 1 6.5 3a5.5 5.5 0 1 0 6.5 6.5z" fill="currentColor" />
        ) : choice === 'light' ? (
          <g fill="none" stroke="currentColor" strokeWidth="1.4">
            <circle cx="8" cy="8" r="3" />
            <path d="M8 1v2M8 13v2M1 8h2M13 8h2M3 3l1.4 1.4M11.6 11.6L13 13M3 13l1.4-1.4M11.6 4.4L13 3" />
          </g>
        ) : (
          <g fill="none" stroke="currentColor" strokeWidth="1.4">
            <circle cx="8" cy="8" r="6" />
            <path d="M8 2a6 6 0 0 1 0 12z" fill="currentColor" />
          </g>
        )}
      </svg>
    </button>
  );
}
