// The gallery: every theme themed serves, and per theme its colours in each appearance, images at
// each scale and appearance, strings per language, sources and exports. It is built on themed.js
// like any web app, and redraws itself when /events says the theme changed.
//
// Everything a theme file names is put into the page as text (textContent, or URL-encoded in
// attributes), never as markup, and the server sends a Content-Security-Policy that allows no
// inline script: a theme cannot inject markup or script.
import { ThemedPalette } from "/themed.js";

const MODES = [
  { name: "light", label: "Light", query: "appearance=light&contrast=normal&gamut=srgb" },
  { name: "dark", label: "Dark", query: "appearance=dark&contrast=normal&gamut=srgb" },
  { name: "light-high-contrast", label: "Light, high contrast", query: "appearance=light&contrast=high&gamut=srgb" },
  { name: "dark-high-contrast", label: "Dark, high contrast", query: "appearance=dark&contrast=high&gamut=srgb" },
  { name: "light-p3", label: "Light, P3", query: "appearance=light&contrast=normal&gamut=p3" },
  { name: "dark-p3", label: "Dark, P3", query: "appearance=dark&contrast=normal&gamut=p3" },
];
const MAX_STRING_DETAILS = 200;
const $ = (id) => document.getElementById(id);

/** An element with text and attributes; children appended as they come. */
function el(tag, { text, className, attrs = {} } = {}, ...children) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = String(text);
  if (className) node.className = className;
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  for (const child of children) if (child) node.append(child);
  return node;
}

async function getJSON(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`${response.status} ${path}`);
  return response.json();
}

const themePath = (theme) => `/themes/${encodeURIComponent(theme)}`;

/** The theme the address names (`/themes/{t}/gallery`), or null on `/`. */
function themeFromLocation() {
  const match = location.pathname.match(/^\/themes\/([^/]+)\/gallery\/?$/);
  return match ? decodeURIComponent(match[1]) : null;
}

