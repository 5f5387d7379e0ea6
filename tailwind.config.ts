import type { Config } from 'tailwindcss';
import plugin from 'tailwindcss/plugin';

/**
 * Lantern's design tokens. Colours are declared once per theme here and exposed as CSS variables,
 * so every utility (`bg-surface`, `text-ink-muted`, ...) switches with the `.dark` class or the
 * system preference without a `dark:` variant at each use.
 * The look is a printed statement: paper, ink, hairlines, one accent, figures in tabular numerals.
 */
export const palette = {
  light: {
    canvas: '250 249 246', // page background, warm paper
    surface: '255 255 255', // cards and tables
    sunken: '243 242 238', // table headers, code
    line: '226 224 218', // hairlines
    ink: '28 30 33', // body text
    'ink-muted': '92 96 102', // secondary text (>= 4.5:1 on canvas and surface)
    accent: '22 83 126', // links, focus, selected
    'accent-soft': '226 236 245',
    positive: '21 115 71', // incoming, success
    negative: '176 42 55', // outgoing, failure
    warning: '138 90 0', // spam, syncing
    'warning-soft': '252 243 220',
  },
  dark: {
    canvas: '17 19 22',
    surface: '25 28 32',
    sunken: '32 36 41',
    line: '52 57 64',
    ink: '232 230 225',
    'ink-muted': '163 168 175',
    accent: '125 183 230',
    'accent-soft': '30 48 66',
    positive: '110 205 150',
    negative: '240 130 140',
    warning: '230 185 95',
    'warning-soft': '56 45 20',
  },
} as const;

type Token = keyof typeof palette.light;
const tokens = Object.keys(palette.light) as Token[];
const vars = (theme: keyof typeof palette) =>
  Object.fromEntries(tokens.map((t) => [`--c-${t}`, palette[theme][t]]));

const config: Config = {
  darkMode: 'class',
  content: ['./app/**/*.{ts,tsx}', './components/**/*.{ts,tsx}'],
  theme: {
    extend: {
      colors: Object.fromEntries(tokens.map((t) => [t, `rgb(var(--c-${t}) / <alpha-value>)`])),
      fontFamily: {
        sans: ['ui-sans-serif', 'system-ui', '-apple-system', 'Segoe UI', 'Roboto', 'Helvetica Neue', 'Arial', 'sans-serif'],
        mono: ['ui-monospace', 'SFMono-Regular', 'Menlo', 'Consolas', 'Liberation Mono', 'monospace'],
      },
      // A short, even type scale: statements read best with few sizes.
      fontSize: {
        xs: ['0.75rem', { lineHeight: '1.1rem' }],
        sm: ['0.8125rem', { lineHeight: '1.25rem' }],
        base: ['0.9375rem', { lineHeight: '1.5rem' }],
        lg: ['1.125rem', { lineHeight: '1.6rem' }],
        xl: ['1.375rem', { lineHeight: '1.8rem' }],
        '2xl': ['1.75rem', { lineHeight: '2.2rem' }],
      },
      borderRadius: { card: '0.5rem' },
      maxWidth: { page: '72rem' },
    },
  },
  plugins: [
    plugin(({ addBase }) => {
      addBase({
        ':root': { ...vars('light'), colorScheme: 'light' },
        '@media (prefers-color-scheme: dark)': { ':root:not(.light)': { ...vars('dark'), colorScheme: 'dark' } },
        ':root.dark': { ...vars('dark'), colorScheme: 'dark' },
      });
    }),
  ],
};

export default config;
