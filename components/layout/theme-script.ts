/** Shared by the toggle (client) and the root layout (server): a plain module, not a client one. */
export const THEME_KEY = 'lantern-theme';

/** Runs inline in <head> before first paint, so no page flashes the wrong theme. Tiny, no imports. */
export const THEME_SCRIPT = `try{var t=localStorage.getItem('${THEME_KEY}');if(t==='light'||t==='dark')document.documentElement.classList.add(t)}catch(e){}`;
