// The sandbox page: one member's view of the local Discord server. Plain JavaScript.
// The server sends a version number over a WebSocket whenever anything changes; the page
// then fetches its view (/sandbox/api/view) and draws it again. Every action is a POST to
// /sandbox/api/<action>, which the server turns into a Discord interaction for the bot.
"use strict";

const LANGS = [["en", "English"], ["de", "Deutsch"], ["fr", "Français"], ["hi", "हिन्दी"], ["fa", "فارسی"]];
const DISCORD_LOCALE = { en: "en-US", de: "de", fr: "fr", hi: "hi", fa: "en-US" };
const COLORS = ["#5865f2", "#eb459e", "#f0b232", "#23a55a", "#e67e22", "#00a8fc", "#9b59b6", "#ed4245"];
const $ = (sel) => document.querySelector(sel);

const params = new URLSearchParams(location.search);
const state = {
  as: params.get("as") || "Ann",  // a member's name or id
  channel: params.get("channel") || "",
  view: null,
  version: -1,
  fetching: false,
  dirty: false,
  command: null,           // the chosen slash command: {path, label, options}
  suggestion: 0,
  modalId: null,
  seenNotices: new Set(),
  firstNotices: true,
  dmSeen: Number(sessionStorage.getItem("dmSeen:" + (params.get("as") || "Ann")) || 0),
};

// ------------------------------------------------------------------ server
async function post(action, body) {
  let res;
  try {
    res = await fetch("/sandbox/api/" + action, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ as: state.view ? state.view.me.id : state.as, ...body }),
    });
  } catch (e) {
    toast("The sandbox is not reachable.");
    return null;
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) toast(data.error || "Refused (" + res.status + ").");
  refresh();
  return res.ok ? data : null;
}

async function refresh() {
  if (state.fetching) { state.dirty = true; return; }
  state.fetching = true;
  try {
    const asked = state.channel;
    const who = state.view ? state.view.me.id : state.as;
    const q = new URLSearchParams({ as: who });
    if (asked) q.set("channel", asked);
    const res = await fetch("/sandbox/api/view?" + q);
    const data = await res.json();
    if (!res.ok) { toast(data.error || "Cannot load the view."); return; }
    // a channel opened or a member chosen while this view was on its way: draw that
    // one instead (a refresh follows), never put the old channel or member back
    if (state.channel !== asked || (state.view ? state.view.me.id : state.as) !== who) {
      state.dirty = true;
      return;
    }
    state.view = data;
    state.channel = data.channel.id;
    render();
  } catch (e) {
    setStatus(false, "sandbox stopped");
  } finally {
    state.fetching = false;
    if (state.dirty) { state.dirty = false; refresh(); }
  }
}

function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/sandbox/ws");
  ws.onmessage = (ev) => {
    const { version } = JSON.parse(ev.data);
    if (version !== state.version) { state.version = version; refresh(); }
  };
  ws.onclose = () => { setStatus(false, "reconnecting…"); setTimeout(connect, 1000); };
}

// ------------------------------------------------------------------ drawing
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "html") node.innerHTML = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
  return node;
}

function colorOf(name) {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.codePointAt(0)) >>> 0;
  return COLORS[h % COLORS.length];
}

function avatar(name) {
  return el("span", { class: "avatar", style: "background:" + colorOf(name), "aria-hidden": "true" }, [...name][0].toUpperCase());
}

function setStatus(ok, text) {
  const s = $("#status");
  s.className = "status " + (ok ? "ok" : "wait");
  s.textContent = text;
}

