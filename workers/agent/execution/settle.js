// Installed in every document before the page's own scripts (generation and the generated suite alike):
// counts the page's fetch and XMLHttpRequest calls in flight and notes DOM changes, so that a caller can wait
// until the page is quiet, or for its next change, instead of sleeping.
//   window.__stepforge.settle(quietMs, timeoutMs) -> true once nothing is in flight and nothing changed for
//                                                    quietMs (at once when that already holds); false at timeout;
//                                                    after typing into a rich-text editor, first until its form
//                                                    value holds its text (synced)
//   window.__stepforge.changed(timeoutMs, since)  -> true at the next request or DOM change (at once when the page
//                                                    changed after mark() returned `since`); false at timeout
//   window.__stepforge.mark()                     -> how many changes the page has made so far
//   window.__stepforge.synced(editor, text, ms)   -> true once the hidden field a rich-text editor copies its text
//                                                    into (after a debounce) holds `text`; at once without one
(() => {
  if (window.__stepforge) return;
  let pending = 0;
  let last = performance.now();
  let changes = 0;
  const listeners = new Set();
  const touch = () => {
    last = performance.now();
    changes += 1;
    for (const listener of Array.from(listeners)) listener();
  };
  const begin = () => { pending += 1; touch(); };
  const end = () => { pending = Math.max(0, pending - 1); touch(); };

  const originalFetch = window.fetch;
  if (originalFetch) {
    window.fetch = function (...args) {
      begin();
      let answer;
      try {
        answer = originalFetch.apply(this, args);
      } catch (error) {
        end();
        throw error;
      }
      answer.then(end, end);
      return answer;
    };
  }
  const originalSend = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (...args) {
    begin();
    this.addEventListener("loadend", end, { once: true });
    try {
      return originalSend.apply(this, args);
    } catch (error) {
      end();
      throw error;
    }
  };
  // Attributes that show or hide things count; class and style churn (spinners, animations) does not.
  new MutationObserver(touch).observe(document, {
    subtree: true, childList: true, characterData: true,
    attributes: true, attributeFilter: ["hidden", "disabled", "open", "aria-hidden", "aria-expanded", "aria-busy"],
  });

  function until(test, timeoutMs) {
    return new Promise((resolve) => {
      const started = performance.now();
      let timer = null;
      const finish = (value) => { clearTimeout(timer); listeners.delete(check); resolve(value); };
      function check() {
        const now = performance.now();
        const verdict = test(now);
        if (verdict === true) return finish(true);
        if (now - started >= timeoutMs) return finish(false);
        clearTimeout(timer);
        // Woken by the next request or change, or when the quiet window or the deadline ends.
        const left = timeoutMs - (now - started);
        timer = setTimeout(check, typeof verdict === "number" ? Math.min(verdict, left) : left);
      }
      listeners.add(check);
      check();
    });
  }

  // Elements the page listens to keys on (a type-ahead opens its suggestions on keyup): typed key by key.
  // Elements with a click listener of their own are clickable, whatever their tag (an icon, a row, a card).
  const keyed = new WeakSet();
  const clicked = new WeakSet();
  const originalListen = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, listener, options) {
    if (type === "keyup" || type === "keydown" || type === "keypress") {
      try { if (this instanceof Element) keyed.add(this); } catch (error) { /* not an element */ }
    } else if (type === "click" || type === "mousedown" || type === "pointerdown") {
      try { if (this instanceof Element) clicked.add(this); } catch (error) { /* not an element */ }
    }
    return originalListen.call(this, type, listener, options);
  };

  // A rich-text editor's form value: the hidden inputs and textareas of its form (tokens left out).
  const TOKEN = /csrf|token|nonce|captcha|^_method$|^utf8$|authenticity/i;
  const squash = (t) => String(t || "").replace(/<[^>]*>/g, " ").replace(/&nbsp;/g, " ").replace(/\s+/g, " ").trim();
  function editorFields(editor) {
    const form = editor.closest("form");
    if (!form || editor instanceof HTMLInputElement || editor instanceof HTMLTextAreaElement) return [];
    return Array.from(form.querySelectorAll("input[type=hidden], textarea")).filter((field) =>
      !TOKEN.test(field.name || field.id || "") && (field.type === "hidden" || field.offsetParent === null));
  }
  function synced(editor, text, timeoutMs) {
    const fields = editorFields(editor);
    const wanted = squash(text);
    const holds = () => fields.some((field) => squash(field.value).includes(wanted));
    if (!fields.length || !wanted || holds()) return Promise.resolve(true);
    // Scripts set a field's value without any event: it is looked at on each frame until it holds the text.
    return new Promise((resolve) => {
      const deadline = performance.now() + timeoutMs;
      const look = () => {
        if (holds()) return resolve(true);
        if (performance.now() >= deadline) return resolve(false);
        requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    });
  }

  Object.defineProperty(window, "__stepforge", {
    value: Object.freeze({
      settle: (quietMs, timeoutMs) => {
        const quiet = (now) => (pending > 0 ? false : now - last >= quietMs || quietMs - (now - last));
        const editor = document.activeElement;
        if (!editor || !editor.isContentEditable) return until(quiet, timeoutMs);
        // Typed into a rich-text editor: its text reaches the form only after the editor's debounce.
        const started = performance.now();
        return synced(editor, editor.innerText, timeoutMs)
          .then(() => until(quiet, Math.max(1, timeoutMs - (performance.now() - started))));
      },
      changed: (timeoutMs, since) => {
        const from = typeof since === "number" ? since : changes;
        return until(() => changes !== from, timeoutMs);
      },
      mark: () => changes,
      synced,
      pending: () => pending,
      keyed: (element) => keyed.has(element),
      clickable: (element) => clicked.has(element),
    }),
  });
})();
