// Copy and share: beside every link the site shows only once (a text field marked `data-copy`),
// a "Copy link" button and, where the browser has the Web Share API (phones, mostly), "Share
// link…". Without this script, or where the clipboard is refused, the link stays selectable text.
// Its words are on its own <script> element, in the page's language (Views/layout.html).
"use strict";

(() => {
  const words = document.currentScript.dataset;
  const button = (label, action) => {
    const element = document.createElement("button");
    element.type = "button";
    element.className = "button button-secondary button-small";
    element.textContent = label;
    element.addEventListener("click", action);
    return element;
  };

  for (const field of document.querySelectorAll("input[data-copy]")) {
    const bar = document.createElement("div");
    bar.className = "copy-share";
    const status = document.createElement("p");
    status.className = "copy-status";
    status.setAttribute("role", "status");
    bar.append(button(words.copy, async () => {
      try {
        await navigator.clipboard.writeText(field.value);
        status.textContent = words.copied;
      } catch {
        // No clipboard for this page (an old browser, or permission refused): select the link,
        // so that the device's own copy command takes it.
        field.focus();
        field.select();
        status.textContent = words.selected;
      }
    }));
    if (navigator.share) {
      bar.append(button(words.share, () => {
        // Closing the share sheet rejects the promise: nothing to say then.
        navigator.share({ url: field.value }).catch(() => {});
      }));
    }
    bar.append(status);
    field.after(bar);
  }
})();
