// The sandbox page's own script, added to SimCord's page by the sandbox. SimCord's page shows one channel at a time
// for one viewer; this script makes it easier to live in:
//
// - When "Viewing as" changes, or the page opens (a reload), the page shows the current turn again. For a new viewer the page draws every message
//   again, and a picture takes its room only once it has loaded: the pictures loading above would push the current
//   turn out of sight. Once the page has settled, the message the preview points at (the bot's newest) is brought
//   back into view and kept there while the pictures finish loading, for a while or until the person scrolls.
// - A reload keeps the viewer: the tab's viewer is kept (in the tab, and in a cookie the sandbox reads when the
//   page opens again).
// - In a game's thread, "‹ #kokeshi" above the conversation leads back to the channel, and the sandbox's channel
//   links (in /kokeshi status, the lobby, the final scores) move this page instead of opening a new tab; so do a
//   Discord message link (a shared card's) and, in the channel, a thread's summary under its first message.
// - Private replies ("Only you can see this") never push the live prompt's buttons out of sight: those that came
//   after the newest message with buttons are shown just above it, unless they have live buttons of their own.
// - After the sandbox was restarted, the page opens its address again by itself (the address stays the same).
// - Pictures out of sight are decoded when they come into sight, not before the page is ready.
// - A follow-up message's "(edited)" is drawn under its time in the margin, not over it.
// - After a press, the answer (the next turn) is brought into view with its buttons or menu, even when its words are
//   long; a command option whose choices the bot gives (`/games new game:`) lists them as soon as it is focused.

const picker = document.getElementById("viewer-picker");
const app = document.getElementById("preview-app");
const timeline = document.getElementById("channel-timeline");
const list = document.getElementById("channel-message-list");
const header = document.querySelector(".channel-header");
const channelName = document.getElementById("channel-name");
const config = document.querySelector("script[data-home]")?.dataset ?? {};
// The sandbox's address is /<key>/play#<capability>.
const key = /^\/([^/]+)\/play$/.exec(window.location.pathname)?.[1] ?? null;
const capability = window.location.hash.slice(1);

// ------------------------------------------------------------------------------ pictures decoded as they are shown

// The page is ready only once every picture of the conversation is decoded. With a thread of turn pictures (up to
// 50 in view, most of them far out of sight), that made each "Viewing as" switch wait seconds on decoding. A
// picture of the conversation now counts as ready once loaded (its size known); the browser decodes each one when
// it comes into sight, as it does on any page.
const decodeNow = HTMLImageElement.prototype.decode;
HTMLImageElement.prototype.decode = function decode() {
  if (!this.closest("#channel-message-list")) return decodeNow.call(this);
  if (this.complete) return this.naturalWidth ? Promise.resolve() : decodeNow.call(this);
  return new Promise((resolve, reject) => {
    this.addEventListener("load", () => resolve(), { once: true });
    this.addEventListener("error", () => decodeNow.call(this).then(resolve, reject), { once: true });
  });
};

// ---------------------------------------------------------------------------------------- the current turn in view

// For a while once the new viewer's messages are drawn (long enough for a busy machine to load every picture), until
// the person scrolls, clicks or types, the current turn is kept in view. The page opening (a reload, or the sandbox's
// own reopening after a restart) draws the viewer's messages as a switch does, so it is kept in view then too.
// A minute: on a busy machine the answer to a press (an AI's turn, then the next prompt) has taken more than 20 s.
const FOLLOW_MS = 60000;
let switched = true;
let followUntil = 0;
let actedUntil = 0;
let actedOn = null;
let newestAtPress = null;
// The message pressed and where its top was in the view then.
let pressed = null;
const ACTIONS = ".component-button, [role=combobox], [role=option]";
// A private reply with buttons of its own: it stays last (a replay's viewer, the tracks for a tile).
const LIVE_PRIVATE = ":has(.message-ephemeral-note):has(.component-row)";
const ROWS = ".component-row";

function currentMessage() {
  return (
    list.querySelector("article.channel-message.message-surface") ||
    list.querySelector("article.channel-message:last-of-type")
  );
}

