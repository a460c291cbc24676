// Installed in every document before the page's own scripts (generation and the generated suite alike):
// counts the page's fetch and XMLHttpRequest calls in flight and notes DOM changes, so that a caller can wait
// until the page is quiet, or for its next change, instead of sleeping.
//   window.__stepforge.settle(quietMs, timeoutMs, requestsMs) -> true once nothing is in flight and nothing
//                                                    changed for quietMs (at once when that already holds); false
//                                                    at timeout, or with a request in flight then, once requestsMs
//                                                    passed without its answer;
//                                                    after typing into a rich-text editor, first until its form
//                                                    value holds its text (synced); while the page says it is
//                                                    still loading ("Loading…", a busy region) or shows nothing at
//                                                    all yet, up to requestsMs
//   window.__stepforge.changed(timeoutMs, since)  -> true at the next request or DOM change (at once when the page
//                                                    changed after mark() returned `since`); false at timeout
//   window.__stepforge.mark()                     -> how many changes the page has made so far
//   window.__stepforge.changedBefore(element)     -> the mark just before the element last changed (or null)
//   window.__stepforge.noteShown(text)            -> notes what shows `text` now (never an option of the list a
//                                                    click then opens, unless it changes) and returns mark()
//   window.__stepforge.pickable(text, ms, answerMs, since) -> the element "pick <text> from the list" clicks (or
//                                                    null); since: the change mark taken before the list was opened
//   window.__stepforge.placed(parts, text, relation, ms, absent) -> true once the text is shown above / below /
//                                                    beside one of the elements `parts`, inside one, in the row
//                                                    (record) of one, in the section one titles, or in the column
//                                                    one heads;
//                                                    absent: once it is not
//   window.__stepforge.states(element)           -> the states a person checks it for: ["enabled", "unchecked", ...]
//   window.__stepforge.toggleOf(element)         -> the toggle of the element's own row (an arrow, caret or chevron
//                                                    named so by its class) when it has exactly one, else the element
//   window.__stepforge.ownShape(element)         -> true when the element is no control of its own and what lies over
//                                                    its centre is a shape of its own widget (no text of its own, in
//                                                    the smallest box holding both, which shows the element's text and
//                                                    nothing more): the event reaches the widget's handler all the same
//   window.__stepforge.part(noun, words, side, key, ms) -> {found: 1} once exactly one part of the page of that kind
//                                                    (named by the words, on that side) is shown; it is marked
//                                                    data-stepforge-part=key; else, at timeout, {found: n}
//   window.__stepforge.columnEach(headers, texts, ms) -> true once every data row of the table one of the header
//                                                    cells `headers` heads shows one of `texts` in its cell under
//                                                    it; else, at timeout, what a few rows show there instead
//   window.__stepforge.sortedBy(headers, descending, ms) -> true once the data rows of the table a header heads are
//                                                    in that column's order (numbers by value); else, at timeout,
//                                                    the column's first cells
//   window.__stepforge.fieldShows(text)          -> true when a visible text field's value holds the text (whole
//                                                    words, any case)
//   window.__stepforge.shownValue(element, wanted) -> what the element shows as its value (a control's value, its
//                                                    text, or what follows it in its record when that is `wanted`)
//   window.__stepforge.pageIs(how, name, ms)      -> true once the page is the one named ("page": its title, main
//                                                    heading or current navigation item starts with the name, or a
//                                                    part of its address is it; "title": its title or main heading
//                                                    holds the text; "address": its address holds it)
//   window.__stepforge.partGone(key, ms)          -> true once the part marked key is detached, hidden or shows
//                                                    nothing (no text or control of its own in view); false at
//                                                    timeout
//   window.__stepforge.ownEditor(element)        -> true when the element is a code editor's input under the editor's
//                                                    own lines, in a box holding no other control
//   window.__stepforge.synced(editor, text, ms)   -> true once the hidden field a rich-text editor copies its text
//                                                    into (after a debounce) holds `text`; at once without one
(() => {
  if (window.__stepforge) return;
  const inflight = new Map();  // each fetch / XHR in flight -> when it began
  let requests = 0;
  // When the page last changed. What the document becomes while it is still loading (the parser's nodes, its inline
  // scripts' changes) is its first view, not a change: a page is never quiet while it loads, and once it has loaded
  // with nothing in flight and nothing changed since, it is quiet at once, not a quiet window after its last parsed
  // node. A change once parsing ended (a deferred script, a DOMContentLoaded handler, an answer) starts the window.
  // Parsing ends once (document.open() does not start it again), when the document leaves "loading".
  let parsing = document.readyState === "loading";
  let last = -Infinity;
  let changes = 0;
  const listeners = new Set();
  const touch = (parsed = false) => {
    if (!parsed) last = performance.now();
    changes += 1;
    for (const listener of Array.from(listeners)) listener();
  };
  const begin = () => { requests += 1; inflight.set(requests, performance.now()); touch(); return requests; };
  const end = (id) => { inflight.delete(id); touch(); };
  const youngest = () => Math.max(-Infinity, ...inflight.values());

  const originalFetch = window.fetch;
  if (originalFetch) {
    window.fetch = function (...args) {
      const id = begin();
      let answer;
      try {
        answer = originalFetch.apply(this, args);
      } catch (error) {
        end(id);
        throw error;
      }
      // fetch() resolves at the headers; what the page does with the answer waits for its body. A copy of the body
      // is read to its end (an event stream, which never ends, is done at its headers).
      const bodyRead = (response) => (!response.body || /event-stream/i.test(response.headers.get("content-type") || "")
        ? undefined : response.clone().arrayBuffer());
      answer.then(bodyRead).then(() => end(id), () => end(id));
      return answer;
    };
  }
  const originalSend = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (...args) {
    const id = begin();
    this.addEventListener("loadend", () => end(id), { once: true });
    try {
      return originalSend.apply(this, args);
    } catch (error) {
      end(id);
      throw error;
    }
  };
  // When each element was added or its text changed, in changes (for "pick X from the results": what appeared in
  // response to the typing), and where typing began.
  const changedAt = new WeakMap();
  let typingMark = null;
  let typedInto = null;
  const note = (records, parsed) => {
    for (const record of records) {
      if (record.type === "childList") {
        for (const node of record.addedNodes) if (node.nodeType === 1) changedAt.set(node, changes + 1);
        if (record.removedNodes.length) changedAt.set(record.target, changes + 1);  // a list filtered in place
      } else if (record.type === "characterData" && record.target.parentElement) {
        changedAt.set(record.target.parentElement, changes + 1);
      } else if (record.type === "attributes") {
        changedAt.set(record.target, changes + 1);
      }
    }
    touch(parsed);
  };
  document.addEventListener("focusin", () => { typingMark = null; }, true);
  document.addEventListener("input", (event) => {
    if (typingMark === null || typedInto !== event.target) typingMark = changes;
    typedInto = event.target;
  }, true);
  // Attributes that show or hide things count; class and style churn (spinners, animations) does not.
  const observer = new MutationObserver((records) => note(records, parsing));
  if (parsing) {
    // Before any listener of the page's own: the records the parser's last chunk queued are its first view too.
    document.addEventListener("readystatechange", function ended() {
      if (document.readyState === "loading") return;
      document.removeEventListener("readystatechange", ended, true);
      const queued = observer.takeRecords();
      parsing = false;
      note(queued, true);  // and wakes whoever waits for the page to be quiet
    }, true);
  }
  observer.observe(document, {
    subtree: true, childList: true, characterData: true,
    attributes: true, attributeFilter: ["hidden", "disabled", "open", "aria-hidden", "aria-expanded", "aria-busy", "aria-disabled",
      "aria-checked", "aria-selected", "aria-pressed"],
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
    } else if (type === "click" || type === "dblclick" || type === "mousedown" || type === "pointerdown") {
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

  // The element to click for "pick <text> from the list": visible, its whole text `text` (any case), not the field
  // typed into nor inside a native <select>. What appeared or changed since the typing began comes first, then
  // options and menu items, then the element nearest the field typed into. A plain list of divs, links or buttons
  // counts as much as an ARIA listbox. Waits, bounded, for the next change while none fits.
  const PICKABLE_ROLES = new Set(["option", "menuitem", "menuitemradio", "menuitemcheckbox", "treeitem", "gridcell"]);
  function fresh(el, mark = typingMark) {
    if (mark === null) return false;
    for (let node = el; node && node !== document.body; node = node.parentElement) {
      if ((changedAt.get(node) || 0) > mark) return true;
    }
    return false;
  }
  function visible(el) {
    if (!el.getClientRects().length) return false;
    // moved off the page to its left (left: -9000px), as a list is kept until it opens, or far above it: not shown
    // (a row scrolled up inside a scrolling box is still shown: never read as gone)
    const box = el.getBoundingClientRect();
    if (box.right + window.scrollX <= 0 || box.bottom + window.scrollY <= -5000) return false;
    const style = getComputedStyle(el);
    return style.visibility !== "hidden" && style.visibility !== "collapse" && Number(style.opacity) !== 0;
  }
  function findPickable(text, mark = typingMark) {
    const wanted = squash(text).toLowerCase();
    if (!wanted) return null;
    const found = [];
    for (const el of document.body ? document.body.querySelectorAll("*") : []) {
      if (shownBefore.has(el) && !fresh(el, mark)) continue;  // shown before the list was opened: not in it
      if ((el.textContent || "").length > wanted.length * 3 + 40) continue;  // cheap: most elements hold more
      if (el === typedInto || el.closest("select, script, style, head") || !visible(el)) continue;
      // a form control's label saying the text is no option; a list drawn inside a label (a Chosen box) has some
      const label = el.closest("label");
      if (label && squash(label.innerText).toLowerCase() === wanted) continue;
      if (squash(el.innerText).toLowerCase() !== wanted) continue;
      // The outermost element of a chain holding only this text: the option, not the <b> inside it.
      const parent = el.parentElement;
      if (parent && parent !== document.body && squash(parent.innerText).toLowerCase() === wanted) continue;
      // ... unless a link or button inside it holds the text: a menu's <li><a>Facet by this</a></li> is clicked on
      // its link, which may not cover the item's middle
      const link = el.matches("a, button") ? null : Array.from(el.querySelectorAll("a, button"))
        .find((c) => squash(c.innerText).toLowerCase() === wanted && visible(c));
      found.push(link || el);
    }
    if (!found.length) return null;
    const anchor = typedInto && typedInto.isConnected ? typedInto.getBoundingClientRect() : null;
    const distance = (el) => {
      if (!anchor) return 0;
      const box = el.getBoundingClientRect();
      const dx = Math.max(0, box.left - anchor.right, anchor.left - box.right);
      const dy = Math.max(0, box.top - anchor.bottom, anchor.top - box.bottom);
      return Math.hypot(dx, dy);
    };
    const role = (el) => {
      const named = el.closest("[role]");
      return named && PICKABLE_ROLES.has(named.getAttribute("role")) ? 0 : el.closest("li, button, a") ? 1 : 2;
    };
    const rank = (el) => [fresh(el, mark) ? 0 : 1, role(el), distance(el)];
    const before = (a, b) => { for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i]; return 0; };
    return found.map((el) => [rank(el), el]).sort((x, y) => before(x[0], y[0]))[0][1];
  }
  // What showed a text before a click opened a list (noteShown): never an option of that list, unless it changed.
  let shownBefore = new WeakSet();
  function noteShown(text) {
    shownBefore = new WeakSet();
    const wanted = squash(text).toLowerCase();
    for (const el of wanted && document.body ? document.body.querySelectorAll("*") : []) {
      if (visible(el) && squash(el.innerText).toLowerCase() === wanted) shownBefore.add(el);
    }
    return changes;
  }
  function pickable(text, timeoutMs, answerMs, since) {
    // After typing, or after the click that opened the list (`since`: the change mark taken before it), what it
    // brings may still be on its way (a debounce, a fetch): an element that was there before is taken only when
    // nothing new comes within answerMs.
    const started = performance.now();
    const mark = typeof since === "number" ? since : typingMark;
    const typed = mark !== null;
    let chosen = null;
    const good = () => {
      chosen = findPickable(text, mark);
      return chosen !== null && (!typed || fresh(chosen, mark) || performance.now() - started >= answerMs);
    };
    const done = () => { typingMark = null; shownBefore = new WeakSet(); return chosen; };
    if (good() || !timeoutMs) return Promise.resolve(done());
    return until(() => good() || (chosen !== null && answerMs - (performance.now() - started)), timeoutMs).then(done);
  }

  // Where a text is shown relative to elements of the page (a form, a table, a heading): "above" / "below" one
  // of them, or "beside" it (on its line, within 150 px). True once some element showing the text stands so
  // (waited for, as the page changes, until timeoutMs).
  const BESIDE_PX = 150;
  const INDENT_PX = 8;
  // The box of an element's own words (its text nodes, not its children's): a tree item's line, not its subtree.
  function ownTextBox(el) {
    const boxes = [];
    for (const n of el.childNodes) {
      if (n.nodeType !== 3 || !n.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      boxes.push(...Array.from(range.getClientRects()).filter((r) => r.width && r.height));
    }
    if (!boxes.length) return el.getBoundingClientRect();
    return { left: Math.min(...boxes.map((r) => r.left)), right: Math.max(...boxes.map((r) => r.right)),
      top: Math.min(...boxes.map((r) => r.top)), bottom: Math.max(...boxes.map((r) => r.bottom)) };
  }
  const folded = (t) => (t || "").replace(/\s+/g, " ").trim().toLowerCase();
  function showing(text) {
    const want = folded(text);
    const out = [];
    for (const el of document.querySelectorAll("body *")) {
      if (!el.getClientRects().length || !folded(el.innerText).includes(want)) continue;
      if (Array.from(el.children).some((c) => folded(c.innerText).includes(want))) continue;  // a smaller one holds it
      out.push(el);
    }
    return out;
  }
  // The containers that hold one record each: a table row, a list item, an option, a tree item.
  const RECORDS = "tr, [role=row], li, [role=listitem], [role=option], [role=treeitem]";
  // The part of the page a title heads ("On budget" over its accounts, "Available categories" over its list): after
  // a heading, up to the next heading of its rank or higher; after another title, up to the next heading or title
  // alike (its tag and class and its parent's: "Off budget"), in the part of the page the titles alike share; a title
  // alone heads the smallest box that holds more after it.
  const after = (x, y) => !!(x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING);
  const kind = (e) => (e ? `${e.localName}.${typeof e.className === "string" ? e.className : ""}` : "");
  const HEADINGS = "h1, h2, h3, h4, h5, h6";
  // {title, ends: the elements it ends before, box: what holds it (null: nothing; undefined: the whole page)}
  function sectionOf(title) {
    const headings = Array.from(document.querySelectorAll(HEADINGS)).filter((h) => h.getClientRects().length);
    const heading = title.closest(HEADINGS);
    if (heading) {  // a heading's part runs to the next heading of its rank or higher (the document's outline)
      const rank = Number(heading.localName[1]);
      return { title, ends: [headings.find((h) => after(heading, h) && !heading.contains(h)
        && Number(h.localName[1]) <= rank)], box: undefined };
    }
    const alike = Array.from(document.getElementsByTagName(title.localName)).filter((t) => t === title
      || (kind(t) === kind(title) && kind(t.parentElement) === kind(title.parentElement) && t.getClientRects().length
          && t.innerText.trim()));
    const ends = [headings.find((h) => after(title, h)), alike[alike.indexOf(title) + 1]];
    let box = title.parentElement;
    if (alike.length > 1) {
      while (box && !alike.every((t) => box.contains(t))) box = box.parentElement;
    } else {
      const more = (b) => {
        let top = title;
        while (top.parentElement !== b) top = top.parentElement;
        for (let s = top.nextElementSibling; s; s = s.nextElementSibling) if (s.innerText && s.innerText.trim()) return true;
        return false;
      };
      while (box && box !== document.body && !more(box)) box = box.parentElement;
    }
    return { title, ends, box };
  }
  function underTitle(a, section) {
    const { title, ends, box } = section;
    if (a.contains(title) || title.contains(a) || !after(title, a)) return false;
    if (ends.some((end) => end && !after(a, end))) return false;
    return box === undefined || (!!box && box.contains(a));
  }
  // `sections`: the parts' sections, read once per look at the page (relation "section")
  function stands(a, b, relation, sections) {
    if (relation === "section") {
      if (!sections.has(b)) sections.set(b, sectionOf(b));
      return underTitle(a, sections.get(b));
    }
    if (relation === "row") {
      // In the record that holds the part, or, in a grid drawn without one, on the part's line.
      const record = b.closest(RECORDS);
      if (record) return record.contains(a);
      if (a.contains(b) || b.contains(a)) return true;
      // a grid drawn without rows: cells of one part of the page (not the page itself), a few levels below it, whose
      // lines are one (their middles within a few pixels: a sidebar's item is seldom exactly level with a cell)
      const up = (el, top) => { let n = 0; for (let e = el; e && e !== top; e = e.parentElement) n += 1; return n; };
      let shared = a.parentElement;
      while (shared && !shared.contains(b)) shared = shared.parentElement;
      if (!shared || shared === document.body || shared === document.documentElement
          || up(a, shared) > 8 || up(b, shared) > 8) return false;
      const x = a.getBoundingClientRect(), y = b.getBoundingClientRect();
      return Math.abs((x.top + x.bottom) / 2 - (y.top + y.bottom) / 2) <= 4;
    }
    if (relation === "column") {
      // Below the column's header and across its width: in a table, the cell's middle within the header cell's
      // edges; in a grid of boxes, the text and the header overlapping side to side.
      if (a.contains(b) || b.contains(a)) return false;
      const CELLS = "th, td, [role=columnheader], [role=gridcell], [role=cell], [role=rowheader]";
      const TABLES = "table, [role=grid], [role=table], [role=treegrid]";
      const head = b.closest(CELLS), cell = a.closest(CELLS);
      const x = (cell || a).getBoundingClientRect(), y = (head || b).getBoundingClientRect();
      if (x.top < y.bottom - 2) return false;
      if (head && cell) {  // cells of one table
        return !!head.closest(TABLES) && head.closest(TABLES) === cell.closest(TABLES)
          && (x.left + x.right) / 2 >= y.left && (x.left + x.right) / 2 <= y.right;
      }
      // a grid of boxes: the header one of a line of headers, the text one of a line of cells below it
      if (!onALine(b) || !onALine(a)) return false;
      return x.left < y.right && y.left < x.right;
    }
    if (relation === "inside") return b.contains(a);  // in the part, or the part itself showing it ("in the sidebar")
    if (relation === "indented") {  // a tree's child under its parent: the parent's item often holds it
      if (a.contains(b)) return false;
      const x = a.getBoundingClientRect(), y = ownTextBox(b);
      return !!y && x.top >= y.bottom - 2 && x.left >= y.left + INDENT_PX && x.left <= y.right;
    }
    if (a.contains(b)) return false;
    // Inside the part, after or before its own words: "Custom Query (8 matches)" is next to the heading's text.
    if (b.contains(a)) return relation === "beside" && folded(b.innerText) !== folded(a.innerText);
    const x = a.getBoundingClientRect(), y = b.getBoundingClientRect();
    const across = x.left < y.right && y.left < x.right;  // one over the other, not off to a side
    if (relation === "above") return across && x.bottom <= y.top + 2;
    if (relation === "below") return across && x.top >= y.bottom - 2;
    const sameLine = x.top < y.bottom && y.top < x.bottom;
    return sameLine && Math.max(y.left - x.right, x.left - y.right, 0) <= BESIDE_PX;
  }
  function placed(parts, text, relation, timeoutMs, absent = false) {
    const holds = () => {
      const sections = new Map();
      return showing(text).some((el) => parts.some((part) => part.isConnected && part.getClientRects().length
        && stands(el, part, relation, sections)));
    };
    return until(absent ? () => !holds() : holds, timeoutMs);
  }

  // Whether the page says it is still loading: a visible busy region or a progress bar with no value (one that only
  // says "busy"), or a short visible text that says so ("Loading…", "Initializing the connection…", "Please wait").
  const LOADING = /^(?:loading|initiali[sz]ing|please wait|connecting|starting|downloading|uploading|fetching|opening|preparing)\b[^.!?]{0,80}(?:…|\.\.\.)$|^(?:loading|please wait)$/i;
  // Nothing shown yet: no visible text, control or picture (an app whose scripts still build its first view).
  function blank() {
    if (!document.body) return true;
    for (const el of document.body.querySelectorAll(
      "input, button, select, textarea, img, svg, canvas, video, iframe, object, embed")) if (visible(el)) return false;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.data.trim() && node.parentElement && !node.parentElement.closest("script, style, template, noscript")
          && visible(node.parentElement)) return false;
    }
    return true;
  }

  function loading() {
    for (const el of document.querySelectorAll(
      "[aria-busy=true], [role=progressbar]:not([aria-valuenow]), progress:not([value])")) if (visible(el)) return true;
    if (!document.body || blank()) return true;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.data.trim();
      if (text.length > 1 && text.length <= 100 && LOADING.test(text) && node.parentElement
          && !node.parentElement.closest("script, style, template, noscript") && visible(node.parentElement)) return true;
    }
    return false;
  }

  // How many records the list holding an element has: the table rows, list items, options, tree items, tabs or menu
  // items alike beside the one holding it, else the smallest box around it with boxes alike (tag, role and a class
  // in common) beside it, skipping boxes whose visible likes are all on its line (the cells of one row); when rows
  // are counted, a box holding three or more cells on one line is the row; only visible records count, never a
  // table's header row. True once the list of some element showing the text most
  // nearly whole has n records (waited for, as the page changes, until timeoutMs); else the counts seen.
  const ITEMS = `${RECORDS}, [role=tab], [role=menuitem], [role=menuitemcheckbox], [role=menuitemradio]`;
  const classes = (e) => (typeof e.className === "string" ? e.className.split(/\s+/).filter(Boolean) : []);
  const alikeBox = (a, b) => a.localName === b.localName
    && (a.getAttribute("role") || "") === (b.getAttribute("role") || "")
    && (classes(a).length === 0 ? classes(b).length === 0 : classes(a).some((c) => classes(b).includes(c)));
  const middle = (e) => { const r = e.getBoundingClientRect(); return (r.top + r.bottom) / 2; };
  const headerRow = (e) => e.localName === "tr" && e.cells.length > 0
    && Array.from(e.cells).every((c) => c.localName === "th");
  // A cell of a line: the element, or one of its three nearest boxes, has a visible sibling level with it.
  const onALine = (e) => {
    for (let box = e, i = 0; box && box.parentElement && i < 4; box = box.parentElement, i++) {
      const level = Array.from(box.parentElement.children)
        .some((c) => c !== box && visible(c) && Math.abs(middle(c) - middle(box)) <= 4);
      if (level) return true;
    }
    return false;
  };
  // A row drawn without table markup: three or more visible boxes side by side on one line (its cells).
  const lineOfCells = (a) => {
    const cells = Array.from(a.children).filter(visible);
    return cells.length >= 3 && cells.every((c) => Math.abs(middle(c) - middle(cells[0])) <= 4);
  };
  // Records marked up as records are alike by tag and role: rows whatever their classes (striped rows), items when
  // one has no class or they share one (an active item; never a list's subheader item); boxes by tag, role and a
  // class in common.
  const sameRecord = (a, b) => a.localName === b.localName
    && (a.getAttribute("role") || "") === (b.getAttribute("role") || "")
    && (a.matches("tr, [role=row]") || !classes(a).length || !classes(b).length
        || classes(a).some((c) => classes(b).includes(c)));  // a list's subheader item is of another kind
  const isRow = (e) => e.matches("tr, [role=row]") || lineOfCells(e);
  const TITLES = "h1, h2, h3, h4, h5, h6, [role=heading], legend, caption";
  function recordOf(el, rows) {
    const item = el.closest(ITEMS);
    if (item) return rows && !isRow(item) ? null : item;
    let inLine = null;  // boxes alike on one line: cells, or a list laid out across (taken when nothing else is)
    for (let a = el; a.parentElement && a !== document.body; a = a.parentElement) {
      if (rows && a !== el && lineOfCells(a)) return a;  // rows are counted: the row that holds the text
      const alike = Array.from(a.parentElement.children).filter((c) => c !== a && alikeBox(c, a));
      // alone under a title of its own ("dependencies (1)" over one chip): a list of one, never a panel of the page
      if (!alike.length && !rows && a !== el && Array.from(a.parentElement.children)
        .some((c) => c !== a && c.matches(TITLES) && visible(c))) return inLine || a;
      if (!alike.length) continue;
      const shown = alike.filter(visible);
      if (shown.length && shown.every((c) => Math.abs(middle(c) - middle(a)) <= 4)) {
        inLine = inLine || a;
        continue;
      }
      return a;
    }
    return rows ? null : inLine;
  }
  // How many records the list of the element has; null when it is in no list (a heading, a sentence), or, when rows
  // are counted, in no row.
  function countOf(el, rows) {
    const record = recordOf(el, rows);
    if (!record) return null;
    const alike = record.matches(ITEMS) ? sameRecord : alikeBox;
    return Array.from(record.parentElement.children)
      .filter((c) => alike(c, record) && visible(c) && !headerRow(c)).length;
  }
  // The number a count's words start with ("four modules", "12 rows"): the words of language/counts.py NUMBER_WORDS.
  const NUMBER_WORDS = { no: 0, zero: 0, one: 1, a: 1, single: 1, two: 2, three: 3, four: 4, five: 5, six: 6,
    seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12 };
  const numberOf = (words) => {
    const first = String(words).trim().split(/\s+/)[0].toLowerCase();
    return /^\d+$/.test(first) ? Number(first) : (NUMBER_WORDS[first] ?? null);
  };
  function counted(els, words, timeoutMs) {
    const n = numberOf(words);
    if (n === null) return Promise.resolve([]);
    const rows = /\b(?:rows?|entr(?:y|ies)|records?|lines?)\b/i.test(String(words));
    let seen = [];
    // The text the elements were found by (the shortest of theirs), looked for again as the page changes: a list
    // that renders after the check began (a table filled by a request) holds elements the locator did not find.
    const texts = els.map((el) => folded(el.innerText)).filter(Boolean).sort((a, b) => a.length - b.length);
    const holds = () => {
      // the elements that show the text most nearly whole: "writer", not "writer@example.com" nor a sentence
      const found = texts.length ? Array.from(new Set([...els, ...showing(texts[0])])) : els;
      const shown = found.filter((el) => el.isConnected && visible(el));
      const shortest = Math.min(...shown.map((el) => folded(el.innerText).length));
      const keys = shown.filter((el) => folded(el.innerText).length === shortest);
      seen = Array.from(new Set(keys.map((el) => countOf(el, rows)).filter((c) => c !== null))).sort((a, b) => a - b);
      return seen.includes(n);
    };
    return until(holds, timeoutMs).then((ok) => ok || seen);
  }

  // The states a person checks a control for, each as one of two words (disabled / enabled, visible / hidden,
  // checked / unchecked,
  // selected / unselected, empty / filled, expanded / collapsed when the element says either). A wrapper drawn over
  // an invisible input (a custom checkbox, a label) is read through the one input it holds or names.
  function states(el) {
    let c = el;
    if (el instanceof HTMLLabelElement && el.control) c = el.control;
    else if (!el.matches("input, select, textarea, button, option, [role], [contenteditable=true]")) {
      const inner = el.querySelectorAll("input:not([type=hidden]), select, textarea");
      if (inner.length === 1) c = inner[0];
    }
    const aria = (name) => c.getAttribute(name) ?? el.getAttribute(name);
    const role = (c.getAttribute("role") || el.getAttribute("role") || "").toLowerCase();
    // greyed out as a person sees it: the attribute, ARIA, or a class that says so (Bootstrap's .disabled,
    // jQuery UI's .ui-state-disabled, a design system's --disabled)
    const classDisabled = (e) => typeof e.className === "string" && e.className.split(/\s+/)
      .some((c) => /^(?:disabled|is-disabled|[\w-]*-state-disabled|[\w-]*--disabled)$/i.test(c));
    const disabled = c.disabled === true || aria("aria-disabled") === "true" || !!c.closest("fieldset[disabled]")
      || classDisabled(c) || (c !== el && classDisabled(el));
    const shown = el.checkVisibility ? el.checkVisibility({ visibilityProperty: true, opacityProperty: true })
      : el.getClientRects().length > 0;
    const found = [disabled ? "disabled" : "enabled", shown ? "visible" : "hidden"];
    // Only the states the element has: a text is neither ticked nor empty.
    const input = c instanceof HTMLInputElement && (c.type === "checkbox" || c.type === "radio");
    const ticked = input ? null : iconTicked(c);
    const checkable = input || /^(checkbox|radio|switch|menuitemcheckbox|menuitemradio)$/.test(role)
      || aria("aria-checked") !== null || aria("aria-pressed") !== null || ticked !== null;
    const checked = input ? c.checked : aria("aria-checked") === "true" || aria("aria-pressed") === "true"
      || ticked === true;
    if (checkable) found.push(checked ? "checked" : "unchecked", "checkable");
    const current = aria("aria-current");
    const selectable = checkable || aria("aria-selected") !== null || current !== null || c instanceof HTMLOptionElement
      || /^(tab|option|row|treeitem|gridcell)$/.test(role);
    const selected = checked || aria("aria-selected") === "true" || (current !== null && current !== "false")
      || (c instanceof HTMLOptionElement && c.selected);
    if (selectable) found.push(selected ? "selected" : "unselected");
    let value = null;
    if (c instanceof HTMLInputElement || c instanceof HTMLTextAreaElement) value = c.value;
    else if (c instanceof HTMLSelectElement) value = c.selectedOptions.length ? c.selectedOptions[0].value : "";
    else if (c.isContentEditable || /^(textbox|searchbox|combobox)$/.test(role)) value = c.innerText || "";
    if (value !== null) found.push(value.trim() ? "filled" : "empty");
    const details = c instanceof HTMLDetailsElement ? c : (c.localName === "summary" ? c.parentElement : null);
    const expanded = aria("aria-expanded") ?? (details instanceof HTMLDetailsElement ? String(details.open)
      : treeRowOpen(c));
    if (expanded !== null) found.push(expanded === "true" ? "expanded" : "collapsed");
    return found;
  }

  // "Expand X": the toggle of X's own row, which a tree draws beside X's text (clicking the text may only select it).
  const TOGGLE = /(?:^|[-_\s])(?:angle|caret|chevron|arrow|triangle|toggle|expand|expander|collapse|twisty|disclosure)(?:[-_\s]|$)/i;
  function toggleOf(element) {
    if (element.hasAttribute("aria-expanded")) return element;  // it is the toggle
    const classes = (e) => (typeof e.className === "string" ? e.className : e.getAttribute("class") || "");
    const named = (e) => TOGGLE.test(classes(e)) || Array.from(e.children).some((c) => TOGGLE.test(classes(c)));
    const own = squash(element.innerText);
    for (let box = element, up = 0; box && box !== document.body && up < 3; box = box.parentElement, up++) {
      if (squash(box.innerText) !== own) return element;  // past X's own row: another row's toggle is not X's
      const found = Array.from(box.querySelectorAll("*")).filter((e) => !e.contains(element) && visible(e)
        && !squash(e.innerText) && named(e));
      const outer = found.filter((e) => !found.some((o) => o !== e && o.contains(e)));  // a span, not its <i>
      if (outer.length) return outer.length === 1 ? outer[0] : element;
    }
    return element;
  }

  // A menu item or button ticked by the icon it shows, with no ARIA (a "check-square" icon where an empty "square" is
  // drawn when it is off): true / false by the icon shown, null when it shows no such icon.
  const TICK = /(?:^|[-_\s])(?:check|checked|check-square|check-circle|checkmark|tick|ticked)(?:[-_\s]|$)/i;
  const BOX = /(?:^|[-_\s])(?:square|square-o|unchecked|circle-o|box|blank)(?:[-_\s]|$)/i;
  function iconTicked(element) {
    const item = element.closest("a, button, li, [role]") || element;
    const icons = Array.from(item.querySelectorAll("i, svg, span")).filter((e) => !squash(e.innerText)
      && e.getClientRects().length && typeof e.className === "string");
    if (icons.some((e) => TICK.test(e.className))) return true;
    return icons.some((e) => BOX.test(e.className) && !TICK.test(e.className)) ? false : null;
  }

  // A tree row with a toggle and no ARIA: open when the toggle says so, or the row or the item holding it is marked
  // "expanded" / "open" by its class; null for an element that is no such row.
  function treeRowOpen(element) {
    const toggle = toggleOf(element);
    if (toggle === element) return null;
    if (toggle.hasAttribute("aria-expanded")) return toggle.getAttribute("aria-expanded");
    const marked = (e) => e && /(?:^|\s)(?:expanded|open|is-expanded|is-open)(?:\s|$)/.test(
      typeof e.className === "string" ? e.className : "");
    const up = element.parentElement;
    return String(marked(element) || marked(up) || marked(up && up.parentElement) || marked(toggle));
  }

  // A diagram node's body drawn over its label: a person's click on the label lands on the node all the same.
  const CONTROL_KINDS = "a[href], button, input, select, textarea, summary, [role=button], [role=link], [role=menuitem], "
    + "[role=tab], [role=checkbox], [role=radio], [role=switch], [role=option], [role=treeitem]";
  const CONTROLS = `${CONTROL_KINDS}, [tabindex]`;
  // What lies over the element's centre, and the smallest box holding both (below the page itself); null when
  // nothing else covers it.
  function coverOf(element) {
    const box = element.getBoundingClientRect();
    if (!box.width || !box.height) return null;
    const root = element.getRootNode();
    const at = (root.elementFromPoint ? root : document).elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (!at || at === element || element.contains(at) || at.contains(element)) return null;
    let common = at.parentElement;
    while (common && !common.contains(element)) common = common.parentElement;
    if (!common || common === document.body || common === document.documentElement) return null;
    return { at, common };
  }
  function ownShape(element) {
    // A control of its own (a button, a link, an element with its own click handler) is acted on by an event on itself;
    // one that lands on what covers it never reaches it: that is an overlay, whatever box holds the two.
    if (element.matches(CONTROLS) || clicked.has(element)) return false;
    const cover = coverOf(element);
    if (!cover || squash(cover.at.textContent)) return false;  // it shows something of its own: another element
    return squash(cover.common.textContent) === squash(element.textContent);
  }

  // The input of a code editor under the editor's own lines (CodeMirror's hidden textarea): a person's click on the
  // editor lands on its lines, which give the input the focus. Only when the smallest box holding the input and what
  // covers it holds no other control: an overlay over a form is never clicked through.
  const EDITOR_INPUT = "textarea, input:not([type]), input[type=text], input[type=search], [contenteditable=true]";
  const OTHER_CONTROLS = `${CONTROL_KINDS}, [contenteditable=true]`;
  function ownEditor(element) {
    if (!element.matches(EDITOR_INPUT)) return false;
    const cover = coverOf(element);
    return !!cover && Array.from(cover.common.querySelectorAll(OTHER_CONTROLS))
      .every((c) => c === element || c.contains(element));
  }

  // The part of the page a tester names by what it is ("the palette", "the sign-in form", "the dialog"), maybe with
  // words of its name and the side of the window it stands on: the outermost visible elements of that kind (by tag
  // or role, else by the last word of an id or class: "red-ui-palette"); a form drawn without <form> (the smallest box
  // holding a text field and a button) is a form too. Named by words: those whose name (label, heading, legend, buttons, id or
  // class) holds them; when several are left, the one holding the keyboard focus. Elements of the kind's tag or role
  // come first; a word of the id or class only when none is. The one found is marked
  // data-stepforge-part=key (what "... is gone" then waits on); resolves to {found: 1} once exactly one fits, else,
  // at timeout, to {found: n}.
  const PART_CSS = {
    form: "form, [role=form]",
    dialog: "dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true]",
    menu: "[role=menu], [role=menubar]",
    sidebar: "aside, [role=complementary]",
    toolbar: "[role=toolbar]",
    tooltip: "[role=tooltip]",
    navigation: "nav, [role=navigation]",
    table: "table, [role=table], [role=grid], [role=treegrid]",
    tree: "[role=tree]",
  };
  const PART_WORDS = { dialog: ["dialog", "modal", "popup"], menu: ["menu", "submenu"] };
  const nameWords = (name) => name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  const idAndClasses = (el) => `${el.id || ""} ${el.getAttribute("class") || ""}`;
  const classWords = (el) => nameWords(idAndClasses(el));
  // What an id or a class calls the element: the last word of each ("red-ui-palette" is a palette, "palette-header"
  // a header).
  const classHeads = (el) => idAndClasses(el).split(/\s+/).filter(Boolean).map((name) => nameWords(name).pop());
  // Where scrolling can bring it: not wholly above or left of the page.
  const reachable = (el) => {
    const r = el.getBoundingClientRect();
    return r.bottom + scrollY > 0 && r.right + scrollX > 0;
  };
  const FIELD = "input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=submit]):not([type=button]), textarea, [contenteditable=true]";
  const BUTTON = "button, [role=button], input[type=submit], input[type=button]";
  function formBoxes() {
    const boxes = new Set();
    for (const field of document.querySelectorAll(FIELD)) {
      if (!visible(field)) continue;
      let box = field.parentElement;
      while (box && box !== document.body && !Array.from(box.querySelectorAll(BUTTON)).some(visible)) box = box.parentElement;
      if (box && box !== document.body) boxes.add(box);
    }
    return Array.from(boxes);
  }
  function partName(el) {
    const said = [el.getAttribute("aria-label") || ""];
    for (const id of (el.getAttribute("aria-labelledby") || "").split(/\s+/).filter(Boolean)) {
      const by = document.getElementById(id);
      if (by) said.push(by.innerText || "");
    }
    for (const t of el.querySelectorAll("h1, h2, h3, h4, h5, h6, legend, caption, [role=heading], " + BUTTON)) {
      if (visible(t)) said.push(t.innerText || t.value || "");
    }
    said.push(classWords(el).join(" "));
    return said.join(" \n ");
  }
  function parts(noun, words) {
    const wanted = words ? new RegExp(`(^|[^a-z0-9])${words.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean)
      .join("[\\s_-]*")}($|[^a-z0-9])`, "i") : null;
    const named = (found) => (wanted ? found.filter((el) => wanted.test(partName(el))) : found);
    const outermost = (found) => found.filter((el) => !found.some((o) => o !== el && o.contains(el)));
    const kin = PART_WORDS[noun] || [noun];
    let found = PART_CSS[noun] ? named(Array.from(document.querySelectorAll(PART_CSS[noun])).filter(visible)) : [];
    if (!found.length) {  // by a word of its id or class: "red-ui-palette", "modal-content"
      found = named(outermost(Array.from(document.querySelectorAll("body *")).filter((el) =>
        classHeads(el).some((w) => kin.includes(w)) && visible(el))));
    }
    if (noun === "form") {  // and the forms drawn without <form>
      const forms = Array.from(document.querySelectorAll(PART_CSS.form));
      found = found.concat(named(formBoxes().filter((b) => !forms.some((f) => f.contains(b) || b.contains(f)))));
    }
    return found;
  }
  function onSide(el, side) {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    return side === "left" ? x < innerWidth / 2 : side === "right" ? x > innerWidth / 2
      : side === "top" ? y < innerHeight / 2 : side === "bottom" ? y > innerHeight / 2 : true;
  }
  const markedParts = (key) => Array.from(document.querySelectorAll("[data-stepforge-part]"))
    .filter((e) => e.getAttribute("data-stepforge-part") === key);
  function part(noun, words, side, key, timeoutMs) {
    let found = [];
    const one = () => {
      found = parts(noun, words).filter((el) => reachable(el) && onSide(el, side));
      if (found.length > 1) {
        const focused = found.filter((el) => el.contains(document.activeElement));
        if (focused.length === 1) found = focused;
      }
      return found.length === 1;
    };
    return until(one, timeoutMs).then((ok) => {
      if (!ok) return { found: found.length };
      for (const el of markedParts(key)) el.removeAttribute("data-stepforge-part");
      found[0].setAttribute("data-stepforge-part", key);
      return { found: 1 };
    });
  }

  // Whether every row of the table a column header heads shows one of `texts` (whole words, any case) in its cell
  // under that header ("every row has "Open" or "In progress" in the status column"): the data rows of the header's
  // table (header rows and rows with no cell under it left out; at least one). Resolves to true once it holds, else,
  // at timeout, to what the rows that do not show them show there (a few), or [] when no row was found.
  // The texts of the data rows' cells under a column header (a header cell), top to bottom, one list per table a
  // header heads.
  function columnCells(headers) {
    const CELLS = "th, td, [role=columnheader], [role=gridcell], [role=cell], [role=rowheader]";
    const TABLES = "table, [role=grid], [role=table], [role=treegrid]";
    const columns = [];
    for (const header of headers) {
      const head = header.isConnected && header.closest(CELLS);
      const table = head && head.closest(TABLES);
      if (!table || !visible(head)) continue;
      if (!head.matches("th, [role=columnheader]") && !head.closest("thead")
          && !(head.closest("tr") && headerRow(head.closest("tr")))) continue;
      const y = head.getBoundingClientRect();
      const cells = [];
      for (const row of table.querySelectorAll("tr, [role=row]")) {
        if (row.closest(TABLES) !== table || !visible(row) || headerRow(row) || row.contains(head)) continue;
        const cell = Array.from(row.querySelectorAll(CELLS)).find((c) => {
          const x = c.getBoundingClientRect();
          return c.closest(TABLES) === table && (x.left + x.right) / 2 >= y.left && (x.left + x.right) / 2 <= y.right;
        });
        if (cell) cells.push(squash(cell.innerText));
      }
      columns.push(cells);
    }
    return columns;
  }

  function columnEach(headers, texts, timeoutMs) {
    const patterns = texts.map((t) => new RegExp(`(^|[^\\p{L}\\p{N}])${t.trim().split(/\s+/)
      .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s+")}($|[^\\p{L}\\p{N}])`, "iu"));
    let wrong = [];
    const holds = () => {
      const cells = columnCells(headers).flat();
      wrong = cells.filter((shown) => !patterns.some((p) => p.test(shown))).slice(0, 3);
      return cells.length > 0 && !wrong.length;
    };
    return until(holds, timeoutMs).then((ok) => ok || wrong);
  }

  // Whether the data rows of a table a column header heads are in that column's order, top to bottom (ascending, or
  // descending): numbers by value when every cell holds one ("1,250.00", "-3", "42%"), else texts as a person sorts
  // them (any case, digits by value); at least two rows. Resolves to true once it holds, else, at timeout, to the
  // column's first cells as shown ([] when no row was found).
  const NUMBER_CELL = /^[^\d\p{L}-]*(-?[\d,]*\.?\d+)\s*%?$/u;
  function sortedBy(headers, descending, timeoutMs) {
    let seen = [];
    const inOrder = (cells) => {
      const numbers = cells.map((c) => NUMBER_CELL.exec(c)).map((m) => (m ? Number(m[1].replace(/,/g, "")) : NaN));
      const numeric = numbers.every((n) => !Number.isNaN(n));
      const compare = (a, b) => (numeric ? numbers[a] - numbers[b]
        : cells[a].localeCompare(cells[b], undefined, { sensitivity: "base", numeric: true }));
      for (let i = 1; i < cells.length; i += 1) {
        const order = compare(i - 1, i);
        if (descending ? order < 0 : order > 0) return false;
      }
      return true;
    };
    const holds = () => {
      const columns = columnCells(headers).filter((cells) => cells.length >= 2);
      seen = columns.length ? columns[0].slice(0, 5) : [];
      return columns.length > 0 && columns.every(inOrder);
    };
    return until(holds, timeoutMs).then((ok) => ok || seen);
  }

  // Whether a visible text field shows the text (its value, as whole words, any case: textPattern's rule): a person
  // reads a value in a box as much as a text beside it.
  const NOT_TEXT = /^(?:hidden|password|checkbox|radio|submit|button|reset|image|file|range|color)$/i;
  function fieldShows(text) {
    const words = String(text).trim().split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    const pattern = new RegExp("(?<![\\w])" + words.join("\\s+") + "(?![\\w])", "i");
    return Array.from(document.querySelectorAll("input, textarea"))
      .some((f) => !NOT_TEXT.test(f.type || "") && pattern.test(f.value || "") && visible(f));
  }

  // Whether the part marked `key` is gone, as a person sees it: detached, hidden, or showing nothing any more (no text
  // and no control of its own in view: a side panel collapsed to a bare strip). Resolves once it is, or false at
  // timeout.
  const SHOWN_ALONE = "input:not([type=hidden]), button, select, textarea, img, svg, canvas, video";
  const ownText = (el) => Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
  function showsAnything(el) {
    if (!visible(el)) return false;
    if (ownText(el)) return true;
    for (const d of el.querySelectorAll("*")) if ((ownText(d) || d.matches(SHOWN_ALONE)) && visible(d)) return true;
    return false;
  }
  // What an element shows as its value: a control's value (a select's chosen label), else its inner text; an element
  // that is no control and does not show `wanted` itself ("June" in "June (2)", a label "Total:" in its row) shows
  // what comes right after it in its record (list item, table row, option, definition list) when that starts with it.
  function shownValue(el, wanted) {
    if (el instanceof HTMLSelectElement) return el.selectedOptions.length ? el.selectedOptions[0].label : "";
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) return el.value;
    const squash = (t) => (t || "").replace(/\s+/g, " ").trim();
    const own = squash(el.innerText || el.textContent);
    const want = squash(wanted);
    if (!want || own === want) return own;
    const record = el.closest("li, tr, [role=row], [role=listitem], [role=option], [role=treeitem], dl");
    if (!own || !record || record === el) return own;
    const line = squash(record.innerText);
    const at = line.indexOf(own);
    const next = at < 0 ? "" : line.slice(at + own.length).trim();
    return next === want || next.startsWith(`${want} `) ? want : own;
  }
  // Whether the page is the one named. `how` "page": a page named by what a person calls it ("the Roadmap page"),
  // whose title (a part of it between dashes, bars or colons), main heading or current navigation item starts with
  // the name, or one of whose address's parts is the name ("New Ticket" is /newticket; "Ticket" is not), the home
  // page also the site's root;
  // "title": its title or main heading holds the text; "address": its address holds the text. Resolves once it is,
  // or false at timeout.
  function pageIs(how, name, timeoutMs) {
    const squash = (t) => (t || "").replace(/\s+/g, " ").trim();
    const words = squash(name).split(" ").map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s+");
    const holds = (t) => new RegExp(`(?<![\\w])${words}(?![\\w])`, "i").test(squash(t));
    const starts = (t) => new RegExp(`^\\W*${words}(?![\\w])`, "i").test(squash(t));
    const compact = (t) => t.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
    const address = () => {
      try { return decodeURI(location.href); } catch (e) { return location.href; }
    };
    // The main headings: the visible headings of level 1 (a dashboard's widget titles are not the page's name); on a
    // page drawn with none, its biggest short text on the first screen, as a person reads a title drawn as a styled
    // box (at least 20 px, a size no body text has).
    const mainHeadings = () => {
      const marked = Array.from(document.querySelectorAll("h1, [role=heading][aria-level='1']")).filter(visible)
        .map((h) => h.innerText);
      if (marked.length || !document.body) return marked;
      let biggest = [], size = 0;
      for (const el of document.body.querySelectorAll("*")) {
        const own = Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.data.trim());
        // (never a link's, a button's or a tab's words, nor an icon font's ligature such as "settings")
        if (!own || el.closest("script, style, noscript, a, button, [role=button], [role=tab], [role=link]")
            || /icon|material|awesome|glyph|symbol/i.test(getComputedStyle(el).fontFamily + " " + el.className)
            || !visible(el)) continue;
        const text = squash(el.innerText);
        if (!text || text.length > 60 || el.getBoundingClientRect().top > window.innerHeight) continue;
        const px = parseFloat(getComputedStyle(el).fontSize) || 0;
        if (px > size + 0.5) { size = px; biggest = [text]; } else if (Math.abs(px - size) <= 0.5) biggest.push(text);
      }
      return size >= 20 && biggest.length === 1 ? biggest : [];  // (tiles of one size are no title)
    };
    const test = () => {
      if (how === "address") return address().toLowerCase().includes(squash(name).toLowerCase());
      if (how === "title") return holds(document.title) || mainHeadings().some(holds);
      // the main heading reads the text, whole (case and spaces aside): "Roadmap" is never "No roadmap found"
      if (how === "heading") return mainHeadings().some((t) => squash(t).toLowerCase() === squash(name).toLowerCase());
      const current = Array.from(document.querySelectorAll("[aria-current=page], [aria-current=true]")).filter(visible);
      const titles = [...document.title.split(/\s[-–—|:·]\s|\s*[|·]\s*/), ...mainHeadings(),
        ...current.map((c) => c.innerText)];
      // the path's parts, a hash route's too (never its query: /login?next=/dashboard is the login page)
      const parts = (location.pathname + location.hash.replace(/\?.*$/, "")).split(/[/#]+/);
      // The home page is also the site's root ("the home page", "the start page", "the main page").
      const root = /^(?:home|start|main|landing|index)(?:page)?$/.test(compact(name))
        && /^\/(?:index\.\w+)?$/.test(location.pathname) && !/^#\/./.test(location.hash);
      return root || titles.some(starts) || parts.some((p) => p && compact(p) === compact(name));
    };
    return until(test, timeoutMs);
  }
  function partGone(key, timeoutMs) {
    const gone = () => {
      const el = markedParts(key)[0];
      return !el || !showsAnything(el);
    };
    return until(gone, timeoutMs);
  }

  Object.defineProperty(window, "__stepforge", {
    value: Object.freeze({
      settle: (quietMs, timeoutMs, requestsMs = timeoutMs) => {
        const started = performance.now();
        const left = (limit) => Math.max(1, limit - (performance.now() - started));
        const quiet = (now) => (parsing || inflight.size > 0 ? false : now - last >= quietMs || quietMs - (now - last));
        // A page that keeps changing is given up on at timeoutMs; a request of the page's begun since shortly
        // before (what the step did) still in flight then is waited for up to requestsMs: what it brings may
        // replace the view the next step acts on. One begun long before (a long poll) is not.
        const recent = started - Math.max(timeoutMs, requestsMs);
        const requested = () => until(quiet, left(timeoutMs)).then((ok) => (ok || youngest() < recent ? ok
          : until(() => youngest() < recent, left(requestsMs)).then((answered) => answered
            && until(quiet, Math.min(timeoutMs, left(requestsMs))))));
        // A page that says it is still loading (a busy region, a progress bar, "Loading…") is waited for too, up to
        // requestsMs: an app that starts a database or a worker before its first view makes no request meanwhile.
        const settled = () => requested().then((ok) => (!loading() ? ok
          : until(() => !loading(), left(requestsMs)).then((ready) => ready
            && until(quiet, Math.min(timeoutMs, left(requestsMs))))));
        const editor = document.activeElement;
        if (!editor || !editor.isContentEditable) return settled();
        // Typed into a rich-text editor: its text reaches the form only after the editor's debounce.
        return synced(editor, editor.innerText, timeoutMs).then(settled);
      },
      changed: (timeoutMs, since) => {
        const from = typeof since === "number" ? since : changes;
        return until(() => changes !== from, timeoutMs);
      },
      mark: () => changes,
      noteShown,
      // The mark just before the element last changed (a menu's button said open: what opened with it came after)
      changedBefore: (el) => (changedAt.has(el) ? changedAt.get(el) - 1 : null),
      synced,
      pickable,
      placed,
      counted,
      part,
      partGone,
      pageIs,
      shownValue,
      fieldShows,
      columnEach,
      sortedBy,
      states,
      ownShape,
      ownEditor,
      toggleOf,
      pending: () => inflight.size,
      keyed: (element) => keyed.has(element),
      clickable: (element) => clicked.has(element),
    }),
  });
})();
