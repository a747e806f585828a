// The navigation's "Me" menu, a <details> that opens and closes without script, closes as a menu
// does with it (issue 57): on Escape, giving focus back to "Me", and on a click or tap outside it.
"use strict";

(() => {
  const menu = document.getElementById("me-menu");
  if (!menu) return;
  const toggle = menu.querySelector("summary");
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !menu.open) return;
    menu.open = false;
    toggle.focus();
  });
  document.addEventListener("click", (event) => {
    if (menu.open && !menu.contains(event.target)) menu.open = false;
  });
})();