function follow() {
  if (app.getAttribute("aria-busy") !== "false") return;
  const target = currentMessage();
  // Between two viewers the page is briefly empty; wait for the new viewer's messages.
  if (!target) return;
  if (switched) {
    switched = false;
    followUntil = performance.now() + FOLLOW_MS;
  }
  if (performance.now() > followUntil) return;
  // A private reply with buttons of its own (a replay's viewer) stays last: it is what the person was doing.
  const live = newestMessage();
  if (live?.matches(LIVE_PRIVATE)) bringIntoView(live);
  // With private replies shown above the live prompt, the turn is the newest reply and the prompt's buttons.
  else if (!showReplyAndButtons()) bringTurnIntoView(target);
}

// After one of the conversation's buttons or menus was used: once the answer is a new message (the next turn), it is
// brought into view, and kept there as its pictures take their room. The message that was pressed is never moved
// (a second press on it must land where the person aims), and the page's own scrolling does not trigger it, so
// moving to another control is never undone.
function followAnswer() {
  if (performance.now() > actedUntil || app.getAttribute("aria-busy") !== "false") return;
  // A private answer with buttons of its own (a replay's viewer, the tracks for a tile) comes last: it is the
  // answer, even when the message the preview points at is still the one pressed.
  const newest = newestMessage();
  if (newest && newest.dataset.messageId !== newestAtPress && newest.matches(LIVE_PRIVATE)) {
    bringIntoView(newest);
    return;
  }
  let target = currentMessage();
  if (!target) return;
  if (target.dataset.messageId === actedOn || target.dataset.messageId === pressed?.id) {
    // The page may still point at the pressed message (redrawn without its buttons once the next turn was posted):
    // the answer is then the newest public message posted since the press, if there is one.
    target = answerSincePress();
    if (!target) return;
  }
  if (!showReplyAndButtons()) bringTurnIntoView(target);
}

// The newest public message (not a private reply) that came after the newest message at the press, if any.
function answerSincePress() {
  const shown = [...list.querySelectorAll(":scope > article.channel-message")];
  const since = shown.findIndex((message) => message.dataset.messageId === newestAtPress);
  if (since < 0) return null;
  const later = shown.slice(since + 1).filter((message) => !message.querySelector(PRIVATE));
  return later.length ? later[later.length - 1] : null;
}

// An answer that redraws the pressed message in place (a replay's next turn, a turn's next step) leaves it where it
// was, its buttons under the finger for the next press, while its new picture takes its room (the page would
// otherwise keep the conversation's end in view, and the buttons would go up out of sight); unless its buttons would
// then be below the view: it goes up just enough to show them. A new message is followAnswer's.
function keepPressed() {
  if (!pressed || performance.now() > actedUntil) return;
  if (newestMessage()?.dataset.messageId !== newestAtPress) return;
  const message = list.querySelector(`:scope > article.channel-message[data-message-id="${pressed.id}"]`);
  if (!message) return;
  const view = timeline.getBoundingClientRect();
  let moved = message.getBoundingClientRect().top - view.top - pressed.top;
  // Its buttons in sight all the same: the redraw may have given it more of them (a turn's next step).
  const rows = message.querySelectorAll(ROWS);
  if (rows.length) moved += Math.max(0, rows[rows.length - 1].getBoundingClientRect().bottom + 8 - moved - view.bottom);
  if (Math.abs(moved) >= 1) timeline.scrollTop += moved;
}

function newestMessage() {
  const shown = list.querySelectorAll(":scope > article.channel-message");
  return shown.length ? shown[shown.length - 1] : null;
}

// A turn in view: from its top, and its buttons or menu too when its words are long enough to push them below the
// view (a turn that tells several moves, on a phone); the words above can be scrolled back to.
function bringTurnIntoView(target) {
  bringIntoView(target);
  const rows = target.querySelectorAll(ROWS);
  if (!rows.length) return;
  const view = timeline.getBoundingClientRect();
  const below = rows[rows.length - 1].getBoundingClientRect().bottom + 8 - view.bottom;
  if (below > 0) timeline.scrollTop += below;
}

function bringIntoView(target) {
  const view = timeline.getBoundingClientRect();
  const box = target.getBoundingClientRect();
  if (box.height > view.height || box.top < view.top) timeline.scrollTop += box.top - view.top;
  else if (box.bottom > view.bottom) timeline.scrollTop += box.bottom - view.bottom;
}

