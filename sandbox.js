// The sandbox page's own script: when "Viewing as" changes, the page shows the current turn again.
//
// For a new viewer the page draws every message again, and a picture takes its room only once it has loaded.
// Meanwhile the browser keeps an older message in place, so the pictures loading above push the current turn
// out of sight. Once the page has settled, this brings the message the preview points at (the bot's newest)
// back into view, placed as the page places it when it opens, and keeps it there while the pictures finish
// loading, for a few seconds or until the person scrolls.

const picker = document.getElementById("viewer-picker");
const app = document.getElementById("preview-app");
const timeline = document.getElementById("channel-timeline");
const list = document.getElementById("channel-message-list");
// For a few seconds once the new viewer's messages are drawn, until the person scrolls, clicks or types, the
// current turn is kept in view.
const FOLLOW_MS = 8000;
let switched = false;
let followUntil = 0;

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
  bringIntoView(target);
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
  const stop = () => {
    switched = false;
    followUntil = 0;
  };
  for (const kind of ["wheel", "touchmove", "keydown", "pointerdown"]) {
    timeline.addEventListener(kind, stop, { passive: true });
  }
  new MutationObserver(follow).observe(app, { attributes: true, attributeFilter: ["aria-busy"] });
  // The page may draw the new viewer's messages after it says it is ready.
  new MutationObserver(follow).observe(list, { childList: true });
  // Anything that changes the messages' height (a picture taking its room as it loads) moves the turn.
  new ResizeObserver(follow).observe(list);
}
