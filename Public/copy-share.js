// Copy and share: beside every link the site shows only once (a text field marked `data-copy`),
// a "Copy link" button and, where the browser has the Web Share API (phones, mostly), "Share
// link…". Without this script, or where the clipboard is refused, the link stays selectable text.
"use strict";

(() => {
  const button = (words, action) => {
    const element = document.createElement("button");
    element.type = "button";
    element.className = "button button-secondary button-small";
    element.textContent = words;
    element.addEventListener("click", action);
    return element;
  };

  for (const field of document.querySelectorAll("input[data-copy]")) {
    const bar = document.createElement("div");
    bar.className = "copy-share";
    const status = document.createElement("p");
    status.className = "copy-status";
    status.setAttribute("role", "status");
    bar.append(button("Copy link", async () => {
      try {
        await navigator.clipboard.writeText(field.value);
        status.textContent = "Copied.";
      } catch {
        // No clipboard for this page (an old browser, or permission refused): select the link,
        // so that the device's own copy command takes it.
        field.focus();
        field.select();
        status.textContent = "The link is selected: copy it with your device's copy command.";
      }
    }));
    if (navigator.share) {
      bar.append(button("Share link…", () => {
        // Closing the share sheet rejects the promise: nothing to say then.
        navigator.share({ url: field.value }).catch(() => {});
      }));
    }
    bar.append(status);
    field.after(bar);
  }
})();