if (picker && app && timeline && list) {
  picker.addEventListener("change", () => {
    switched = true;
  });
  // The person takes over: they scroll, touch, click or type.
  const stop = () => {
    switched = false;
    followUntil = 0;
    actedUntil = 0;
    replyUntil = 0;
  };
  // Except when they press one of the conversation's buttons or menus: then the answer (the next turn, with its
  // buttons) is brought into view as it comes, as a chat does after one's own message.
  const act = (event) => {
    stop();
    const control = event.target instanceof Element ? event.target.closest(ACTIONS) : null;
    if (control && list.contains(control)) {
      actedUntil = performance.now() + FOLLOW_MS;
      actedOn = currentMessage()?.dataset.messageId ?? null;
      newestAtPress = newestMessage()?.dataset.messageId ?? null;
      const message = control.closest("article.channel-message");
      const top = message ? message.getBoundingClientRect().top - timeline.getBoundingClientRect().top : 0;
      pressed = message ? { id: message.dataset.messageId, top } : null;
    }
  };
  for (const kind of ["wheel", "touchmove"]) {
    timeline.addEventListener(kind, stop, { passive: true });
  }
  timeline.addEventListener("pointerdown", act, { passive: true });
  // Seen before the page's own handlers: an open menu takes its Enter for itself, and the pick must count as a press.
  // Moving through a menu, or closing it, is not taking over. Nor is a key that reaches neither the conversation nor
  // a field: with the focus left on the page (a menu the page drew again under it), it moves nothing.
  const inMenu = (event) =>
    event.target instanceof Element && list.contains(event.target.closest("[role=combobox], [role=listbox]"));
  const typed = (event) =>
    event.target instanceof Element && event.target.closest("input, textarea, select, [contenteditable=true]");
  const pressKey = (event) => {
    const here = event.target instanceof Element && timeline.contains(event.target);
    if (!here && !typed(event)) return;
    if (event.key === "Enter" || event.key === " ") act(event);
    else if (event.key !== "Escape" && !inMenu(event)) stop();
  };
  document.addEventListener("keydown", pressKey, { capture: true, passive: true });
  // New messages (the page may draw the new viewer's after it says it is ready), and anything that changes the
  // messages' height (a picture taking its room as it loads), move the turn; they may be the answer to one's press,
  // as is the page being ready again (an answer drawn while it was busy).
  const followBoth = () => {
    follow();
    followAnswer();
    keepPressed();
  };
  new MutationObserver(followBoth).observe(app, { attributes: true, attributeFilter: ["aria-busy"] });
  new MutationObserver(followBoth).observe(list, { childList: true });
  new ResizeObserver(followBoth).observe(list);
  // So does the page's own scrolling once it is ready (it gives the focus back to a control it had, which brings
  // that control into view): the turn is brought back, the answer to a press too, and a message redrawn in place
  // after a press stays put.
  timeline.addEventListener(
    "scroll",
    () => {
      follow();
      followAnswer();
      keepPressed();
    },
    { passive: true },
  );
}

// ------------------------------------------------------------------------------------- the viewer over a reload

const VIEWER = "kokeshi-viewer";

function keepViewer(id) {
  if (!/^\d+$/.test(id || "")) return;
  sessionStorage.setItem(VIEWER, id);
  document.cookie = `${VIEWER}=${id}; path=/; max-age=31536000; SameSite=Strict`;
}

if (picker) {
  // Read before the page's own handler, which empties the picker while it changes viewer.
  document.addEventListener("change", (event) => event.target === picker && keepViewer(picker.value), true);
  // The cookie is shared by every tab; the one this tab leaves with is its own viewer, for its reload.
  window.addEventListener("pagehide", () => keepViewer(sessionStorage.getItem(VIEWER)));
}

// ------------------------------------------------------------------------------- back to #kokeshi, links in place

function followChannel(id) {
  if (!key) return Promise.resolve();
  // The sandbox moves every open page to that channel; this one shows it at its next look (half a second).
  return fetch(`/${key}/follow/${id}`, { method: "POST", cache: "no-store" }).catch(() => {});
}

if (key && config.home && header && channelName) {
  const back = document.createElement("a");
  back.id = "kokeshi-home";
  back.href = `/${key}/channel/${config.home}`;
  back.textContent = `‹ #${config.homeName || "kokeshi"}`;
  back.title = `Back to #${config.homeName || "kokeshi"}`;
  Object.assign(back.style, {
    flex: "0 0 auto",
    padding: "4px 10px",
    borderRadius: "12px",
    background: "#5865f2",
    color: "#fff",
    fontSize: "14px",
    fontWeight: "600",
    lineHeight: "20px",
    textDecoration: "none",
    whiteSpace: "nowrap",
  });
  header.prepend(back);
  const show = () => {
    const name = channelName.textContent.trim();
    back.hidden = !name || name === config.homeName;
    back.style.display = back.hidden ? "none" : "";
  };
  new MutationObserver(show).observe(channelName, { childList: true, characterData: true, subtree: true });
  show();
}