function render() {
  const v = state.view;
  document.documentElement.lang = v.me.locale;
  $("#guild-name").textContent = v.guild.name;
  $("#me-name").textContent = v.me.name;
  document.title = v.me.name + " · " + (v.channel.dm ? "DMs" : v.channel.group ? v.channel.name : "#" + v.channel.name) + " · Local sandbox";
  setStatus(v.bot.ready, v.bot.ready ? v.bot.name + " is connected" : "waiting for the bot…");
  fillLocales($("#guild-locale"), v.guild.locale);
  fillLocales($("#my-locale"), v.me.locale);
  const group = (v.group_dms || []).find((g) => g.id === v.channel.id);
  $("#channel-title").textContent = v.channel.dm ? "@" + v.channel.name + " (your DMs)"
    : group ? v.channel.name + " (group DM: " + group.members.join(", ") + ")" : "#" + v.channel.name;
  $("#input").placeholder = v.channel.dm ? "Message @" + v.channel.name
    : group ? "Message " + v.channel.name + " — type / for the app's commands"
    : "Message #" + v.channel.name + " — type / for the bot's commands";
  if (v.channel.dm) { state.dmSeen = v.dm_count; sessionStorage.setItem("dmSeen:" + v.me.name, v.dm_count); }

  const channels = $("#channels");
  channels.replaceChildren(...v.channels.map((c) => el("li", {}, el("button", {
    class: c.id === v.channel.id ? "current" : "", "data-channel": c.name, onclick: () => openChannel(c.id),
  }, "# " + c.name))));
  const unread = Math.max(0, v.dm_count - state.dmSeen);
  $("#dms").replaceChildren(el("li", {}, el("button", {
    class: v.channel.dm ? "current" : "", "data-channel": "dm", onclick: () => openChannel("dm"),
  }, avatar(v.bot.name), v.bot.name, unread ? el("span", { class: "badge" }, String(unread)) : null)),
  // group DMs of people (the app answers there only through their own installs)
  ...(v.group_dms || []).map((g) => el("li", {}, el("button", {
    class: g.id === v.channel.id ? "current" : "", "data-channel": g.name, "data-group": g.id,
    title: g.members.join(", "), onclick: () => openChannel(g.id),
  }, avatar(g.name), g.name, el("small", {}, g.members.length + " members")))));
  $("#members").replaceChildren(...v.members.map((m) => el("li", {}, el("button", {
    class: m.id === v.me.id ? "current" : "", "data-member": m.name, title: "Act as " + m.name,
    onclick: () => switchMember(m),
  }, avatar(m.name), m.name, m.manager ? el("small", {}, "(Manage Server)") : null))));

  drawMessages(v);
  drawModal(v.modal);
  for (const n of v.notices) {
    if (state.seenNotices.has(n.id)) continue;
    state.seenNotices.add(n.id);
    if (!state.firstNotices) toast(n.text);
  }
  state.firstNotices = false;
  if (state.command) drawOptions();
}

function fillLocales(select, current) {
  if (!select.options.length) {
    for (const [code, name] of LANGS) select.append(el("option", { value: code }, name));
  }
  if (document.activeElement !== select) select.value = current;
}

// Messages are drawn again only when they changed, and a changed message keeps its
// buttons (their nodes) when it has the same ones: a click never lands on a button that
// was replaced between the press and the release.
function drawMessages(v) {
  const box = $("#messages");
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  const old = new Map();
  for (const node of [...box.children]) {
    if (node.dataset.id && node.dataset.channel === v.channel.id) old.set(node.dataset.id, node);
    else node.remove();
  }
  const wanted = v.messages.map((m) => {
    const sig = JSON.stringify(m);
    const prev = old.get(m.id);
    if (prev && prev.sig === sig) return prev;
    const fresh = drawMessage(m, v);
    fresh.sig = sig;
    fresh.dataset.channel = v.channel.id;
    if (!prev || !patchMessage(prev, fresh)) return fresh;
    prev.sig = sig;
    return prev;
  });
  const keep = new Set(wanted);
  for (const node of [...box.children]) if (!keep.has(node)) node.remove();
  wanted.forEach((node, i) => {
    const at = box.children[i];
    if (at !== node) box.insertBefore(node, at || null);
  });
  if (!v.messages.length) {
    box.append(el("p", { class: "md-sub", style: "padding:0 16px" }, v.channel.dm
      ? "No direct messages from the bot yet. Your cards come here during a round."
      : v.channel.group
        ? "No messages yet. Everyone here has the app on their own account: type / for the commands it offers in a group DM."
        : "Nothing here yet. Type " + startCommands() + " below."));
  }
  if (atBottom) box.scrollTop = box.scrollHeight;
  updateTimes();
}

