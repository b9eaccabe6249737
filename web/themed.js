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
   * @param {number} [options.requestTimeout]  milliseconds one request may take (default 10000)
   */
  constructor({ server = "", theme = "current", appearance = "auto", contrast = "auto", element = document.documentElement,
                requestTimeout = 10000 } = {}) {
    super();
    this.server = server.replace(/\/$/, "");
    this.theme = theme;
    this.appearance = appearance;
    this.contrast = contrast;
    this.element = element;
    this.requestTimeout = requestTimeout;
    /** The colours applied last: {name: {css, hex, ...}} as the server resolved them. */
    this.colors = {};
    /** "connecting", "live", "offline" (the last palette, while the server is away) or "degraded". */
    this.status = "connecting";
    /** The id of the last event handled (its refresh, if it asked for one, succeeded). */
    this.lastEventId = null;
    this.applied = new Set();
    this.events = null;
    this.retryDelay = 500;
    this.generation = 0;
    // Each palette request is numbered: an answer older than the one applied is dropped.
    this.requestsMade = 0;
    this.requestApplied = 0;
    /** The palette URL `colors` answers. */
    this.appliedURL = null;
    /** The server's answer applied: its theme and the revision of each theme of its chain. */
    this.held = null;
    this.inFlight = new Set();
    this.schemeQuery = window.matchMedia("(prefers-color-scheme: dark)");
    this.contrastQuery = window.matchMedia("(prefers-contrast: more)");
    this.onSystemChange = () => this.refresh();
    // Back in the foreground or on the network: revalidate (a 304 costs nothing).
    this.onReturn = () => { if (document.visibilityState !== "hidden") this.revalidate(); };
  }

  /** Applies the cached palette at once, then the server's, and follows its events. */
  async start() {
    this.applyCached();
    this.schemeQuery.addEventListener("change", this.onSystemChange);
    this.contrastQuery.addEventListener("change", this.onSystemChange);
    document.addEventListener("visibilitychange", this.onReturn);
    window.addEventListener("online", this.onReturn);
    this.follow();
    await this.refresh();
  }

  /** Stops following and aborts every request in flight; nothing is fetched after. */
  stop() {
    this.schemeQuery.removeEventListener("change", this.onSystemChange);
    this.contrastQuery.removeEventListener("change", this.onSystemChange);
    document.removeEventListener("visibilitychange", this.onReturn);
    window.removeEventListener("online", this.onReturn);
    this.stopped = true;
    this.generation++;
    this.events?.close();
    this.events = null;
    for (const controller of this.inFlight) controller.abort();
    this.inFlight.clear();
  }

  /**
   * Follows an alias: asks /assign/{alias} which theme and generation this page reads (by a client
   * id made once and kept in localStorage, so the page stays in its rollout bucket, and the
   * platform, app version, locale and attributes given), then reads everything at the
   * generation-pinned base, and asks again on an `assignment-changed` event naming the alias, a
   * `resync`, a reopened stream, or when the pinned generation is no longer served. The answer is
   * kept in localStorage: with the server away, the page follows the last assignment it was given.
   */
  async followAlias(alias, { platform = "web", appVersion, locale = navigator.language, attributes = {} } = {}) {
    const query = new URLSearchParams({ client: this.clientId, platform, ...(appVersion ? { appVersion } : {}), ...(locale ? { locale } : {}), ...attributes });
    this.audience = { alias, query: query.toString() };
    this.reopen();
    try {
      await this.assign();
    } catch (error) {
      const kept = this.keptAssignment(alias);
      if (!kept) throw error;
      this.take(kept);
      this.applyCached();
      this.setStatus("offline", error);
      return this.assignment;
    }
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
    const alias = this.audience.alias;
    const url = `${this.server}/assign/${encodeURIComponent(alias)}?${this.audience.query}`;
    // Asked again because it changed: not the answer the browser kept (private, max-age=60).
    const response = await this.fetch(url, { headers: { Accept: "application/json" }, cache: "no-cache" });
    if (!response.ok) throw new Error(`${response.status} from ${url}`);
    const assignment = await response.json();
    if (typeof assignment?.theme !== "string" || !Number.isInteger(assignment?.generation)) throw new Error(`not an assignment from ${url}`);
    if (this.audience?.alias !== alias) return assignment; // left for setTheme while it was on its way
    try { localStorage.setItem(`themed:assignment:${alias}`, JSON.stringify(assignment)); } catch { /* storage full or denied */ }
    this.take(assignment);
    return assignment;
  }

  take(assignment) {
    this.assignment = assignment;
    this.theme = `${assignment.theme}@${assignment.generation}`;
    this.dispatchEvent(new CustomEvent("assignment", { detail: assignment }));
  }

  keptAssignment(alias) {
    try { return JSON.parse(localStorage.getItem(`themed:assignment:${alias}`) ?? "null"); } catch { return null; }
  }

  /** Follows another theme (or "current"); it stops following an alias. */
  async setTheme(theme) {
    this.audience = null;
    this.assignment = null;
    this.theme = theme;
    this.applyCached();
    this.reopen();
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

  /** fetch, aborted by stop() and after `requestTimeout`. */
  async fetch(url, options = {}) {
    if (this.stopped) throw new Error("stopped");
    const controller = new AbortController();
    this.inFlight.add(controller);
    const timer = setTimeout(() => controller.abort(new Error(`no answer within ${this.requestTimeout} ms`)), this.requestTimeout);
    try {
      return await fetch(url, { ...options, signal: controller.signal });
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(controller);
    }
  }

  /** Revalidates: the assignment first when following an alias, then the palette. */
  async revalidate() {
    if (this.audience) {
      try { await this.assign(); } catch (error) { this.setStatus("offline", error); return false; }
    }
    return this.refresh();
  }

  /**
   * Fetches the palette for the current choice and applies it, unless an answer to a later
   * request was applied first or the choice changed meanwhile; keeps the last one on failure.
   * Returns whether it succeeded.
   */
  async refresh() {
    if (this.stopped) return false;
    const url = this.paletteURL, number = ++this.requestsMade;
    try {
      // Revalidated with the server every time (a 304 when nothing changed): after an event, the
      // browser's cache may hold a palette up to its max-age old.
      const response = await this.fetch(url, { headers: { Accept: "application/json" }, cache: "no-cache" });
      // The pinned generation is no longer served: the assignment has moved on.
      // Read again only when the assignment moved (a theme that is gone would 404 again, and again).
      if (response.status === 404 && this.audience) {
        const pinned = this.theme;
        await this.assign();
        if (this.theme !== pinned) return this.refresh();
      }
      if (!response.ok) throw new Error(`${response.status} from ${url}`);
      const body = parsePalette(await response.text(), url);
      if (url !== this.paletteURL || number < this.requestApplied) return true; // a later answer or choice won
      this.requestApplied = number;
      const degraded = body.status === "degraded";
      const missing = degraded ? this.keepMissing(body.colors, url) : [];
      this.apply(body.colors, url);
      this.held = { theme: body.theme, revisions: body.revisions && typeof body.revisions === "object" ? body.revisions : {} };
      // Only a whole palette replaces the stored copy: a degraded one would lose the missing colours.
      if (!degraded) try { localStorage.setItem(this.cacheKey, JSON.stringify(body.colors)); } catch { /* storage full or denied */ }
      this.setStatus(degraded ? "degraded" : "live", null, missing);
      return true;
    } catch (error) {
      if (this.stopped) return false;
      if (!this.appliedURL) this.applyCached();
      this.setStatus("offline", error);
      return false;
    }
  }

  /** Adds to a degraded answer's colours the last good value of each it lacks; their names. */
  keepMissing(colors, url) {
    const good = this.appliedURL === url ? this.colors : this.cached();
    const missing = Object.keys(good ?? {}).filter((name) => !(name in colors)).sort();
    for (const name of missing) colors[name] = good[name];
    return missing;
  }

  /** The palette stored for the current choice, or null. */
  cached() {
    try {
      const cached = JSON.parse(localStorage.getItem(this.cacheKey) ?? "null");
      return cached && typeof cached === "object" ? cached : null;
    } catch { return null; }
  }

  /** The last palette stored for the current choice, applied; false when there is none. */
  applyCached() {
    const cached = this.cached();
    if (!cached) return false;
    this.apply(cached, this.paletteURL);
    return true;
  }

  apply(colors, url) {
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
    this.appliedURL = url;
    this.held = null; // what the server answered with it is set by refresh()
    this.element.dataset.theme = this.scheme;
    this.colors = colors;
    this.dispatchEvent(new CustomEvent("palette", { detail: { theme: this.theme, scheme: this.scheme, colors } }));
  }

  setStatus(status, error, missing = []) {
    if (status === this.status && !error && status !== "degraded") return;
    this.status = status;
    this.dispatchEvent(new CustomEvent("status", { detail: { status, error: error ? String(error.message ?? error) : null, missing } }));
  }

  /** What the stream asks for: the alias followed, else the theme (or `current`). */
  get followed() {
    return this.audience?.alias ?? this.theme;
  }

  /** Closes the stream and opens one for what is followed now, resuming after the last id handled. */
  reopen() {
    if (!this.events) return;
    this.generation++;
    this.events.close();
    this.follow();
  }

  /**
   * Follows /events?theme= what the page follows (the server sends that theme's and its parents'
   * changes). Each (re)open revalidates; an event's id is taken as handled only once the refresh
   * it asked for succeeded: a failed one closes the stream, and the stream reopened after the
   * last id handled replays it. EventSource reconnects by itself while the server is merely
   * unreachable; a server that answers an error (503 while it starts) closes it, so this opens a
   * new one after a growing delay.
   */
  follow() {
    if (this.stopped) return;
    const generation = this.generation, followed = this.followed;
    const query = new URLSearchParams({ theme: followed });
    if (this.lastEventId !== null) query.set("lastEventId", this.lastEventId);
    const events = new EventSource(`${this.server}/events?${query}`);
    this.events = events;
    // Events are handled one at a time, in order, each after the one before it succeeded.
    let queue = Promise.resolve(true);
    const retry = () => {
      if (generation !== this.generation) return;
      this.generation++;
      events.close();
      const delay = this.retryDelay;
      this.retryDelay = Math.min(this.retryDelay * 2, 10000);
      setTimeout(() => { if (!this.stopped) this.follow(); }, delay * (0.5 + Math.random() / 2));
    };
    const handle = (event) => {
      queue = queue.then(async (going) => {
        if (!going || generation !== this.generation) return false;
        let data = {};
        try { data = JSON.parse(event.data); } catch { data = {}; }
        this.dispatchEvent(new CustomEvent("change", { detail: { type: event.type, ...data } }));
        if (!(await this.handle(event.type, data))) { retry(); return false; }
        if (event.lastEventId) this.lastEventId = event.lastEventId;
        return true;
      });
    };
    for (const type of ["theme-added", "theme-reloaded", "theme-removed", "theme-error", "active-changed", "assignment-changed", "resync"]) {
      events.addEventListener(type, handle);
    }
    events.onopen = () => {
      this.retryDelay = 500;
      // (Re)opened: what changed meanwhile is replayed, unless the server no longer had it or
      // never saw this page; revalidate either way (a 304 costs nothing).
      queue = queue.then(async (going) => {
        if (!going || generation !== this.generation) return false;
        if (!(await this.revalidate())) { retry(); return false; }
        return true;
      });
    };
    events.onerror = () => {
      if (this.status === "live") this.setStatus("offline");
      if (events.readyState === EventSource.CLOSED) retry();
    };
  }

  /** What an event asks of the page; false when the refresh it asked for failed. */
  async handle(type, data) {
    if (type === "assignment-changed") {
      if (!this.audience || data.alias !== this.audience.alias) return true;
      try {
        const before = this.theme;
        await this.assign();
        if (this.theme === before) return true;
      } catch (error) { this.setStatus("offline", error); return false; }
    } else if (type === "resync") {
      if (this.audience) {
        try { await this.assign(); } catch (error) { this.setStatus("offline", error); return false; }
      }
    } else if (type === "active-changed") {
      if (this.theme !== "current" || this.holds(data, true)) return true;
    } else if (type === "theme-error") {
      return true;
    } else if (this.holds(data, false)) {
      return true; // a replayed change the palette applied already has
    }
    // The stream's events concern this page (its theme and its parents'). One that reaches a crowd
    // asks each page to wait a random part of `refetchWithin` before it fetches.
    if (data.refetchWithin > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(data.refetchWithin, 60000)));
    return this.refresh();
  }

  /**
   * Whether the palette applied already has what an event announces: the revision it names of
   * its theme (`asTheme`: as the palette's own theme, for a switch, not only in its chain).
   */
  holds(data, asTheme) {
    if (!this.held || typeof data.revision !== "string" || !data.revision || typeof data.theme !== "string") return false;
    return Object.hasOwn(this.held.revisions, data.theme) && this.held.revisions[data.theme] === data.revision
      && (!asTheme || this.held.theme === data.theme);
  }
}

/** A palette answer, or an error naming what is wrong with it (a captive portal's page, no colours). */
function parsePalette(text, url) {
  let body;
  try { body = JSON.parse(text); } catch { throw new Error(`not JSON from ${url}`); }
  if (!body || typeof body !== "object" || !body.colors || typeof body.colors !== "object" || Array.isArray(body.colors)) {
    throw new Error(`not a resolved palette from ${url}`);
  }
  for (const [name, color] of Object.entries(body.colors)) {
    if (typeof color?.css !== "string") throw new Error(`colour ${name} has no css in ${url}`);
  }
  return body;
}