// Relative luminance and contrast ratio (WCAG 2), from 8-bit sRGB hex.
function luminance(hex) {
  const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2];
}
function contrast(hexA, hexB) {
  const [a, b] = [luminance(hexA), luminance(hexB)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}

class Gallery {
  constructor() {
    this.theme = themeFromLocation();
    this.palette = new ThemedPalette({ theme: this.theme ?? "current", element: $("preview") });
    this.redrawTimer = null;
    this.generation = 0;
    // A token theme's modifiers chosen by name (`brand` -> `portal`), by theme.
    this.contexts = new Map();
  }

  async start() {
    this.bindControls();
    this.palette.addEventListener("status", (event) => this.showStatus(event.detail.status));
    this.palette.addEventListener("change", (event) => {
      const { type, theme } = event.detail;
      if (this.theme === null || type === "resync" || theme === this.theme || type === "theme-added" || type === "theme-removed") {
        this.scheduleRedraw();
      }
    });
    window.addEventListener("popstate", () => { this.theme = themeFromLocation(); this.draw(); });
    await this.draw();
    await this.palette.start();
  }

  bindControls() {
    for (const radio of document.querySelectorAll('input[name="appearance"]')) {
      radio.addEventListener("change", () => this.setAppearance(radio.value));
    }
    $("contrast-control").addEventListener("change", (event) => this.palette.setContrast(event.target.checked ? "high" : "normal"));
    $("theme-select").addEventListener("change", (event) => this.openTheme(event.target.value));
  }

  setAppearance(appearance) {
    // The page follows too, so what is shown reads well in the chosen appearance.
    document.documentElement.style.colorScheme = appearance === "auto" ? "light dark" : appearance;
    document.documentElement.dataset.appearance = appearance;
    this.palette.setAppearance(appearance);
    this.markCurrentMode();
  }

  openTheme(theme) {
    history.pushState(null, "", `${themePath(theme)}/gallery`);
    this.theme = theme;
    this.palette.setTheme(theme);
    this.draw();
  }

  showStatus(status) {
    const label = { live: "live", offline: "server away: showing the last palette", degraded: "degraded: some colours are the last good ones",
                    connecting: "connecting" }[status] ?? status;
    $("connection").textContent = label;
    $("connection").dataset.status = status;
  }

  scheduleRedraw() {
    clearTimeout(this.redrawTimer);
    this.redrawTimer = setTimeout(() => this.draw(), 100);
  }

  async draw() {
    const generation = ++this.generation;
    let themes;
    try {
      themes = (await getJSON("/themes")).themes;
    } catch (error) {
      this.showStatus("error");
      return;
    }
    if (generation !== this.generation) return;
    this.fillThemeSelect(themes);
    $("themes-view").hidden = this.theme !== null;
    $("theme-view").hidden = this.theme === null;
    if (this.theme === null) {
      this.drawThemeList(themes);
      await Promise.all([this.drawAliases(), this.drawRollouts()]);
      document.title = "themed gallery";
    } else {
      await this.drawTheme(generation);
    }
    document.body.dataset.drawn = String(generation);
  }

  fillThemeSelect(themes) {
    const select = $("theme-select");
    select.replaceChildren(...themes.map((theme) => el("option", { text: theme.name, attrs: { value: theme.name } })));
    if (this.theme === null) select.prepend(el("option", { text: "(all themes)", attrs: { value: "", disabled: "" } }));
    select.value = this.theme ?? "";
  }

  drawThemeList(themes) {
    $("themes-body").replaceChildren(...themes.map((theme) => {
      const link = el("a", { text: theme.name, attrs: { href: `${themePath(theme.name)}/gallery` } });
      const status = theme.errors?.length ? "degraded" : "ok";
      const statusCell = el("td", { className: `status-${status}` }, el("span", { text: status }));
      for (const error of theme.errors ?? []) statusCell.append(el("div", { text: error, className: "errors" }));
      for (const warning of theme.warnings ?? []) statusCell.append(el("div", { text: warning, className: "warnings" }));
      return el("tr", { attrs: { "data-theme-row": theme.name } },
        el("th", { attrs: { scope: "row" } }, link), el("td", { text: theme.parent ?? "" }),
        el("td", { text: theme.colors }), el("td", { text: theme.images }), statusCell);
    }));
  }

  /** The aliases and their rules: this server's, or with a cluster store, the store's. */
  async drawAliases() {
    let aliases;
    try {
      aliases = (await getJSON("/aliases")).aliases;
    } catch {
      $("aliases").hidden = true;
      return;
    }
    const target = (pointer) => pointer.generation ? `${pointer.theme}@${pointer.generation}` : pointer.theme;
    const audience = (when) => {
      const parts = [];
      if (when.platform) parts.push(`platform ${when.platform.join(" or ")}`);
      if (when.appVersion) parts.push(`app ${when.appVersion}`);
      if (when.locale) parts.push(`locale ${when.locale.join(" or ")}`);
      for (const [name, values] of Object.entries(when.attributes ?? {})) parts.push(`${name} ${values.join(" or ")}`);
      return parts.length ? parts.join(", ") : "everyone";
    };
    $("aliases-body").replaceChildren(...aliases.map((alias) => el("tr", { attrs: { "data-alias": alias.name } },
      el("th", { text: alias.name, attrs: { scope: "row" } }), el("td", { text: target(alias) }),
      el("td", {}, el("ol", {}, ...alias.rules.map((rule) => el("li", { text: `${audience(rule.when)} → ${target(rule)}`, attrs: { "data-rule": "" } })))))));
    $("aliases").hidden = false;
  }

  /** Each rollout under way with its percentage and the assignments per generation (cluster store only). */
  async drawRollouts() {
    let rollouts;
    try {
      rollouts = (await getJSON("/rollouts")).rollouts;
    } catch {
      rollouts = [];
    }
    $("rollouts-body").replaceChildren(...rollouts.map((rollout) => el("tr", { attrs: { "data-rollout": rollout.theme } },
      el("th", { text: rollout.theme, attrs: { scope: "row" } }), el("td", { text: String(rollout.generation) }),
      el("td", { text: `${rollout.percent}%`, attrs: { "data-percent": String(rollout.percent) } }),
      el("td", { text: String(rollout.previous) }),
      el("td", { text: Object.entries(rollout.assignments).map(([generation, count]) => `${generation}: ${count}`).join(", ") || "none yet",
                 attrs: { "data-assignments": "" } }))));
    $("rollouts").hidden = rollouts.length === 0;
  }

  async drawTheme(generation) {
    const base = themePath(this.theme);
    let detail;
    try {
      detail = await getJSON(base);
    } catch (error) {
      $("theme-title").textContent = this.theme;
      $("theme-summary").textContent = `Not available: ${error.message}`;
      return;
    }
    // A token theme's modifiers chosen by name (those theme.json maps to traits are the modes'
    // columns already, and the server refuses them by name).
    const byName = new Set((detail.modifiers ?? []).filter((modifier) => modifier.chosenBy === "name").map((modifier) => modifier.name));
    const modifiers = detail.sources.some((source) => source.kind === "tokens")
      ? await getJSON(`${base}/tokens.resolver.json`).then((document) => document.modifiers ?? {}).catch(() => ({})) : {};
    for (const name of Object.keys(modifiers)) if (!byName.has(name)) delete modifiers[name];
    const chosen = this.contexts.get(this.theme) ?? {};
    const contexts = Object.entries(chosen).map(([name, context]) => `&${encodeURIComponent(name)}=${encodeURIComponent(context)}`).join("");
    const palettes = await Promise.all(MODES.map((mode) => getJSON(`${base}/colors?${mode.query}${contexts}`).catch(() => ({ colors: {} }))));
    if (generation !== this.generation) return;
    this.drawModifiers(modifiers, chosen);
    document.title = `${detail.name}: themed gallery`;
    $("theme-title").textContent = detail.name;
    $("theme-summary").textContent = `${detail.status} · revision ${detail.revision} · ${detail.colors.length} colours, ${detail.images.length} images, ${detail.data.length} data, ${detail.files.length} files`;
    // A listing names the first problems of each kind; the rest are a page away.
    const more = (shown, count, noun) => count > shown.length
      ? [el("li", {}, el("a", { text: `and ${count - shown.length} more ${noun}`, attrs: { href: detail.problems } }))] : [];
    $("theme-errors").replaceChildren(...detail.errors.map((error) => el("li", { text: error })), ...more(detail.errors, detail.errorCount, "errors"));
    $("theme-warnings").replaceChildren(...(detail.warnings ?? []).map((warning) => el("li", { text: warning })),
      ...more(detail.warnings ?? [], detail.warningCount, "warnings"));
    this.drawColors(detail.colors, palettes);
    this.drawSources(detail);
    this.drawExports(base);
    this.drawReleases(detail.releases);
    await Promise.all([this.drawImages(base, generation), this.drawStrings(base, detail, generation)]);
  }

  drawModifiers(modifiers, chosen) {
    const entries = Object.entries(modifiers).filter(([, modifier]) => Object.keys(modifier.contexts ?? {}).length > 1);
    $("modifiers").hidden = entries.length === 0;
    $("modifiers").replaceChildren(...entries.map(([name, modifier]) => {
      const select = el("select", { attrs: { "aria-label": name, "data-modifier": name } },
        ...Object.keys(modifier.contexts).map((context) => el("option", { text: context, attrs: { value: context } })));
      select.value = chosen[name] ?? modifier.default ?? Object.keys(modifier.contexts)[0];
      select.addEventListener("change", () => {
        this.contexts.set(this.theme, { ...(this.contexts.get(this.theme) ?? {}), [name]: select.value });
        this.scheduleRedraw();
      });
      return el("label", { text: `${name} ` }, select);
    }));
  }

  drawColors(names, palettes) {
    $("colors-head").replaceChildren(el("tr", {}, el("th", { text: "Name", attrs: { scope: "col" } }),
      ...MODES.map((mode) => el("th", { text: mode.label, attrs: { scope: "col", "data-mode": mode.name } }))));
    $("colors-body").replaceChildren(...names.map((name) => {
      const row = el("tr", { attrs: { "data-color": name } }, el("th", { attrs: { scope: "row" } }, el("code", { text: name })));
      MODES.forEach((mode, index) => {
        const color = palettes[index].colors?.[name];
        const background = palettes[index].colors?.background?.hex;
        row.append(this.swatch(color, mode, background));
      });
      return row;
    }));
    this.markCurrentMode();
  }

  swatch(color, mode, background) {
    const cell = el("td", { attrs: { "data-mode": mode.name } });
    if (!color) {
      cell.append(el("span", { text: "none", className: "missing" }));
      return cell;
    }
    if (color.systemColor) {
      cell.append(el("span", { text: `system: ${color.systemColor}`, className: "missing" }));
      return cell;
    }
    const fill = el("span", { attrs: { "data-css": color.css } });
    fill.style.background = color.css;
    const chip = el("span", { className: "chip", attrs: { role: "img", "aria-label": `${color.hex} ${color.css}` } }, fill);
    const values = el("span", { className: "values" }, el("span", { text: color.hex, className: "hex" }), el("br"), el("span", { text: color.css, className: "css" }));
    const reference = background && background !== color.hex ? background : (mode.name.startsWith("dark") ? "#000000FF" : "#FFFFFFFF");
    const notes = [`${contrast(color.hex, reference).toFixed(2)}:1 on ${background && background !== color.hex ? "background" : mode.name.startsWith("dark") ? "black" : "white"}`];
    if (color.traits?.gamut === "p3") notes.push("P3");
    if (color.fallbacks?.length) notes.push(`fallback ${color.fallbacks.join(", ")}`);
    values.append(el("br"), el("span", { text: notes.join(" · "), className: "note" }));
    cell.append(el("span", { className: "swatch" }, chip, values));
    return cell;
  }

  markCurrentMode() {
    const scheme = this.palette.scheme;
    for (const cell of document.querySelectorAll("[data-mode]")) {
      cell.classList.toggle("current", cell.dataset.mode === scheme);
    }
  }

  async drawImages(base, generation) {
    const names = [];
    let next = `${base}/images?limit=200`;
    try {
      while (next && names.length < 2000) {
        const page = await getJSON(next);
        names.push(...page.images);
        next = page.next;
      }
    } catch { /* shown as far as it got */ }
    if (generation !== this.generation) return;
    $("images-body").replaceChildren(...names.map((image) => {
      const card = el("div", { className: "image-card", attrs: { "data-image": image.name } },
        el("h3", { text: `${image.name} (${image.kind}, ${image.variants} variants)` }));
      const href = `${base}/images/${image.name.split("/").map(encodeURIComponent).join("/")}`;
      if (image.kind !== "image") {
        card.append(el("a", { text: "download", attrs: { href } }));
        return card;
      }
      const grid = el("div", { className: "image-grid" });
      for (const appearance of ["light", "dark"]) {
        for (const scale of [1, 2, 3]) {
          const img = el("img", { attrs: { loading: "lazy", alt: `${image.name} @${scale}x ${appearance}`, src: `${href}?scale=${scale}&appearance=${appearance}` } });
          grid.append(el("div", { className: `image-cell ${appearance}` }, img, el("span", { text: `@${scale}x ${appearance}` })));
        }
      }
      card.append(grid);
      return card;
    }));
  }

  async drawStrings(base, detail, generation) {
    const container = $("strings-body");
    let tables = [];
    try { tables = (await getJSON(`${base}/strings`)).tables; } catch { tables = []; }
    const languages = [...new Set(detail.sources.flatMap((source) => source.localizations ?? []))].filter((l) => l !== "Base").sort();
    if (generation !== this.generation) return;
    if (!tables.length) {
      container.replaceChildren(el("p", { text: "No string tables.", className: "missing" }));
      return;
    }
    const sections = [];
    let details = 0;
    for (const table of tables) {
      const tablePath = `${base}/strings/${encodeURIComponent(table)}`;
      const byLanguage = await Promise.all(languages.map((lang) => getJSON(`${tablePath}?lang=${encodeURIComponent(lang)}`).catch(() => null)));
      const keys = [...new Set(byLanguage.flatMap((body) => Object.keys(body?.strings ?? {})))].sort();
      const rows = [];
      for (const key of keys) {
        const row = el("tr", { attrs: { "data-key": key } }, el("th", { attrs: { scope: "row" } }, el("code", { text: key })));
        for (const [index, lang] of languages.entries()) {
          const cell = el("td", { attrs: { lang } }, el("span", { text: byLanguage[index]?.strings?.[key] ?? "" }));
          if (details < MAX_STRING_DETAILS) {
            details++;
            const entry = await getJSON(`${tablePath}/${encodeURIComponent(key)}?lang=${encodeURIComponent(lang)}`).catch(() => null);
            for (const [category, form] of Object.entries(entry?.forms ?? {})) {
              cell.append(el("div", { className: "plural", text: `${category}: ${form}` }));
            }
          }
          row.append(cell);
        }
        rows.push(row);
      }
      sections.push(el("h3", { text: table }), el("table", { className: "strings" },
        el("thead", {}, el("tr", {}, el("th", { text: "Key", attrs: { scope: "col" } }), ...languages.map((lang) => el("th", { text: lang, attrs: { scope: "col" } })))),
        el("tbody", {}, ...rows)));
    }
    if (generation !== this.generation) return;
    container.replaceChildren(...sections);
  }

  drawSources(detail) {
    const items = [el("li", {}, el("strong", { text: "Chain: " }), el("span", { text: detail.chain.join(" → ") }))];
    for (const source of detail.sources) {
      const item = el("li", {}, el("code", { text: source.path }), el("span", { text: ` (${source.kind})` }));
      if (source.localizations?.length) item.append(el("span", { text: ` · ${source.localizations.join(", ")}` }));
      for (const error of source.errors ?? []) item.append(el("div", { text: error, className: "errors" }));
      for (const warning of source.warnings ?? []) item.append(el("div", { text: warning, className: "warnings" }));
      items.push(item);
    }
    $("sources-body").replaceChildren(...items);
  }

  /** The theme's release history, when a cluster store keeps one (the detail links to it), and
   * the newest release's diff against the one before it (another release's on its button). */
  async drawReleases(path) {
    $("releases").hidden = true;
    $("release-diff").replaceChildren();
    if (!path) return;
    try {
      const history = await getJSON(path);
      const kept = history.releases.filter((release) => !release.retired);
      const comparable = (release) => kept.some((other) => other.generation < release.generation);
      const diffPath = path.replace(/\/releases$/, "/diff");
      $("releases-body").replaceChildren(...history.releases.map((release) => el("tr", { className: release.current ? "current" : "" },
        el("td", { text: `${release.generation}${release.current ? " (current)" : ""}${release.rollout !== undefined ? ` (rollout ${release.rollout}%)` : ""}${release.rollbackOf ? ` ↩ ${release.rollbackOf}` : ""}` }),
        el("td", { text: release.publishedAt }), el("td", { text: release.publisher }), el("td", { text: String(release.files) }),
        el("td", {}, el("code", { text: release.digest.slice(0, 12) })),
        el("td", {}, ...(!release.retired && comparable(release) ? [this.diffButton(diffPath, release.generation)] : [])))),
        ...history.scheduled.map((schedule) => el("tr", { className: "scheduled" },
          el("td", { text: `scheduled #${schedule.id}` }), el("td", { text: schedule.at }), el("td", { text: schedule.by }),
          el("td", { text: String(schedule.files ?? "") }), el("td", {}, el("code", { text: (schedule.digest ?? "").slice(0, 12) })))));
      $("releases").hidden = false;
      await this.drawDrafts(path.replace(/\/releases$/, "/drafts"));
      const newest = kept.find(comparable);
      if (newest) await this.drawReleaseDiff(diffPath, newest.generation);
    } catch {
      $("releases").hidden = true;
    }
  }

  diffButton(diffPath, generation) {
    const button = el("button", { text: "diff", attrs: { type: "button", "data-diff-to": String(generation) } });
    button.addEventListener("click", () => this.drawReleaseDiff(diffPath, generation));
    return button;
  }

  /** The drafts waiting for approval, each with a button that shows its review (what it
   * changes against the release that was newest when it was posted). Approving takes a token:
   * `POST /drafts/{id}/approve` (docs/REVIEW.md). */
  async drawDrafts(path) {
    let listing;
    try {
      listing = await getJSON(path);
    } catch {
      listing = { drafts: [] };
    }
    $("drafts-body").replaceChildren(...listing.drafts.map((draft) => {
      const button = el("button", { text: "review", attrs: { type: "button", "data-draft-review": String(draft.id) } });
      button.addEventListener("click", () => draft.review
        ? this.drawDiff(draft.review, `draft ${draft.id} against ${draft.review.from}`, `${path.replace(/\/themes\/[^/]+\/drafts$/, "")}/drafts/${draft.id}`)
        : $("release-diff").replaceChildren(el("p", { text: `draft ${draft.id} is the theme's first release`, className: "missing" })));
      return el("tr", { attrs: { "data-draft": String(draft.id) } },
        el("td", { text: String(draft.id) }), el("td", { text: draft.publisher }), el("td", { text: draft.created }),
        el("td", { text: `${draft.approvers.length} of ${draft.required}${draft.approvers.length ? ` (${draft.approvers.join(", ")})` : ""}` }),
        el("td", {}, button));
    }));
    $("drafts").hidden = listing.drafts.length === 0;
  }

  /** Release `generation` against the one before it. */
  async drawReleaseDiff(diffPath, generation) {
    let diff;
    try {
      diff = await getJSON(`${diffPath}?to=${generation}`);
    } catch (error) {
      $("release-diff").replaceChildren(el("p", { text: `No diff for ${generation}: ${error.message}`, className: "missing" }));
      return;
    }
    this.drawDiff(diff, `${generation} against ${diff.from}`, `${diffPath}?to=${generation}&format=markdown`);
  }

  /** A diff (a release's, or a draft's review): the counts, then each colour changed, mode by
   * mode, before and after side by side, added and removed colours, the images changed with
   * their thumbnails, and a link to the rest. */
  drawDiff(diff, title, more) {
    const target = $("release-diff");
    const chip = (hex) => {
      if (!hex) return el("td", {}, el("span", { text: "none", className: "missing" }));
      const fill = el("span", { attrs: { "data-hex": hex } });
      fill.style.background = hex;
      return el("td", {}, el("span", { className: "swatch" }, el("span", { className: "chip", attrs: { role: "img", "aria-label": hex } }, fill),
        el("span", { text: hex, className: "hex" })));
    };
    const { colors, tokens, strings, contrast: ratios } = diff.summary;
    const rows = [
      ...diff.changed.flatMap((change) => change.modes.map((mode) => el("tr", { attrs: { "data-diff-color": change.name, "data-diff-mode": mode.mode } },
        el("th", { text: change.name, attrs: { scope: "row" } }), el("td", { text: mode.mode }), chip(mode.before), chip(mode.after)))),
      ...diff.added.map((name) => el("tr", { attrs: { "data-diff-added": name } }, el("th", { text: name, attrs: { scope: "row" } }), el("td", { text: "added" }), el("td"), el("td"))),
      ...diff.removed.map((name) => el("tr", { attrs: { "data-diff-removed": name } }, el("th", { text: name, attrs: { scope: "row" } }), el("td", { text: "removed" }), el("td"), el("td"))),
    ];
    const images = diff.images ?? { added: [], removed: [], changed: [] };
    const imageRows = images.changed.map((change) => el("tr", { attrs: { "data-diff-image": `${change.name} ${change.variant}` } },
      el("th", { text: change.name, attrs: { scope: "row" } }), el("td", { text: change.variant }),
      el("td", { text: change.changedShare !== undefined ? `${(change.changedShare * 100).toFixed(2)}% of pixels`
        : change.resized ? `resized ${change.resized.before} → ${change.resized.after}` : `${change.kind} bytes changed` }),
      el("td", {}, ...(change.thumbnail ? [el("img", { attrs: { src: change.thumbnail, alt: `${change.name} before and after` } })] : []))));
    const others = [...diff.contrast, ...diff.content].length;
    target.replaceChildren(
      el("h3", { text: title, attrs: { "data-diff-from": String(diff.from), "data-diff-to": String(diff.to ?? "") } }),
      el("p", { text: `Colours ${colors.added} added, ${colors.removed} removed, ${colors.changed} changed · tokens ${tokens.added + tokens.removed + tokens.changed} · strings ${strings.added + strings.removed + strings.changed} · contrast ratios moved ${ratios.moved}, below their minimum ${ratios.belowMinimum}` }),
      el("table", { className: "release-diff" },
        el("thead", {}, el("tr", {}, el("th", { text: "Colour" }), el("th", { text: "Mode" }), el("th", { text: "Before" }), el("th", { text: "After" }))),
        el("tbody", {}, ...rows)),
      ...(imageRows.length ? [el("table", { className: "release-diff" },
        el("thead", {}, el("tr", {}, el("th", { text: "Image" }), el("th", { text: "Variant" }), el("th", { text: "Change" }), el("th", { text: "Before | after" }))),
        el("tbody", {}, ...imageRows))] : []),
      ...(images.added.length + images.removed.length ? [el("p", { text: `Images ${images.added.length} added, ${images.removed.length} removed` })] : []),
      ...(others ? [el("p", {}, el("a", { text: `and ${others} other changes`, attrs: { href: more } }))] : []));
  }

  async drawExports(base) {
    try {
      const list = await getJSON(`${base}/exports`);
      $("exports-body").replaceChildren(...Object.entries(list.formats).flatMap(([format, files]) =>
        files.map((file) => el("li", {}, el("a", { text: `${format}: ${file.path}`, attrs: { href: file.href } })))));
    } catch {
      $("exports-body").replaceChildren();
    }
  }
}

new Gallery().start();