function drawMessage(m, v) {
  const body = el("div", { class: "body" });
  if (m.used) body.append(el("div", { class: "used" }, el("b", {}, m.used.user), " used ", el("b", {}, m.used.command)));
  body.append(el("div", { class: "head" },
    el("span", { class: "author" }, m.author),
    m.bot ? el("span", { class: "tag" }, "APP") : null,
    el("span", { class: "time" }, new Date(m.timestamp).toLocaleTimeString()),
    m.edited ? el("span", { class: "edited" }, "(edited)") : null));
  if (m.loading) body.append(el("div", { class: "loading" }, m.author + " is thinking…"));
  if (m.content) body.append(el("div", { class: "content", dir: "auto", html: markdown(m.content, v) }));
  for (const e of m.embeds || []) body.append(drawEmbed(e, v, m));
  const files = drawAttachments(m);
  if (files) body.append(files);
  if (m.components && m.components.length) body.append(drawComponents(m, v));
  if (m.ephemeral) body.append(el("div", { class: "only-you" }, "Only you can see this"));
  return el("div", { class: "msg" + (m.ephemeral ? " ephemeral" : ""), "data-id": m.id }, avatar(m.author), body);
}

function controls(node) {
  return [...node.querySelectorAll("button, select, a.btn")];
}

function patchMessage(prev, fresh) {
  const pb = prev.querySelector(".body");
  const fb = fresh.querySelector(".body");
  const pc = pb.querySelector(":scope > .components");
  const fc = fb.querySelector(":scope > .components");
  // the same controls (kind and label, in order): keep their nodes, take the new state
  const shape = (box) => controls(box).map((c) => c.tagName + ":" + c.textContent).join("|")
    + "#" + [...box.querySelectorAll(".v2-text, .separator, .container, .section, img")].map((n) => n.className).join("|");
  if (!pc || !fc || shape(pc) !== shape(fc)) return false;
  const now = controls(fc);
  controls(pc).forEach((c, i) => {
    c.disabled = now[i].disabled;
    c.className = now[i].className;
    if (now[i].dataset.customId !== undefined) c.dataset.customId = now[i].dataset.customId;
  });
  // a layout message: its texts and colours change in place, around the same buttons
  const newTexts = [...fc.querySelectorAll(".v2-text, .container, img")];
  [...pc.querySelectorAll(".v2-text, .container, img")].forEach((n, i) => {
    if (n.classList.contains("v2-text")) n.innerHTML = newTexts[i].innerHTML;
    else if (n.tagName === "IMG") n.src = newTexts[i].src;
    else n.style.cssText = newTexts[i].style.cssText;
  });
  for (const child of [...pb.childNodes]) if (child !== pc) child.remove();
  let before = true;
  for (const child of [...fb.childNodes]) {
    if (child === fc) { before = false; continue; }
    if (before) pb.insertBefore(child, pc); else pb.append(child);
  }
  return true;
}

// an image's address as the page can load it: attachment://name is the message's file
function mediaUrl(url, m) {
  const s = String(url || "");
  if (s.startsWith("attachment://")) return ((m && m.attachments) || {})[s.slice(13)] || "";
  return /^https?:\/\//.test(s) || s.startsWith("/") ? s : "";
}

