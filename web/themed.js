// themed.js: a theme's palette as CSS custom properties, kept current from a themed server.
//
//   import { ThemedPalette } from "http://localhost:8080/themed.js";
//   const palette = new ThemedPalette({ server: "http://localhost:8080", theme: "light" });
//   await palette.start();               // applies --primary, --background, ... to <html>
//   palette.setAppearance("dark");       // "light", "dark" or "auto" (the system's choice)
//
// No dependencies. It fetches the theme's resolved palette (GET /themes/{t}/colors?appearance=),
// sets one custom property per colour on an element (names as in /themes/{t}/colors.css), keeps
// the last palette in localStorage and applies it when the server is away, and follows
// /events with EventSource, reconnecting with Last-Event-ID after the server restarts.

/** The CSS name of a colour, by the rule of docs/EXPORTS.md (the same as colors.css). */
export function cssName(name) {
  const words = [];
  for (const run of name.match(/[A-Za-z0-9]+/g) ?? []) {
    let start = 0;
    for (let i = 1; i < run.length; i++) {
      const before = run[i - 1], here = run[i], after = run[i + 1] ?? "";
      const upper = (c) => c >= "A" && c <= "Z", lower = (c) => c >= "a" && c <= "z", digit = (c) => c >= "0" && c <= "9";
      if (upper(here) && (lower(before) || digit(before) || (upper(before) && lower(after)))) {
        words.push(run.slice(start, i));
        start = i;
      }
    }
    words.push(run.slice(start));
  }
  return "--" + (words.length ? words.map((w) => w.toLowerCase()).join("-") : "color");
}

/** Custom property names for a list of colour names, collisions numbered as colors.css does. */
export function cssNames(names) {
  const claims = new Map();
  for (const name of names) {
    const plain = cssName(name);
    if (!claims.has(plain)) claims.set(plain, []);
    claims.get(plain).push(name);
  }
  const taken = new Set(claims.keys());
  const result = new Map();
  for (const [plain, group] of claims) {
    result.set(group[0], plain);
    let number = 2;
    for (const later of group.slice(1)) {
      while (taken.has(`${plain}-${number}`)) number++;
      taken.add(`${plain}-${number}`);
      result.set(later, `${plain}-${number}`);
    }
  }
  return result;
}

export class ThemedPalette extends EventTarget {
  /**
   * @param {object} options
   * @param {string} [options.server]  the server's origin ("" for the page's own)
   * @param {string} [options.theme]   a theme name, or "current" for the server's active theme
   * @param {string} [options.appearance]  "auto" (default), "light" or "dark"
   * @param {string} [options.contrast]    "auto" (default), "normal" or "high"
   * @param {Element} [options.element]    where the custom properties go (default <html>)
   */
  constructor({ server = "", theme = "current", appearance = "auto", contrast = "auto", element = document.documentElement } = {}) {
    super();
    this.server = server.replace(/\/$/, "");
    this.theme = theme;
    this.appearance = appearance;
    this.contrast = contrast;
    this.element = element;
    /** The colours applied last: {name: {css, hex, ...}} as the server resolved them. */
    this.colors = {};
    /** "loading", "live", "offline" (the last palette, while the server is away) or "error". */
    this.status = "loading";
    this.lastEventId = null;
    this.applied = new Set();
    this.events = null;
    this.retryDelay = 500;
    this.generation = 0;
    this.schemeQuery = window.matchMedia("(prefers-color-scheme: dark)");
    this.contrastQuery = window.matchMedia("(prefers-contrast: more)");
    this.onSystemChange = () => this.refresh();
  }

  /** Applies the cached palette at once, then the server's, and follows its events. */
  async start() {
    this.applyCached();
    this.schemeQuery.addEventListener("change", this.onSystemChange);
    this.contrastQuery.addEventListener("change", this.onSystemChange);
    this.follow();
    await this.refresh();
  }

  stop() {
    this.schemeQuery.removeEventListener("change", this.onSystemChange);
    this.contrastQuery.removeEventListener("change", this.onSystemChange);
    this.generation++;
    this.events?.close();
    this.events = null;
  }

  /**
   * Follows an alias: asks /assign/{alias} which theme and generation this page reads (by a client
   * id made once and kept in localStorage, so the page stays in its rollout bucket, and the
   * platform, app version, locale and attributes given), then reads everything at the
   * generation-pinned base, and asks again on an `assignment-changed` event naming the alias or
   * when the pinned generation is no longer served.
   */
  async followAlias(alias, { platform = "web", appVersion, locale = navigator.language, attributes = {} } = {}) {
    const query = new URLSearchParams({ client: this.clientId, platform, ...(appVersion ? { appVersion } : {}), ...(locale ? { locale } : {}), ...attributes });
    this.audience = { alias, query: query.toString() };
    await this.assign();
    await this.refresh();
    return this.assignment;
  }

