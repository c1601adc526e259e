// The sandbox page's own script: when "Viewing as" changes, the page shows the current turn again.
//
// For a new viewer the page draws every message again, and a picture takes its room only once it has loaded.
// Meanwhile the browser keeps an older message in place, so the pictures loading above push the current turn
// out of sight. Once the page has settled, this brings the message the preview points at (the bot's newest)
// back into view, placed as the page places it when it opens.

const picker = document.getElementById("viewer-picker");
const app = document.getElementById("preview-app");
const timeline = document.getElementById("channel-timeline");
const list = document.getElementById("channel-message-list");
let switching = false;

function currentMessage() {
  return (
    list.querySelector("article.channel-message.message-surface") ||
    list.querySelector("article.channel-message:last-of-type")
  );
}

function settle() {
  if (!switching || app.getAttribute("aria-busy") !== "false") return;
  const target = currentMessage();
  // Between two viewers the page is briefly empty; wait for the new viewer's messages.
  if (!target) return;
  switching = false;
  const view = timeline.getBoundingClientRect();
  const box = target.getBoundingClientRect();
  if (box.height > view.height || box.top < view.top) timeline.scrollTop += box.top - view.top;
  else if (box.bottom > view.bottom) timeline.scrollTop += box.bottom - view.bottom;
}

if (picker && app && timeline && list) {
  picker.addEventListener("change", () => {
    switching = true;
  });
  new MutationObserver(settle).observe(app, { attributes: true, attributeFilter: ["aria-busy"] });
}
