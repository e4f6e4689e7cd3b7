// The tab's page around textual-serve's terminal (textual.js, loaded before this file, starts
// it on window load).
"use strict";
(() => {
  const terminal = document.getElementById("terminal");
  // The game's WebSocket: this page's own server, by whatever address the page was opened.
  terminal.dataset.sessionWebsocketUrl = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
  // ?fontsize=20 for a bigger (or smaller) game: fewer (more) columns in the same window.
  const size = parseInt(new URLSearchParams(location.search).get("fontsize") || "", 10);
  if (size >= 8 && size <= 40) terminal.dataset.fontSize = String(size);

  // Say why a session ended: the server gives the reason when it closes the WebSocket.
  const NativeWebSocket = window.WebSocket;
  window.WebSocket = class extends NativeWebSocket {
    constructor(...args) {
      super(...args);
      // marks for bench/web.py: when the game's connection opened, when its first screen came
      this.addEventListener("open", () => performance.mark("pigeon-ws-open"), { once: true });
      const screen = (event) => {
        if (typeof event.data === "string") return;
        performance.mark("pigeon-first-data");
        this.removeEventListener("message", screen);
      };
      this.addEventListener("message", screen);
      this.addEventListener("close", (event) => {
        if (event.reason) document.querySelector(".closed-dialog .message").textContent = event.reason;
      });
    }
  };
  document.getElementById("restart").addEventListener("click", () => location.reload());

  // Measure the terminal's cells with the game's font, not a fallback: start once it is loaded;
  // then keys go to the game at once, with no click first.
  const start = window.onload;
  window.onload = (event) => {
    const go = () => {
      if (start) start.call(window, event);
      if (terminal.terminal) terminal.terminal.focus();
    };
    document.fonts.load('16px "Roboto Mono"').then(go, go);
  };
})();
