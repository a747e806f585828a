// Live barcode scanning on "Add a book" (/books/new). Where the browser has BarcodeDetector and the
// page came over HTTPS (browsers give the camera to secure pages only), "Scan live with the camera"
// shows the camera's picture and, as soon as it sees a book's barcode (an EAN-13 from 978 or 979
// whose check digit holds), puts the ISBN into the ISBN field and looks it up. Elsewhere it says
// why there is no live scan; the photo form above it works everywhere, without this script too.
// A handheld scanner needs nothing from here: it types the digits and Enter into the ISBN field
// as a keyboard does. Its sentences are the panel's data-… attributes, in the page's language.
"use strict";

(() => {
  const panel = document.getElementById("live-scan");
  if (!panel) return;
  const note = document.getElementById("live-scan-note");
  const start = document.getElementById("live-scan-start");
  const stop = document.getElementById("live-scan-stop");
  const video = document.getElementById("live-scan-video");
  const sentences = panel.dataset;
  panel.hidden = false;

  const unavailable = (words) => {
    note.textContent = words;
    start.hidden = true;
  };
  if (!window.isSecureContext) {
    unavailable(sentences.httpsOnly);
    return;
  }
  if (!("BarcodeDetector" in window) || !navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
    unavailable(sentences.noDetector);
    return;
  }

  // Weights 1 and 3 alternately; the check digit brings the sum to a multiple of 10.
  const isBook = (code) => {
    if (!/^97[89][0-9]{10}$/.test(code)) return false;
    const sum = [...code].reduce((total, digit, index) => total + Number(digit) * (index % 2 === 0 ? 1 : 3), 0);
    return sum % 10 === 0;
  };

  let stream = null;
  const stopCamera = () => {
    if (stream) stream.getTracks().forEach((track) => track.stop());
    stream = null;
    video.srcObject = null;
    video.hidden = true;
    stop.hidden = true;
    start.hidden = false;
  };

  const lookUp = (isbn) => {
    const field = document.getElementById("lookup_isbn");
    if (field && field.form) {
      field.value = isbn;
      field.form.requestSubmit();
    } else {
      window.location.assign("/books/new?isbn=" + isbn);
    }
  };

  const watch = async (detector) => {
    if (!stream) return;
    try {
      const codes = (await detector.detect(video)).map((code) => code.rawValue);
      const book = codes.find(isBook);
      if (book) {
        note.textContent = sentences.found.replace("{isbn}", book);
        stopCamera();
        lookUp(book);
        return;
      }
      if (codes.length > 0) note.textContent = sentences.notABook.replace("{code}", codes[0]);
    } catch {
      // A frame the detector could not read (the video still starting): try the next one.
    }
    window.setTimeout(() => watch(detector), 150);
  };

  start.addEventListener("click", async () => {
    let formats = [];
    try {
      formats = await BarcodeDetector.getSupportedFormats();
    } catch {
      formats = [];
    }
    if (!formats.includes("ean_13")) {
      unavailable(sentences.noBookBarcodes);
      return;
    }
    try {
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
    } catch {
      note.textContent = sentences.noCamera;
      return;
    }
    video.srcObject = stream;
    video.hidden = false;
    start.hidden = true;
    stop.hidden = false;
    await video.play();
    note.textContent = sentences.point;
    watch(new BarcodeDetector({ formats: ["ean_13"] }));
  });
  stop.addEventListener("click", () => {
    stopCamera();
    note.textContent = "";
  });
})();
