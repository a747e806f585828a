// Passkeys: the site's only script. It shows the passkey buttons when the browser can use
// passkeys, and runs the two WebAuthn ceremonies: adding a passkey (Settings) and signing in with
// one (the sign-in page). Everything else on the site works without it. Its words are on its own
// <script> element, in the page's language (Views/layout.html); the server's refusals come worded.
"use strict";

(() => {
  const words = document.currentScript.dataset;
  if (!window.PublicKeyCredential || !navigator.credentials) return;

  const bytes = (text) => {
    const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(base64 + "===".slice((base64.length + 3) % 4)), (c) => c.charCodeAt(0));
  };
  const text = (buffer) =>
    btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

  // The sentence shown when the browser itself stops the ceremony.
  const explain = (error) => {
    if (error.name === "NotAllowedError" || error.name === "AbortError") {
      return words.cancelled;
    }
    if (error.name === "InvalidStateError") return words.registered;
    if (error.name === "SecurityError") return words.wrongSite;
    if (error.name === "NotSupportedError") return words.unsupported;
    return error.message || words.failed;
  };

  const post = async (path, csrfToken, body) => {
    const response = await fetch(path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken },
      body: JSON.stringify(body),
    });
    // Anything but JSON (a redirect followed to a page, the expired-form page) means this page is stale.
    const isJSON = (response.headers.get("Content-Type") || "").startsWith("application/json");
    const answer = isJSON && !response.redirected ? await response.json().catch(() => null) : null;
    if (!answer) throw new Error(words.expired);
    if (!response.ok) throw new Error(answer.error || words.noAnswer);
    return answer;
  };

  // A ceremony behind a button: busy while it runs, its error shown in the panel's live region.
  const wire = (panel, ceremony) => {
    const button = panel.querySelector("button");
    const status = panel.querySelector("[data-passkey-status]");
    const csrfToken = document.querySelector('input[name="csrf_token"]').value;
    button.addEventListener("click", async () => {
      status.textContent = "";
      button.disabled = true;
      try {
        const { redirect } = await ceremony(panel, csrfToken);
        window.location.assign(redirect);
      } catch (error) {
        status.textContent = explain(error);
        button.disabled = false;
      }
    });
    panel.hidden = false;
  };

  const addPasskey = async (panel, csrfToken) => {
    const name = panel.querySelector("#passkey-name").value.trim();
    const password = panel.querySelector("#passkey-password").value;
    if (!name) throw new Error(words.nameFirst);
    if (!password) throw new Error(words.passwordFirst);
    const options = await post("/passkeys/registration/options", csrfToken, { password });
    options.challenge = bytes(options.challenge);
    options.user.id = bytes(options.user.id);
    options.excludeCredentials = options.excludeCredentials.map((c) => ({ ...c, id: bytes(c.id) }));
    const credential = await navigator.credentials.create({ publicKey: options });
    return post("/passkeys/registration", csrfToken, {
      name,
      clientDataJSON: text(credential.response.clientDataJSON),
      attestationObject: text(credential.response.attestationObject),
    });
  };

  const signIn = async (panel, csrfToken) => {
    const options = await post("/passkeys/sign-in/options", csrfToken, {});
    options.challenge = bytes(options.challenge);
    const credential = await navigator.credentials.get({ publicKey: options });
    const response = credential.response;
    return post("/passkeys/sign-in", csrfToken, {
      id: credential.id,
      clientDataJSON: text(response.clientDataJSON),
      authenticatorData: text(response.authenticatorData),
      signature: text(response.signature),
      userHandle: response.userHandle ? text(response.userHandle) : "",
      next: panel.dataset.next || "/",
    });
  };

  document.querySelectorAll("[data-passkey='add']").forEach((panel) => wire(panel, addPasskey));
  document.querySelectorAll("[data-passkey='sign-in']").forEach((panel) => wire(panel, signIn));
})();