// A message's link on Discord (https://discord.com/channels/<server>/<channel>/<message>, as the bot's "Shared:"
// reply gives) leads to that channel in the sandbox too.
const discordLink = /^\/channels\/\d+\/(\d+)(?:\/\d+)?\/?$/;

// The channel or thread a link leads to in the sandbox, if it leads to one.
function linkedChannel(link, channelLink) {
  const address = new URL(link.href, window.location.href);
  const found =
    (address.origin === window.location.origin && channelLink.exec(address.pathname)) ||
    (address.origin === "https://discord.com" && discordLink.exec(address.pathname));
  return found ? found[1] : null;
}

// On Discord a thread's summary under its first message opens the thread; here too. The thread's id is its first
// message's.
const THREAD = ".thread-summary";

function summaryThread(target) {
  const summary = target instanceof Element ? target.closest(THREAD) : null;
  return summary ? summary.closest("article.channel-message")?.dataset.messageId ?? null : null;
}

if (key) {
  const channelLink = new RegExp(`^/${key}/channel/(\\d+)$`);
  document.addEventListener(
    "click",
    (event) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      const found = link ? linkedChannel(link, channelLink) : summaryThread(event.target);
      if (!found) return;
      event.preventDefault();
      event.stopPropagation();
      followChannel(found);
    },
    true,
  );
  document.addEventListener(
    "keydown",
    (event) => {
      const found = event.key === "Enter" || event.key === " " ? summaryThread(event.target) : null;
      if (!found) return;
      event.preventDefault();
      followChannel(found);
    },
    true,
  );
  // Shown as what it is: something to press, reached with the keyboard too.
  const mark = () => {
    for (const summary of list?.querySelectorAll(`${THREAD}:not([role])`) ?? []) {
      summary.setAttribute("role", "link");
      summary.tabIndex = 0;
      summary.title = "Open the thread";
      summary.style.cursor = "pointer";
    }
  };
  if (list) new MutationObserver(mark).observe(list, { childList: true, subtree: true });
  mark();
}

// ----------------------------------------------------------------------- private replies above the live prompt

const PRIVATE = ".message-ephemeral-note";
const CONTROLS = ".component-row";
// The newest public message with buttons, when only private replies follow it, and those replies.
const live = { prompt: null, replies: [], shown: "" };
// For a moment after a new reply is shown, the page's own scrolling does not take it (or the buttons) away.
const REPLY_MS = 3000;
let replyUntil = 0;

function placeReplies() {
  const messages = [...list.querySelectorAll(":scope > article.channel-message")];
  let prompt = -1;
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    if (messages[i].querySelector(PRIVATE)) continue;
    if (messages[i].querySelector(CONTROLS)) prompt = i;
    break;
  }
  live.prompt = prompt >= 0 ? messages[prompt] : null;
  live.replies = [];
  for (const [i, message] of messages.entries()) {
    // Spent private replies after the prompt go just above it; the prompt and live private buttons stay last.
    let order = "";
    if (prompt >= 0 && i >= prompt) order = i > prompt && !message.querySelector(CONTROLS) ? "1" : "2";
    if (order === "1") live.replies.push(message);
    if (message.style.order !== order) message.style.order = order;
  }
  // Set apart from the replies above it, the prompt reads as the message it is.
  for (const [i, message] of messages.entries()) {
    const apart = i === prompt && live.replies.length > 0;
    const border = apart ? "1px solid #3f4147" : "";
    if (message.style.borderTop !== border) {
      message.style.borderTop = border;
      message.style.marginTop = apart ? "12px" : "";
      message.style.paddingTop = apart ? "8px" : "";
    }
  }
  // A day's divider goes with the message it heads.
  for (const divider of list.querySelectorAll(":scope > .timeline-day-divider")) {
    const next = divider.nextElementSibling;
    const order = next && next.style.order ? next.style.order : "";
    if (divider.style.order !== order) divider.style.order = order;
  }
}