  /** The id this page gives /assign: made once and kept. */
  get clientId() {
    let id = null;
    try { id = localStorage.getItem("themed:client-id"); } catch { id = null; }
    if (!id) {
      id = crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2);
      try { localStorage.setItem("themed:client-id", id); } catch { /* storage denied: this page's life */ }
    }
    return id;
  }

  /** Asks /assign again and follows the answer's pinned base (`theme@generation`). */
  async assign() {
    const url = `${this.server}/assign/${encodeURIComponent(this.audience.alias)}?${this.audience.query}`;
    // Asked again because it changed: not the answer the browser kept (private, max-age=60).
    const response = await fetch(url, { headers: { Accept: "application/json" }, cache: "no-cache" });
    if (!response.ok) throw new Error(`${response.status} from ${url}`);
    this.assignment = await response.json();
    this.theme = `${this.assignment.theme}@${this.assignment.generation}`;
    this.dispatchEvent(new CustomEvent("assignment", { detail: this.assignment }));
    return this.assignment;
  }

  async setTheme(theme) {
    this.audience = null;
    this.theme = theme;
    this.applyCached();
    await this.refresh();
  }

  async setAppearance(appearance) {
    this.appearance = appearance;
    this.applyCached();
    await this.refresh();
  }

  async setContrast(contrast) {
    this.contrast = contrast;
    await this.refresh();
  }

  /** The scheme in effect: the chosen one, or the system's for "auto". */
  get scheme() {
    return this.appearance === "auto" ? (this.schemeQuery.matches ? "dark" : "light") : this.appearance;
  }

  get highContrast() {
    return this.contrast === "auto" ? this.contrastQuery.matches : this.contrast === "high";
  }

  get paletteURL() {
    const query = `appearance=${this.scheme}&contrast=${this.highContrast ? "high" : "normal"}`;
    return `${this.server}/themes/${encodeURIComponent(this.theme)}/colors?${query}`;
  }

  get cacheKey() {
    return `themed:${this.paletteURL}`;
  }

  /** Fetches the palette for the current choice and applies it; keeps the last one on failure. */
  async refresh() {
    const url = this.paletteURL;
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" } });
      // The pinned generation is no longer served: the assignment has moved on.
      // Read again only when the assignment moved (a theme that is gone would 404 again, and again).
      if (response.status === 404 && this.audience) {
        const pinned = this.theme;
        await this.assign();
        if (this.theme !== pinned) return this.refresh();
      }
      if (!response.ok) throw new Error(`${response.status} from ${url}`);
      const body = await response.json();
      if (url !== this.paletteURL) return; // the choice changed while this was on its way
      this.apply(body.colors ?? {});
      try { localStorage.setItem(this.cacheKey, JSON.stringify(body.colors ?? {})); } catch { /* storage full or denied */ }
      this.setStatus("live");
    } catch (error) {
      this.setStatus(this.applyCached() ? "offline" : "error", error);
    }
  }

  /** The last palette stored for the current choice, applied; false when there is none. */
  applyCached() {
    let cached = null;
    try { cached = JSON.parse(localStorage.getItem(this.cacheKey) ?? "null"); } catch { cached = null; }
    if (!cached || typeof cached !== "object") return false;
    this.apply(cached);
    return true;
  }

  apply(colors) {
    const names = cssNames(Object.keys(colors));
    const next = new Set();
    for (const [name, color] of Object.entries(colors)) {
      if (typeof color?.css !== "string" || !color.css) continue;
      const property = names.get(name);
      this.element.style.setProperty(property, color.css);
      next.add(property);
    }
    for (const property of this.applied) if (!next.has(property)) this.element.style.removeProperty(property);
    this.applied = next;
    this.element.dataset.theme = this.scheme;
    this.colors = colors;
    this.dispatchEvent(new CustomEvent("palette", { detail: { theme: this.theme, scheme: this.scheme, colors } }));
  }

  setStatus(status, error) {
    if (status === this.status && !error) return;
    this.status = status;
    this.dispatchEvent(new CustomEvent("status", { detail: { status, error: error ? String(error.message ?? error) : null } }));
  }

  /**
   * Follows /events. EventSource reconnects by itself while the server is merely unreachable; a
   * server that answers an error (503 while it starts) closes it, so this opens a new one after
   * a growing delay, naming the last event seen so none is missed.
   */
  follow() {
    const generation = this.generation;
    const query = this.lastEventId === null ? "" : `?lastEventId=${encodeURIComponent(this.lastEventId)}`;
    const events = new EventSource(`${this.server}/events${query}`);
    this.events = events;
    const handle = (event) => {
      if (event.lastEventId) this.lastEventId = event.lastEventId;
      this.retryDelay = 500;
      let data = {};
      try { data = JSON.parse(event.data); } catch { data = {}; }
      this.dispatchEvent(new CustomEvent("change", { detail: { type: event.type, ...data } }));
      if (event.type === "assignment-changed") {
        if (this.audience && data.alias === this.audience.alias) this.assign().then(() => this.refresh(), (error) => this.setStatus("error", error));
        return;
      }
      const theme = this.theme.split("@")[0];
      const concernsUs = event.type === "resync" || data.theme === theme || this.theme === "current" && event.type === "active-changed";
      if (concernsUs || this.theme === "current") this.refresh();
    };
    for (const type of ["theme-added", "theme-reloaded", "theme-removed", "theme-error", "active-changed", "assignment-changed", "resync"]) {
      events.addEventListener(type, handle);
    }
    events.onopen = () => {
      // Back after an outage: what changed meanwhile is replayed, but the palette may be stale.
      if (this.status !== "live") this.refresh();
    };
    events.onerror = () => {
      if (this.status === "live") this.setStatus("offline");
      if (events.readyState !== EventSource.CLOSED) return;
      const delay = this.retryDelay;
      this.retryDelay = Math.min(this.retryDelay * 2, 10000);
      setTimeout(() => { if (generation === this.generation) this.follow(); }, delay * (0.5 + Math.random() / 2));
    };
  }
}