// A message's files that nothing in it shows (an embed's or a layout's attachment://name
// is drawn where it is used), as Discord shows them under the text: pictures as pictures,
// other files as links.
function drawAttachments(m) {
  const files = (m && m.attachments) || {};
  const used = new Set((JSON.stringify([m.embeds || [], m.components || []]).match(/attachment:\/\/[^"\\]+/g) || [])
    .map((s) => s.slice(13)));
  const names = Object.keys(files).filter((name) => !used.has(name));
  if (!names.length) return null;
  return el("div", { class: "attachments" }, names.map((name) => /\.(png|jpe?g|gif|webp)$/i.test(name)
    ? el("img", { class: "attachment-image", src: files[name], alt: name, title: name })
    : el("a", { class: "attachment-file", href: files[name], target: "_blank", rel: "noopener" }, name)));
}

function drawEmbed(e, v, m) {
  const color = e.color !== undefined && e.color !== null ? "#" + Number(e.color).toString(16).padStart(6, "0") : null;
  const box = el("div", { class: "embed", dir: "auto", style: color ? "border-inline-start-color:" + color : null });
  if (e.author && e.author.name) box.append(el("div", { class: "author-line", dir: "auto", html: markdown(e.author.name, v) }));
  if (e.title) box.append(el("div", { class: "title", dir: "auto", html: markdown(e.title, v) }));
  if (e.description) box.append(el("div", { class: "description", dir: "auto", html: markdown(e.description, v) }));
  if (e.fields && e.fields.length) {
    box.append(el("div", { class: "fields" }, e.fields.map((f) => el("div", { class: "field" + (f.inline ? " inline" : ""), dir: "auto" },
      el("div", { class: "field-name", dir: "auto", html: markdown(f.name, v) }),
      el("div", { class: "field-value", dir: "auto", html: markdown(f.value, v) })))));
  }
  if (e.image && e.image.url) box.append(el("img", { class: "embed-image", src: mediaUrl(e.image.url, m), alt: "" }));
  if (e.thumbnail && e.thumbnail.url) box.append(el("img", { class: "embed-thumb", src: mediaUrl(e.thumbnail.url, m), alt: "" }));
  const foot = [e.footer && e.footer.text, e.timestamp ? new Date(e.timestamp).toLocaleString() : null].filter(Boolean).join(" • ");
  if (foot) box.append(el("div", { class: "footer", dir: "auto", html: markdown(foot, v) }));
  return box;
}

const STYLES = { 1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link" };

// A message's components as Discord draws them: classic action rows, or (a message with
// the IS_COMPONENTS_V2 flag) a layout: containers with an accent bar, sections with their
// accessory, text displays in markdown, separators, thumbnails and galleries, rows.
function drawComponents(m, v) {
  const box = el("div", { class: "components" + (m.flags & (1 << 15) ? " v2" : "") });
  for (const c of m.components) box.append(drawComponent(c, m, v));
  return box;
}

function drawComponent(c, m, v) {
  if (c.type === 1) {
    const line = el("div", { class: "row" });
    for (const item of c.components || []) {
      const node = drawControl(item, m);
      if (node) line.append(node);
    }
    return line;
  }
  if (c.type === 2 || c.type === 3 || c.type === 6) return el("div", { class: "row" }, drawControl(c, m));
  if (c.type === 10) return el("div", { class: "content v2-text", dir: "auto", html: markdown(c.content, v) });
  if (c.type === 14) {
    const size = c.spacing === 2 ? "large" : "small";
    return el("div", { class: "separator " + size + (c.divider === false ? "" : " divider"), role: "separator" });
  }
  if (c.type === 11) return drawMedia(c.media, c.description, "thumbnail", m);
  if (c.type === 12) return el("div", { class: "gallery" }, (c.items || []).map((i) => drawMedia(i.media, i.description, "gallery-item", m)));
  if (c.type === 9) {
    const texts = el("div", { class: "section-texts" }, (c.components || []).map((x) => drawComponent(x, m, v)));
    const acc = c.accessory ? (c.accessory.type === 2 ? drawControl(c.accessory, m) : drawComponent(c.accessory, m, v)) : null;
    return el("div", { class: "section" }, texts, acc ? el("div", { class: "accessory" }, acc) : null);
  }
  if (c.type === 17) {
    const color = c.accent_color !== undefined && c.accent_color !== null ? "#" + Number(c.accent_color).toString(16).padStart(6, "0") : null;
    return el("div", { class: "container", style: color ? "border-inline-start-color:" + color : null },
      (c.components || []).map((x) => drawComponent(x, m, v)));
  }
  return el("div", { class: "unknown" }, "unsupported component " + c.type);
}

function drawMedia(media, description, cls, m) {
  const src = mediaUrl(media && media.url, m);
  return el("img", { class: cls, src, alt: description || "", title: description || "" });
}

function drawControl(c, m) {
  if (c.type === 2) {
    const label = (c.emoji && c.emoji.name ? c.emoji.name + " " : "") + (c.label || "");
    if (c.style === 5) {
      return el("a", { class: "btn link", href: c.url, target: "_blank", rel: "noopener" }, label + " ↗");
    }
    return el("button", {
      class: "btn " + (STYLES[c.style] || "secondary"), disabled: !!c.disabled, dir: "auto",
      "data-custom-id": c.custom_id,
      // the custom id as it is now: a redraw may have given the button a newer one
      onclick: (ev) => post("click", { message: m.id, custom_id: ev.currentTarget.dataset.customId }),
    }, label);
  }
  if (c.type === 6) {  // a role select: the server's roles
    c = { ...c, options: (state.view.roles || []).map((r) => ({ value: r.id, label: "@" + r.name })) };
  }
  if ((c.type === 3 || c.type === 6) && (c.max_values || 1) > 1) {
    // several values: chosen in a list, sent once with Apply (Discord sends when the menu closes)
    const list = el("select", {
      multiple: true, size: Math.min((c.options || []).length, 6), disabled: !!c.disabled,
      "aria-label": c.placeholder || "Choose", "data-custom-id": c.custom_id,
    }, (c.options || []).map((o) => el("option", { value: o.value, selected: !!o.default }, o.label)));
    const apply = el("button", {
      class: "btn secondary", disabled: !!c.disabled,
      onclick: () => post("select", { message: m.id, custom_id: list.dataset.customId, values: [...list.selectedOptions].map((o) => o.value) }),
    }, "Apply");
    return el("span", { class: "multi" }, list, apply);
  }
  if (c.type === 3 || c.type === 6) {
    return el("select", {
      disabled: !!c.disabled, "aria-label": c.placeholder || "Choose", "data-custom-id": c.custom_id,
      onchange: (ev) => post("select", { message: m.id, custom_id: ev.target.dataset.customId, values: [ev.target.value] }),
    }, el("option", { value: "" }, c.placeholder || "Choose…"),
    (c.options || []).map((o) => el("option", { value: o.value }, o.label)));
  }
  return null;
}

// ------------------------------------------------------------------ markdown
function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

function timestamp(seconds, style) {
  const d = new Date(Number(seconds) * 1000);
  const opts = {
    t: { timeStyle: "short" }, T: { timeStyle: "medium" }, d: { dateStyle: "short" }, D: { dateStyle: "long" },
    f: { dateStyle: "long", timeStyle: "short" }, F: { dateStyle: "full", timeStyle: "short" },
  }[style || "f"];
  if (style === "R") return `<span class="ts rel" data-ts="${Number(seconds)}" title="${escapeHtml(d.toLocaleString())}">${relative(d)}</span>`;
  return `<span class="ts" title="${escapeHtml(d.toLocaleString())}">${escapeHtml(d.toLocaleString(undefined, opts || {}))}</span>`;
}

function relative(d) {
  const s = Math.round((d.getTime() - Date.now()) / 1000);
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  const a = Math.abs(s);
  if (a < 60) return rtf.format(s, "second");
  if (a < 3600) return rtf.format(Math.round(s / 60), "minute");
  if (a < 86400) return rtf.format(Math.round(s / 3600), "hour");
  return rtf.format(Math.round(s / 86400), "day");
}

function updateTimes() {
  for (const node of document.querySelectorAll(".ts.rel")) node.textContent = relative(new Date(Number(node.dataset.ts) * 1000));
}

function inline(text, v) {
  // text is already HTML-escaped; code spans were taken out before
  let s = text;
  s = s.replace(/&lt;t:(-?\d{1,13})(?::([tTdDfFR]))?&gt;/g, (_, n, st) => timestamp(n, st));
  s = s.replace(/&lt;@!?(\d{1,20})&gt;/g, (_, id) => `<span class="mention">@${escapeHtml((v.names || {})[id] || "unknown-user")}</span>`);
  // a slash command mention, </help:id> or </casino settings:id>: Discord shows /help
  s = s.replace(/&lt;\/([\p{L}\p{N}_ -]{1,100}):(\d{1,20})&gt;/gu, (_, name) => `<span class="mention">/${name}</span>`);
  s = s.replace(/&lt;#(\d{1,20})&gt;/g, (_, id) => {
    const c = (v.channels || []).find((x) => x.id === id);
    return `<span class="mention">#${escapeHtml(c ? c.name : "unknown")}</span>`;
  });
  s = s.replace(/\*\*\*(.+?)\*\*\*/g, "<b><i>$1</i></b>");
  s = s.replace(/\*\*(.+?)\*\*/g, "<b>$1</b>");
  s = s.replace(/__(.+?)__/g, "<u>$1</u>");
  s = s.replace(/(^|[^\w*])\*(?!\s)(.+?)\*(?!\w)/g, "$1<i>$2</i>");
  s = s.replace(/(^|[^\w])_(?!\s)(.+?)_(?!\w)/g, "$1<i>$2</i>");
  s = s.replace(/~~(.+?)~~/g, "<s>$1</s>");
  s = s.replace(/\|\|(.+?)\|\|/g, '<span class="spoiler" onclick="this.classList.toggle(\'shown\')">$1</span>');
  s = s.replace(/\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g, '<a href="$2" target="_blank" rel="noopener">$1</a>');
  // cards: 10♥, K♠, A♦ ... as small card faces; a lone suit coloured
  s = s.replace(/\b(10|[2-9AJQK])([♠♣♥♦])(?!<\/span>)/g, (_, r, suit) =>
    `<span class="card${"♥♦".includes(suit) ? " red" : ""}">${r}${suit}</span>`);
  s = s.replace(/(^|[^>])([♥♦])(?!<\/span>)/g, '$1<span class="suit red">$2</span>');
  s = s.replace(/\u{1F0A0}/gu, '<span class="card back" title="a face-down card" role="img" aria-label="face-down card">\u{1F0A0}</span>');
  return s;
}

function markdown(src, v) {
  if (!src) return "";
  const codes = [];
  let s = String(src).replace(/```(?:[a-z0-9]*\n)?([\s\S]*?)```/g, (_, code) => {
    codes.push(`<pre><code>${escapeHtml(code)}</code></pre>`);
    return `\u0000${codes.length - 1}\u0000`;
  });
  s = s.replace(/`([^`\n]+)`/g, (_, code) => {
    codes.push(`<code>${escapeHtml(code)}</code>`);
    return `\u0000${codes.length - 1}\u0000`;
  });
  // custom emojis <:name:id> (the bot's card pictures among them) as Discord draws them:
  // the picture the application uploaded, ":name:" as its alt and title text
  s = s.replace(/<(a?):([A-Za-z0-9_]{2,32}):(\d{1,20})>/g, (_, animated, name, id) => {
    codes.push(`<img class="emoji" src="/sandbox/emojis/${id}.png" alt=":${name}:" title=":${name}:" draggable="false">`);
    return `\u0000${codes.length - 1}\u0000`;
  });
  const lines = s.split("\n").map((line) => {
    let cls = null;
    let m;
    if ((m = line.match(/^(#{1,3}) (.*)$/))) { cls = "md-h" + m[1].length; line = m[2]; }
    else if ((m = line.match(/^-# (.*)$/))) { cls = "md-sub"; line = m[1]; }
    const quote = line.match(/^> (.*)$/);
    if (quote) line = quote[1];
    let html = inline(escapeHtml(line).replace(/&#39;/g, "'"), v);
    if (cls) html = `<span class="${cls}">${html}</span>`;
    if (quote) html = `<blockquote>${html}</blockquote>`;
    return html;
  });
  let html = lines.join("\n").replace(/\n?(<blockquote>)/g, "$1").replace(/(<\/blockquote>)\n/g, "$1");
  html = html.replace(/\u0000(\d+)\u0000/g, (_, i) => codes[Number(i)]);
  return html;
}

// ------------------------------------------------------------------ modals
function drawModal(modal) {
  const back = $("#modal-backdrop");
  if (!modal) {
    if (state.modalId) { back.hidden = true; state.modalId = null; }
    return;
  }
  if (state.modalId === modal.id) return;  // open already: keep what is typed
  state.modalId = modal.id;
  $("#modal-title").textContent = modal.title;
  const fields = $("#modal-fields");
  fields.replaceChildren(...modal.inputs.map((f) => {
    if (f.kind === "text") return el("div", { class: "content", dir: "auto", html: markdown(f.content, state.view) });
    let control;
    if (f.kind === "select") {
      control = el("select", { name: f.custom_id, required: f.required },
        f.options.map((o) => el("option", { value: o.value, selected: o.default }, o.label)));
    } else {
      const attrs = { name: f.custom_id, dir: "auto", placeholder: f.placeholder || null };
      control = f.style === 2 ? el("textarea", { ...attrs, rows: 3 }) : el("input", attrs);
      control.value = f.value || "";
      // the limits Discord's client applies; the server checks them again
      if (f.max_length) control.setAttribute("maxlength", f.max_length);
      if (f.min_length) control.setAttribute("minlength", f.min_length);
      if (f.required) control.required = true;
    }
    return el("label", {}, el("span", { dir: "auto" }, f.label, f.required ? " *" : ""),
      f.description ? el("span", { class: "hint", dir: "auto" }, f.description) : null, control);
  }));
  back.hidden = false;
  const first = fields.querySelector("input, textarea, select");
  if (first) first.focus();
}

$("#modal").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const id = state.modalId;
  const values = {};
  for (const c of $("#modal-fields").querySelectorAll("[name]")) values[c.name] = c.value;
  $("#modal-backdrop").hidden = true;
  state.modalId = null;
  await post("modal", { modal: id, values });
});
$("#modal-cancel").addEventListener("click", async () => {
  const id = state.modalId;
  $("#modal-backdrop").hidden = true;
  state.modalId = null;
  await post("dismiss", { modal: id });
});

// ------------------------------------------------------------------ slash commands
function localized(obj, field) {
  const loc = DISCORD_LOCALE[state.view.me.locale] || "en-US";
  const l10n = obj[field + "_localizations"];
  return (l10n && l10n[loc]) || obj[field];
}

function commandList() {
  const out = [];
  for (const cmd of state.view.commands) {
    if ((cmd.type || 1) !== 1) continue;
    const walk = (node, path, names) => {
      const subs = (node.options || []).filter((o) => o.type === 1 || o.type === 2);
      if (!subs.length) {
        out.push({ path, label: "/" + names.join(" "), description: localized(node, "description") || "",
          options: (node.options || []).filter((o) => o.type !== 1 && o.type !== 2) });
        return;
      }
      for (const s of subs) walk(s, [...path, s.name], [...names, localized(s, "name")]);
    };
    walk(cmd, [cmd.name], [localized(cmd, "name")]);
  }
  return out.sort((a, b) => a.label.localeCompare(b.label));
}

// every game's start command, as the bot registered them ("/a start, /b start or /c start")
function startCommands() {
  const starts = commandList().filter((c) => c.path.length === 2 && c.path[1] === "start")
    .map((c) => c.label);
  if (!starts.length) return "/";
  return starts.length === 1 ? starts[0]
    : starts.slice(0, -1).join(", ") + " or " + starts[starts.length - 1];
}

function matches() {
  const typed = $("#input").value.trim().toLowerCase().replace(/^\//, "");
  return commandList().filter((c) => {
    const canonical = c.path.join(" ");
    const label = c.label.slice(1).toLowerCase();
    return !typed || canonical.startsWith(typed) || label.startsWith(typed) || typed.startsWith(canonical + " ");
  }).slice(0, 25);
}

function drawSuggestions() {
  const list = $("#suggestions");
  const input = $("#input").value;
  if (!input.startsWith("/") || state.command || !state.view) { list.hidden = true; return; }
  const found = matches();
  state.suggestion = Math.min(state.suggestion, Math.max(0, found.length - 1));
  list.replaceChildren(...found.map((c, i) => el("li", {
    class: i === state.suggestion ? "active" : "", role: "option", "data-command": c.path.join(" "),
    onmousedown: (ev) => { ev.preventDefault(); chooseCommand(c); },
  }, el("span", { class: "cmd" }, c.label), el("span", { class: "desc", dir: "auto" }, c.description))));
  if (!found.length) list.append(el("li", {}, el("span", { class: "desc" }, "No command of the bot starts like that.")));
  list.hidden = false;
}

function chooseCommand(c) {
  state.command = c;
  $("#input").value = c.label + " ";
  $("#suggestions").hidden = true;
  drawOptions(true);
}

function optionControl(o) {
  const name = o.name;
  const attrs = { "data-option": name, "aria-label": localized(o, "name") };
  if (o.choices && o.choices.length) {
    return el("select", attrs, o.required ? null : el("option", { value: "" }, "—"),
      o.choices.map((ch) => el("option", { value: String(ch.value) }, localized(ch, "name"))));
  }
  if (o.type === 4 || o.type === 10) {
    return el("input", { ...attrs, type: "number", step: o.type === 4 ? "1" : "any", min: o.min_value, max: o.max_value, style: "width:8em" });
  }
  if (o.type === 5) return el("select", attrs, el("option", { value: "" }, "—"), el("option", { value: "true" }, "True"), el("option", { value: "false" }, "False"));
  if (o.type === 6 || o.type === 9) {
    return el("select", attrs, el("option", { value: "" }, "—"), state.view.members.map((m) => el("option", { value: m.id }, "@" + m.name)));
  }
  if (o.type === 7) {
    return el("select", attrs, el("option", { value: "" }, "—"), state.view.channels.map((c) => el("option", { value: c.id }, "#" + c.name)));
  }
  return el("input", { ...attrs, type: "text", dir: "auto", maxlength: o.max_length || 6000, minlength: o.min_length });
}

function drawOptions(fresh) {
  const box = $("#options");
  const c = state.command;
  if (!c) { box.hidden = true; box.replaceChildren(); return; }
  if (!fresh && box.childElementCount) return;
  box.replaceChildren(el("b", {}, c.label), ...c.options.map((o) => el("label", { title: localized(o, "description") || "" },
    el("span", {}, localized(o, "name"), o.required ? el("span", { class: "req" }, " *") : null), optionControl(o))));
  if (!c.options.length) box.append(el("span", { class: "md-sub" }, "No options: press Enter to send."));
  box.hidden = false;
  const first = box.querySelector("[data-option]");
  if (first) first.focus(); else $("#input").focus();
}

async function send() {
  const input = $("#input");
  if (state.command) {
    const options = {};
    for (const c of $("#options").querySelectorAll("[data-option]")) {
      if (c.value !== "") options[c.dataset.option] = c.value;
    }
    const missing = state.command.options.filter((o) => o.required && !(o.name in options));
    if (missing.length) { toast("Fill in " + missing.map((o) => localized(o, "name")).join(", ") + "."); return; }
    const path = state.command.path;
    resetComposer();
    await post("slash", { channel: state.channel, path, options });
    return;
  }
  const text = input.value.trim();
  if (!text) return;
  if (text.startsWith("/")) {
    const found = matches();
    if (found.length) chooseCommand(found[state.suggestion] || found[0]);
    return;
  }
  input.value = "";
  await post("post", { channel: state.channel, content: text });
}

function resetComposer() {
  state.command = null;
  state.suggestion = 0;
  $("#input").value = "";
  drawOptions();
  drawSuggestions();
}

$("#send").addEventListener("submit", (ev) => { ev.preventDefault(); send(); });
$("#options").addEventListener("keydown", (ev) => { if (ev.key === "Enter") { ev.preventDefault(); send(); } });
$("#input").addEventListener("input", () => {
  if (state.command && !$("#input").value.startsWith(state.command.label)) { state.command = null; drawOptions(); }
  state.suggestion = 0;
  drawSuggestions();
});
$("#input").addEventListener("keydown", (ev) => {
  const list = $("#suggestions");
  if (ev.key === "Escape") { resetComposer(); return; }
  if (list.hidden) return;
  const n = list.querySelectorAll("li[data-command]").length;
  if (ev.key === "ArrowDown") { state.suggestion = (state.suggestion + 1) % Math.max(1, n); drawSuggestions(); ev.preventDefault(); }
  if (ev.key === "ArrowUp") { state.suggestion = (state.suggestion - 1 + n) % Math.max(1, n); drawSuggestions(); ev.preventDefault(); }
  if (ev.key === "Tab" && n) { ev.preventDefault(); chooseCommand(matches()[state.suggestion]); }
});

// ------------------------------------------------------------------ navigation
function openChannel(id) {
  state.channel = id;
  const q = new URLSearchParams(location.search);
  const named = [...state.view.channels, ...(state.view.group_dms || [])].find((c) => c.id === id);
  q.set("channel", id === "dm" ? "dm" : (named || {}).name || id);
  history.replaceState(null, "", "?" + q);
  resetComposer();
  refresh();
}

function switchMember(m) {
  state.as = m.name;
  state.view = { ...state.view, me: m };
  state.modalId = null;
  $("#modal-backdrop").hidden = true;
  state.dmSeen = Number(sessionStorage.getItem("dmSeen:" + m.name) || 0);
  const q = new URLSearchParams(location.search);
  q.set("as", m.name);
  history.replaceState(null, "", "?" + q);
  resetComposer();
  refresh();
}

$("#add-member").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const input = ev.target.elements.name;
  const name = input.value.trim();
  if (!name) return;
  const done = await post("add_member", { name });
  if (done) input.value = "";
});
$("#guild-locale").addEventListener("change", (ev) => post("locale", { locale: ev.target.value, server: true }));
$("#my-locale").addEventListener("change", (ev) => post("locale", { locale: ev.target.value }));

function toast(text) {
  console.info("sandbox: " + text);
  const t = el("div", { class: "toast", role: "alert", dir: "auto" }, text);
  $("#toasts").append(t);
  setTimeout(() => t.remove(), 6000);
}

// a channel given by name in the address (?channel=baccarat)
async function start() {
  const wanted = state.channel;
  state.channel = wanted === "dm" ? "dm" : "";
  await refresh();
  if (state.view && wanted && wanted !== "dm") {
    const all = [...state.view.channels, ...(state.view.group_dms || [])];
    const c = all.find((x) => x.name === wanted || x.id === wanted);
    if (c) { state.channel = c.id; await refresh(); }
  }
  connect();
  setInterval(updateTimes, 1000);
}
start();