// When a new private reply has come (and once it is complete), the view shows it with the prompt's buttons under
// it: the page itself scrolls to the reply, which may leave the buttons just out of sight.
function showReplyWithButtons() {
  const reply = live.replies[live.replies.length - 1];
  if (!reply || !live.prompt || app.getAttribute("aria-busy") !== "false") return;
  const shown = `${reply.dataset.messageId}:${reply.querySelector(".message-loading") ? "" : "done"}`;
  if (shown !== live.shown) {
    live.shown = shown;
    replyUntil = performance.now() + REPLY_MS;
  }
  if (performance.now() <= replyUntil) showReplyAndButtons();
}

// Scroll so that the prompt's buttons are in sight, and as much of the newest reply above them as fits; false when
// there is no private reply above a live prompt. Once in place, calling it again changes nothing.
function showReplyAndButtons() {
  const reply = live.replies[live.replies.length - 1];
  const rows = live.prompt && live.prompt.isConnected ? live.prompt.querySelectorAll(CONTROLS) : [];
  if (!reply || !reply.isConnected || !rows.length) return false;
  const view = timeline.getBoundingClientRect();
  const buttons = rows[rows.length - 1].getBoundingClientRect().bottom + 8;
  const top = reply.getBoundingClientRect().top - 8;
  if (buttons > view.bottom) timeline.scrollTop += buttons - view.bottom;
  // The reply above the view: show it too, as far as the buttons stay in sight.
  else if (top < view.top) timeline.scrollTop -= Math.min(view.top - top, view.bottom - buttons);
  return true;
}

if (list && app && timeline) {
  list.style.display = "flex";
  list.style.flexDirection = "column";
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      placeReplies();
      showReplyWithButtons();
    });
  }).observe(list, { childList: true, subtree: true });
  new MutationObserver(() => requestAnimationFrame(showReplyWithButtons)).observe(app, {
    attributes: true,
    attributeFilter: ["aria-busy"],
  });
  timeline.addEventListener("scroll", showReplyWithButtons, { passive: true });
}

// ---------------------------------------------------------------------------------- "(edited)" beside a follow-up

// A message that follows another of the same author's shows its time in the left margin when pointed at (or touched,
// on a phone), and the page puts its "(edited)" on a line of its own in that same place, under the time drawn over it
// (and a turn whose buttons were taken away then begins with an empty line). Here it goes under the time.
// (A sheet of the script's own: the page's content policy refuses a <style> element.)
const edited = new CSSStyleSheet();
edited.replaceSync(`#channel-message-list .message-edited-compact {
  position: absolute; top: 21px; left: 0; width: 55px; text-align: right; line-height: 14px;
}`);
document.adoptedStyleSheets = [...document.adoptedStyleSheets, edited];

// ------------------------------------------------------------------------ a command option's choices on focus

// On Discord, an option whose choices the bot gives as one types (`/games new game:`) lists them as soon as it is
// focused. The page asks the bot only once something is typed, and shows "No options match" until then: an empty
// field that is focused asks the bot at once, as if typed into.
const OPTION_FIELD = "input.command-option-input[role=combobox]";

function askChoices(field) {
  const heading = document.querySelector(".command-popup-heading");
  const empty = document.querySelector("#command-suggestion-listbox > .command-empty");
  if (!field.isConnected || document.activeElement !== field || field.value !== "") return;
  if (!heading || !empty || !heading.textContent.startsWith("OPTIONS MATCHING")) return;
  field.dispatchEvent(new Event("input", { bubbles: true }));
}

document.addEventListener(
  "focusin",
  (event) => {
    const field = event.target instanceof Element ? event.target.closest(OPTION_FIELD) : null;
    if (field) requestAnimationFrame(() => askChoices(field));
  },
  true,
);

// --------------------------------------------------------------------------------------- after a restart

// A page whose sandbox was stopped and started again holds an old capability: it opens the address again (it
// answers 401 then; 410 means the capability is good). A sandbox that is down answers nothing: the page waits.
if (key && capability) {
  const look = async () => {
    try {
      const answer = await fetch("/api/state", { headers: { "X-Simcord-Capability": capability }, cache: "no-store" });
      if (answer.status === 401) {
        window.location.replace(`/${key}/`);
        return;
      }
    } catch (_) {
      // The sandbox is down for now.
    }
    setTimeout(look, 2000);
  };
  setTimeout(look, 2000);
}
