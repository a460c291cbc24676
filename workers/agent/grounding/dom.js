() => {
  // stepforge grounding: one walk of this frame's document.
  // Returns null when this is a frame whose parent is not reachable (cross-origin),
  // else {frame_index, nodes}: frame_index is the index of this frame's <iframe> element in the
  // parent's window.__stepforge_nodes (null for the top frame); nodes is a pre-order list of
  // records with parent indices, already pruned of elements that are neither visible-and-operable,
  // visible-and-readable, nor ancestors of such. window.__stepforge_nodes[i] is the element of nodes[i].
  let frameIndex = null;
  if (window !== window.top) {
    let fe = null;
    try { fe = window.frameElement; } catch (e) { fe = null; }
    if (!fe) return null;
    let parentNodes = null;
    try { parentNodes = window.parent.__stepforge_nodes; } catch (e) { parentNodes = null; }
    frameIndex = parentNodes ? parentNodes.indexOf(fe) : -1;
    if (frameIndex < 0) return null;
  }

  const HTML_NS = 'http://www.w3.org/1999/xhtml';
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'META', 'LINK', 'TITLE', 'BASE',
    'OPTION', 'OPTGROUP', 'DATALIST', 'BR', 'WBR', 'PARAM', 'SOURCE', 'TRACK']);
  const LEAFY = new Set(['SELECT', 'TEXTAREA', 'INPUT', 'IFRAME', 'FRAME', 'OBJECT', 'EMBED', 'VIDEO', 'AUDIO',
    'CANVAS', 'IMG', 'svg', 'SVG', 'MATH', 'math']);
  const OP_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'tab', 'menuitem', 'menuitemcheckbox',
    'menuitemradio', 'option', 'switch', 'combobox', 'textbox', 'searchbox', 'slider', 'spinbutton', 'treeitem']);
  // Interactive elements whose non-interactive descendants are folded into them (their text is the element's text).
  const CONTROL_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'tab', 'menuitem', 'menuitemcheckbox',
    'menuitemradio', 'option', 'switch', 'treeitem']);
  // parts of a page people name by what they are (workers/agent/grounding/places.py PARTS)
  const PART_ROLES = new Set(['progressbar', 'meter', 'toolbar', 'complementary', 'banner', 'contentinfo',
    'navigation', 'menubar', 'menu', 'tree', 'dialog', 'alertdialog', 'table', 'grid', 'tablist', 'search', 'form',
    'alert', 'status']);  // (an alert or status region: what says a text in it is a message, grounding/what_it_is.py)
  const PART_TAGS = new Set(['progress', 'meter', 'aside', 'header', 'footer', 'nav', 'dialog', 'table', 'search',
    'form']);
  // a part drawn as a box whose class or id says what it is (places.py CLASS_NAMES): kept as a place too
  const PART_CLASS = /(?:^|[^a-z])(?:side-?bar|side-?nav|side-?panel|left-?nav|header|nav-?bar|top-?bar|app-?bar|masthead|footer|tool-?bar|main-?nav|main-?menu|palette|tray|drawer|popover|tree|canvas|workspace|chart|diagram)(?:[^a-z]|$)/i;
  const TEXTISH = new Set(['', 'text', 'email', 'password', 'tel', 'url', 'date', 'time', 'datetime-local',
    'month', 'week', 'color', 'file']);
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const cap = (s, n) => (s.length > n ? s.slice(0, n) : s);
  const attr = (el, a) => { const v = el.getAttribute(a); return v === null || v === '' ? null : v; };
  const isIdent = (s) => /^[A-Za-z_][A-Za-z0-9_-]*$/.test(s);
  const cssStr = (s) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');

  const CHOSEN = /(?:^|\s)(?:active|selected|current|is-active|is-selected)(?:\s|$)/;
  const chosen = (e) => !!e && e !== document.body && (e.getAttribute('aria-selected') === 'true'
    || !['false', null, ''].includes(e.getAttribute('aria-current'))
    || CHOSEN.test(typeof e.className === 'string' ? e.className : ''));

  function implicitRole(el, tag, type) {
    switch (tag) {
      case 'a': case 'area': return el.hasAttribute('href') ? 'link' : null;
      case 'button': return 'button';
      case 'input':
        if (type === 'button' || type === 'submit' || type === 'reset' || type === 'image') return 'button';
        if (type === 'checkbox') return 'checkbox';
        if (type === 'radio') return 'radio';
        if (type === 'range') return 'slider';
        if (type === 'number') return 'spinbutton';
        if (type === 'search') return el.hasAttribute('list') ? 'combobox' : 'searchbox';
        if (type === 'email' || type === 'tel' || type === 'text' || type === 'url' || type === '')
          return el.hasAttribute('list') ? 'combobox' : 'textbox';
        if (type === 'password') return 'textbox';
        return null;
      case 'select': return (el.multiple || el.size > 1) ? 'listbox' : 'combobox';
      case 'textarea': return 'textbox';
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
      case 'td': return 'cell';
      case 'th': {
        const sc = (el.getAttribute('scope') || '').toLowerCase();
        if (sc === 'row' || sc === 'rowgroup') return 'rowheader';
        if (sc === 'col' || sc === 'colgroup') return 'columnheader';
        const row = el.parentElement;
        if (row && row.parentElement && row.parentElement.tagName === 'THEAD') return 'columnheader';
        if (row && row.cells) { for (const c of row.cells) if (c.tagName === 'TD') return 'rowheader'; }
        return 'columnheader';
      }
      case 'tr': return 'row';
      case 'thead': case 'tbody': case 'tfoot': return 'rowgroup';
      case 'table': return 'table';
      case 'form': return 'form';
      case 'nav': return 'navigation';
      case 'main': return 'main';
      case 'header': return 'banner';
      case 'footer': return 'contentinfo';
      case 'aside': return 'complementary';
      case 'section': return (el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby')) ? 'region' : null;
      case 'article': return 'article';
      case 'ul': case 'ol': case 'menu': return 'list';
      case 'li': return 'listitem';
      case 'dialog': return 'dialog';
      case 'img': return el.getAttribute('alt') === '' ? 'presentation' : 'img';
      case 'fieldset': case 'details': return 'group';
      case 'progress': return 'progressbar';
      case 'meter': return 'meter';
      case 'hr': return 'separator';
      case 'dt': return 'term';
      case 'dd': return 'definition';
      case 'p': return 'paragraph';
      case 'output': return 'status';
      case 'option': return 'option';
      case 'caption': return 'caption';
      default: return null;
    }
  }

  // Text of a <label>, leaving out the controls it wraps.
  function labelText(node) {
    let s = '';
    for (const ch of node.childNodes) {
      if (ch.nodeType === 3) s += ch.data;
      else if (ch.nodeType === 1) {
        const t = ch.tagName;
        if (t === 'INPUT' || t === 'SELECT' || t === 'TEXTAREA' || t === 'SCRIPT' || t === 'STYLE') continue;
        s += ' ' + labelText(ch) + ' ';
      }
    }
    return s;
  }
  function seen(el) {
    const cs = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    return cs.display !== 'none' && cs.visibility === 'visible' && parseFloat(cs.opacity) > 0 && r.width > 2 && r.height > 2;
  }
  function visibleText(el) {
    const t = el.innerText;
    // innerText applies text-transform ("FIND OWNERS"); names and locators need the text as written.
    if (t === undefined || getComputedStyle(el).textTransform !== 'none') return norm(el.textContent);
    return norm(t);
  }

  // Elements the page added a click listener to (settle.js notes them): clickable whatever their tag.
  const listened = window.__stepforge && window.__stepforge.clickable;
  const recs = [];      // pre-order, visible subtrees only
  let lastHeading = null;
  // The size most of the page's text is set in (each size weighted by how much text it sets): a text set much larger,
  // alone in its box, is a heading to a person whatever its tag (a styled <div> or <span> titling a list).
  const baseSize = (() => {
    const sizes = new Map();
    const walker = document.createTreeWalker(document.body || document.documentElement, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(), i = 0; n && i < 3000; n = walker.nextNode(), i++) {
      const len = n.data.trim().length;
      if (!len || !n.parentElement) continue;
      const size = parseFloat(getComputedStyle(n.parentElement).fontSize) || 0;
      sizes.set(size, (sizes.get(size) || 0) + len);
    }
    let best = 0, most = -1;
    for (const [size, len] of sizes) if (len > most) { best = size; most = len; }
    return best;
  })();
  // HEADING_SIZE times the page's size, or HEADING_BOLD_SIZE times and bold: a heading by its look
  const HEADING_SIZE = 1.4, HEADING_BOLD_SIZE = 1.2;
  function looksLikeHeading(el, cs, own) {
    if (!own || !baseSize || el.children.length > 2) return false;
    const size = parseFloat(cs.fontSize) || 0;
    const bold = (parseInt(cs.fontWeight, 10) || 400) >= 600;
    if (size < baseSize * (bold ? HEADING_BOLD_SIZE : HEADING_SIZE)) return false;
    // words only (a large count or total, "12 Orders", "$1,250.00", changes: never a title), one of three letters
    const t = norm(el.textContent);
    return t.length <= 80 && !/\d/.test(t) && /[^\W\d_]{3}/.test(t) && t.split(' ').length <= 10;
  }

  function xpathStep(el) {
    const ln = el.localName;
    return el.namespaceURI === HTML_NS ? ln : `*[name()="${ln}"]`;
  }
  function lightXpath(el) {
    const parts = [];
    for (let cur = el; cur && cur.nodeType === 1; cur = cur.parentElement) {
      let k = 1;
      for (let s = cur.previousElementSibling; s; s = s.previousElementSibling)
        if (s.localName === cur.localName && s.namespaceURI === cur.namespaceURI) k++;
      parts.push(`${xpathStep(cur)}[${k}]`);
    }
    return '/' + parts.reverse().join('/');
  }

  function visit(el, parent, xpath, shadow, ctx, inControl, parentPointer) {
    const tagU = el.tagName;
    if (SKIP.has(tagU)) return;
    const cs = getComputedStyle(el);
    if (cs.display === 'none') return;
    if (el.hidden && tagU !== 'BODY') return;
    if (el.getAttribute('aria-hidden') === 'true') return;
    if (el.inert) return;
    if (parseFloat(cs.opacity) === 0) return;
    const tag = el.localName;
    const rect = el.getBoundingClientRect();
    const vis = rect.width > 0 && rect.height > 0 && cs.visibility !== 'hidden' && cs.visibility !== 'collapse';
    const type = tag === 'input' ? (el.getAttribute('type') || 'text').toLowerCase() : null;
    const explicitRole = (el.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase() || null;
    let role = explicitRole || (el.isContentEditable && el.hasAttribute('contenteditable') ? 'textbox' : implicitRole(el, tag, type));
    // A checkbox or radio drawn by its label over an input nobody sees (opacity 0, no size, not displayed): the
    // label is the control a person ticks, in the input's state.
    const drawn = tag === 'label' && el.control && el.control.localName === 'input'
      && (el.control.type === 'checkbox' || el.control.type === 'radio') && !seen(el.control) ? el.control : null;
    if (drawn) role = drawn.getAttribute('role') === 'switch' ? 'switch' : drawn.type;
    const pointer = cs.cursor === 'pointer';
    let op = false;
    if (tag === 'a' || tag === 'area') op = el.hasAttribute('href');
    else if (tag === 'button' || tag === 'select' || tag === 'textarea' || tag === 'summary') op = true;
    else if (tag === 'input') op = type !== 'hidden';
    if (!op && explicitRole && OP_ROLES.has(explicitRole)) op = true;
    if (drawn) op = true;
    if (!op && el.hasAttribute('contenteditable') && el.isContentEditable) op = true;
    if (!op && (el.hasAttribute('onclick') || el.hasAttribute('ondblclick'))) op = true;
    if (!op && el.hasAttribute('tabindex') && el.tabIndex >= 0) op = true;
    if (!op && pointer && !parentPointer && !inControl && tag !== 'body' && tag !== 'html') op = true;
    // A click listener of its own, last: such an element may only be delegating its children's clicks (see below).
    // Never a page-sized container: frameworks listen on their root for every click below it.
    let byListener = false;
    if (!op && listened && listened(el) && tag !== 'body' && tag !== 'html'
        && rect.width * rect.height < 0.5 * innerWidth * innerHeight) op = byListener = true;
    let own = false;
    if (!inControl) {
      for (const ch of el.childNodes) {
        if (ch.nodeType === 3 && /\S/.test(ch.data)) { own = true; break; }
      }
    }
    if (inControl && !op) {
      // folded into the enclosing control: not recorded, but may hold nested controls
      own = false;
    }
    const idx = recs.length;
    // a part of the page people name by what it is ("the sidebar", "under the progress bar"): kept as a place
    const part = !inControl && (PART_ROLES.has(role) || PART_TAGS.has(tag)
      || PART_CLASS.test(((el.getAttribute && el.getAttribute('class')) || '') + ' ' + (el.id || '')));
    // a text set as a heading with no heading role (a large <span> over a list): a heading by its look
    const styled = vis && !op && !inControl && !role && !LEAFY.has(tagU) && looksLikeHeading(el, cs, own);
    const rec = { el, parent, vis, op, byListener, rd: own, part, tag, role, type, xpath, shadow, ctx, heading: lastHeading, kept: false, keptChild: false, keptKids: 0, hidden: inControl && !op, drawn, styled };
    recs.push(rec);
    if ((role === 'heading' || styled) && vis) {
      const t = cap(visibleText(el), 120);
      if (t) lastHeading = t;
    }
    // An SVG is one picture (an icon), unless it holds texts: a diagram or a canvas of named nodes is walked.
    if ((LEAFY.has(tagU) || LEAFY.has(tag)) && !(tag === 'svg' && el.querySelector('text'))) return;

    let kidCtx = ctx;
    if (tag === 'fieldset') {
      const lg = el.querySelector(':scope > legend');
      kidCtx = Object.assign({}, kidCtx, { legend: lg ? cap(norm(lg.textContent), 120) : kidCtx.legend });
    } else if (tag === 'table') {
      const cp = el.caption;
      kidCtx = Object.assign({}, kidCtx, { caption: cp ? cap(norm(cp.textContent), 120) : null, cell: null });
    } else if (tag === 'td' || tag === 'th') {
      kidCtx = Object.assign({}, kidCtx, { cell: el });
    } else if (tag === 'dd') {
      kidCtx = Object.assign({}, kidCtx, { dd: el });
    }
    if (tag === 'td' || tag === 'th' || tag === 'dd') rec.ctx = kidCtx;
    const childControl = inControl || (op && (tag === 'a' || tag === 'button' || tag === 'summary' || (role && CONTROL_ROLES.has(role))));
    const childPointer = pointer;

    const sr = el.shadowRoot;
    if (sr) {
      const base = xpath + '/#shadow-root';
      const counts = new Map();
      for (const ch of sr.children) {
        const key = ch.namespaceURI + ch.localName;
        const k = (counts.get(key) || 0) + 1; counts.set(key, k);
        visit(ch, idx, `${base}/${xpathStep(ch)}[${k}]`, true, kidCtx, childControl, childPointer);
      }
      return;
    }
    if (tagU === 'SLOT') {
      const assigned = el.assignedElements({ flatten: true });
      for (const ch of assigned) {
        const inShadow = ch.getRootNode() instanceof ShadowRoot;
        visit(ch, idx, inShadow ? xpath + '/' + xpathStep(ch) : lightXpath(ch), inShadow, kidCtx, childControl, childPointer);
      }
      return;
    }
    const counts = new Map();
    for (const ch of el.children) {
      const key = ch.namespaceURI + ch.localName;
      const k = (counts.get(key) || 0) + 1; counts.set(key, k);
      visit(ch, idx, `${xpath}/${xpathStep(ch)}[${k}]`, shadow, kidCtx, childControl, childPointer);
    }
  }

  const rootEl = document.body || document.documentElement;
  if (!rootEl) { window.__stepforge_nodes = []; return { frame_index: frameIndex, nodes: [] }; }
  const baseCtx = { legend: null, caption: null, cell: null, dd: null };
  if (rootEl === document.documentElement) visit(rootEl, -1, '/html[1]', false, baseCtx, false, false);
  else visit(rootEl, -1, '/html[1]/' + xpathStep(rootEl) + '[1]', false, baseCtx, false, false);

  // A click listener on an element that holds controls of its own is delegation (a form, a list, a toolbar that
  // handles its children's clicks), not a control: only the listener's own clickable things count.
  for (let i = recs.length - 1; i >= 0; i--) {
    const r = recs[i];
    if (r.op && !r.byListener) for (let p = r.parent; p >= 0; p = recs[p].parent) recs[p].holdsControl = true;
    if (r.byListener && r.holdsControl) { r.op = false; if (r.parent >= 0) recs[r.parent].holdsControl = true; }
  }

  // keep: visible and (operable or readable), or an ancestor of a kept element, or a same-origin iframe
  for (let i = recs.length - 1; i >= 0; i--) {
    const r = recs[i];
    let keep = r.keptChild || (r.vis && !r.hidden && (r.op || r.rd || r.part));
    if (!keep && r.vis && (r.tag === 'iframe' || r.tag === 'frame')) {
      let doc = null;
      try { doc = r.el.contentDocument; } catch (e) { doc = null; }
      r.sameOrigin = !!doc;
      keep = !!doc;
    }
    if (i === 0) keep = true;
    r.kept = keep;
    if (keep && r.parent >= 0) { recs[r.parent].keptChild = true; recs[r.parent].keptKids++; }
  }

  // collapse single-child chains: a kept element that is not operable, has no visible own text and
  // exactly one kept child is replaced by that child (root, forms and frames are kept)
  const els = [];
  const newIdx = new Map();
  const kept = [];
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i];
    if (!r.kept) continue;
    const pr = r.parent >= 0 ? recs[r.parent] : null;
    r.outParent = pr ? (pr.collapsed ? pr.outParent : r.parent) : -1;
    if (i > 0 && r.keptKids === 1 && !r.op && !(r.rd && r.vis) && !r.part && r.tag !== 'form' && r.role !== 'heading' &&
        r.tag !== 'iframe' && r.tag !== 'frame') {
      r.collapsed = true;
      continue;
    }
    newIdx.set(i, els.length);
    r.newIndex = els.length;
    els.push(r.el);
    kept.push(r);
  }
  const elIndex = new Map();
  for (const r of kept) elIndex.set(r.el, r.newIndex);

  const rowCache = new Map();
  function spansColumns(cell) {
    const table = cell.closest('table');
    const spans = (row) => !!row && Array.from(row.cells || []).some((c) => c.colSpan > 1);
    return !table || spans(cell.parentElement) || spans(table.tHead && table.tHead.rows[0]) || spans(table.rows[0]);
  }
  function cellHeaders(cell) {
    if (rowCache.has(cell)) return rowCache.get(cell);
    let rh = null, ch = null;
    const row = cell.parentElement;
    if (row && row.cells) {
      const cells = row.cells;
      const headerRow = (row.parentElement && row.parentElement.tagName === 'THEAD') ||
        Array.from(cells).every((c) => c.tagName === 'TH');
      // the row's header cell nearest before the cell ('Owner:' of the second pair in 'Priority: minor Owner: Ann'),
      // else the first after it
      if (!headerRow) {
        const isRowHeader = (c) => c !== cell && c.tagName === 'TH' && (c.getAttribute('scope') || '').toLowerCase() !== 'col';
        const all = Array.from(cells), at = all.indexOf(cell);
        const before = all.slice(0, at).reverse().find(isRowHeader), after = all.slice(at + 1).find(isRowHeader);
        const header = before || after;
        if (header) rh = cap(norm(header.textContent), 80);
      }
      if (rh === null && cells.length > 1 && cells[0] !== cell && cells[0].tagName === 'TD' && cell.tagName === 'TD') {
        rh = cap(norm(cells[0].textContent), 80) || null;
      }
      const table = cell.closest('table');
      if (table) {
        let hr = null;
        if (table.tHead && table.tHead.rows.length) hr = table.tHead.rows[0];
        else if (table.rows.length && Array.from(table.rows[0].cells).every((c) => c.tagName === 'TH')) hr = table.rows[0];
        if (hr && hr !== row) {
          const hc = hr.cells[cell.cellIndex];
          if (hc && hc !== cell) ch = cap(norm(hc.textContent), 80) || null;
        }
      }
    }
    const res = [rh, ch];
    rowCache.set(cell, res);
    return res;
  }

  // A form's own title: its accessible name, a legend or heading inside it, or a heading just before it (or before
  // the box it is the first thing in); '' when
  // it has none (a heading elsewhere on the page names another part of the page, never this form).
  const formTitles = new Map();
  // what a person sees of a text: no zero-width spaces or joiners, soft hyphens or direction marks
  const visible = (t) => norm((t || '').replace(/[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/g, ''));
  function formTitle(f) {
    if (formTitles.has(f)) return formTitles.get(f);
    let title = visible(attr(f, 'aria-label'));
    const by = attr(f, 'aria-labelledby');
    if (!title && by) title = visible(by.split(/\s+/).map((id) => { const e = document.getElementById(id); return e ? e.textContent : ''; }).join(' '));
    const isHeading = (e) => e && (/^H[1-6]$/.test(e.tagName) || e.getAttribute('role') === 'heading');
    if (!title) {
      // a legend or heading inside it before its first field titles it; one after titles a section within or
      // below (a customer form's inline "Addresses" list), never the form
      const first = f.querySelector('input:not([type=hidden]), select, textarea, [contenteditable=""], [contenteditable=true]');
      const inside = Array.from(f.querySelectorAll('legend, h1, h2, h3, h4, h5, h6, [role=heading]')).find((h) =>
        !first || (h.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING));
      if (inside) title = visible(inside.textContent);
    }
    // the heading just before it, or before the box it alone fills (<h2>Search</h2><div><form>...)
    for (let e = f, hops = 0; !title && e && e !== document.body && hops < 4; e = e.parentElement, hops++) {
      const before = e.previousElementSibling;
      if (before) { if (isHeading(before)) title = visible(before.textContent); break; }
      if (e.parentElement && e.parentElement.children.length > 1) break;  // a box it shares: the heading is the box's
    }
    title = cap(title, 120);
    formTitles.set(f, title);
    return title;
  }

  // A control nothing names, under the title its own box starts with (<div><h2>Available categories</h2><p>...</p>
  // <select multiple>): that title, unless the box holds another control nothing names (the title is the box's).
  const NAMELESS = (c) => !(c.labels && c.labels.length) && !['aria-label', 'aria-labelledby', 'placeholder', 'title']
    .some((a) => c.hasAttribute(a)) && !['hidden', 'submit', 'button', 'reset', 'image'].includes(c.type);
  function boxTitle(el) {
    let box = el.parentElement;
    for (let hops = 0; box && box !== document.body && hops < 3; box = box.parentElement, hops++) {
      if (Array.from(box.querySelectorAll('input, select, textarea')).some((c) => c !== el && NAMELESS(c))) return '';
      const first = box.firstElementChild;
      if (first && !first.contains(el) && (/^H[1-6]$/.test(first.tagName) || first.tagName === 'LEGEND'
          || first.getAttribute('role') === 'heading')) return cap(norm(first.textContent), 120);
      // a label tied to no control, first in the box the control is the only nameless one of ('<label for="">')
      if (first && first !== el && first.tagName === 'LABEL' && !first.control && norm(first.textContent))
        return cap(norm(first.textContent), 120);
    }
    return '';
  }

  function replacedSelect(el) {
    // the opener (a link, a button, a combobox) of a box that follows a hidden <select>, up to two levels up
    if (!(el.tagName === 'A' || el.tagName === 'BUTTON' || el.getAttribute('role') === 'combobox')) return null;
    // (and it shows the select's current option, as such a box does: never a toolbar's button after a hidden select)
    for (let box = el.parentElement, i = 0; box && i < 2; box = box.parentElement, i++) {
      const prev = box.previousElementSibling;
      if (prev && prev.tagName === 'SELECT' && !prev.getClientRects().length) {
        const current = prev.selectedOptions && prev.selectedOptions.length ? norm(prev.selectedOptions[0].label || prev.selectedOptions[0].text) : '';
        return current && norm(el.textContent) === current ? prev : null;
      }
    }
    return null;
  }

  function frameSel(el) {
    const tag = el.localName;
    const root = el.getRootNode();
    const count = (s) => { try { return root.querySelectorAll(s).length; } catch (e) { return 0; } };
    if (el.id) {
      const s = isIdent(el.id) ? `${tag}#${el.id}` : `${tag}[id="${cssStr(el.id)}"]`;
      if (count(s) === 1) return s;
    }
    for (const a of ['name', 'title', 'src']) {
      const v = el.getAttribute(a);
      if (v) { const s = `${tag}[${a}="${cssStr(v)}"]`; if (count(s) === 1) return s; }
    }
    const all = Array.from(document.querySelectorAll(tag));
    return `${tag} >> nth=${Math.max(0, all.indexOf(el))}`;
  }

  // An icon-only control that nothing names (no text, label, title, alt or SVG title): its icon's class words
  // ("fa fa-trash" -> trash), which people read as the icon they see.
  const ICON_NOISE = new Set(['icon', 'icons', 'fa', 'fas', 'far', 'fab', 'fal', 'fad', 'bi', 'glyphicon', 'mdi',
    'ti', 'material', 'symbols', 'outlined', 'rounded', 'sharp', 'btn', 'button', 'sm', 'lg', 'xs', 'solid',
    'regular', 'light', 'fw', 'inline', 'block', 'svg', 'ico', 'ion', 'ionicon', 'feather', 'lucide', 'heroicon']);
  function iconName(el) {
    const words = [];
    const add = (text) => {
      for (const w of text.split(/[\s_-]+/)) {
        const k = w.toLowerCase();
        if (k.length > 1 && /^[a-z]+$/.test(k) && !ICON_NOISE.has(k) && !words.includes(k)) words.push(k);
      }
    };
    const parts = [el, ...el.querySelectorAll('i, svg, span, use')];
    // An icon library's own name for the picture first: MUI's data-testid="SettingsIcon", Font Awesome's data-icon.
    for (const e of parts)
      for (const a of ['data-icon', 'data-testid'])
        if (e !== el || a === 'data-icon') add((e.getAttribute(a) || '').replace(/([a-z0-9])([A-Z])/g, '$1 $2'));
    for (const e of parts) {
      add(e.getAttribute('class') || '');  // the class of an SVG element is not a string property
      if (e.tagName === 'use') add((e.getAttribute('href') || e.getAttribute('xlink:href') || '').replace(/^.*#/, ''));
    }
    return words.slice(0, 4).join(' ');
  }
  // The words of a container's class and id ("progress", "filter row"): where a place described by its look is.
  function classWords(el) {
    const words = [];
    const text = ((el.getAttribute('class') || '') + ' ' + (el.id || '')).replace(/([a-z])([A-Z])/g, '$1 $2');
    for (const w of text.split(/[^A-Za-z]+/)) {
      const k = w.toLowerCase();
      if (k.length > 2 && !words.includes(k)) words.push(k);
      if (words.length >= 8) break;
    }
    return words.join(' ');
  }
  // Fields that react to keys (their suggestions open on keyup) are typed key by key.
  const keyed = window.__stepforge && window.__stepforge.keyed;
  function typeahead(el, tag, role) {
    if (role === 'combobox' && tag !== 'select') return true;
    if (el.hasAttribute('aria-autocomplete') || (tag === 'input' && el.hasAttribute('list'))) return true;
    if (el.hasAttribute('onkeyup') || el.hasAttribute('onkeydown') || el.hasAttribute('onkeypress')) return true;
    return !!(keyed && keyed(el));
  }

  const out = [];
  for (const r of kept) {
    const el = r.el;
    const tag = r.tag;
    const rect = el.getBoundingClientRect();
    const o = {
      p: r.outParent >= 0 ? newIdx.get(r.outParent) : null,
      tag, role: r.role, op: r.op, rd: r.rd && r.vis, pt: r.part, vis: r.vis,
      xpath: r.xpath, shadow: r.shadow,
      bbox: [rect.x, rect.y, rect.width, rect.height],
    };
    const isCtl = tag === 'input' || tag === 'select' || tag === 'textarea';
    if (r.op || r.rd) {
      let t = '';
      if (tag !== 'select' && tag !== 'textarea' && tag !== 'input') t = cap(visibleText(el), 200);
      if (!t && r.op && !isCtl) {
        const img = el.querySelector('img[alt]');
        if (img) t = cap(norm(img.getAttribute('alt')), 200);
      }
      if (t) o.text = t;
      if (!t && r.op && !isCtl) { const n = iconName(el); if (n) o.icon = n; }
      // Named only by a picture (an SVG <title>, an image's alt, in it or in its label): Chromium's own
      // accessible name is asked for (tree.py), rather than computed here.
      if (r.op && !t && !attr(el, 'aria-label') && !attr(el, 'title') && !attr(el, 'aria-labelledby')
          && (el.querySelector('img, svg, [role="img"]')
              || (el.labels && Array.from(el.labels).some((l) => !norm(labelText(l)) && l.querySelector('img, svg, [role="img"]'))))) o.ax = true;
    } else if (r.vis && !r.hidden) {
      // container: own direct text only
    }
    // label
    const labels = [];
    const lb = attr(el, 'aria-labelledby');
    if (lb) {
      for (const id of lb.split(/\s+/)) {
        const le = el.ownerDocument.getElementById(id) || (el.getRootNode().getElementById ? el.getRootNode().getElementById(id) : null);
        if (le) { const t = norm(le.textContent); if (t) labels.push(t); }
      }
    }
    if (!labels.length && el.labels && el.labels.length) {
      for (const l of el.labels) { const t = norm(labelText(l)); if (t && !labels.includes(t)) labels.push(t); }
    }
    if (labels.length) o.label = cap(labels.join(' '), 200);
    // A radio or checkbox whose label goes on in the words after it ("(o) resolve as [fixed]"): what its line reads.
    if (tag === 'input' && (r.type === 'radio' || r.type === 'checkbox') && el.labels && el.labels.length === 1) {
      let after = '';
      for (let n = el.labels[0].nextSibling; n && n.nodeType === 3; n = n.nextSibling) after += n.data;
      after = norm(after).replace(/[:,]$/, '');
      if (after && after.split(' ').length <= 3 && o.label) o.line = cap(o.label + ' ' + after, 200);
    }
    const al = attr(el, 'aria-label'); if (al) o.aria_label = norm(al);
    const ph = attr(el, 'placeholder'); if (ph) o.placeholder = norm(ph);
    const ti = attr(el, 'title'); if (ti) o.title = norm(ti);
    if (!ti && !al && !norm(el.textContent) && (tag === 'a' || tag === 'button' || r.role === 'button' || r.role === 'link')) {
      // an icon link or button whose only picture carries the tooltip (<a><span class="date-icon" title="Choose a
      // Date"></span></a>): that tooltip
      const tipped = el.querySelectorAll('[title]');
      if (tipped.length === 1 && norm(tipped[0].getAttribute('title'))) o.title = norm(tipped[0].getAttribute('title'));
    }
    const boxed = tag !== 'input' || !['hidden', 'submit', 'button', 'reset', 'image', 'checkbox', 'radio', 'file'].includes(r.type);
    if (isCtl && boxed && !labels.length && !al && !ph && !ti) {
      // a control nothing names: in a table's cell, by its column's header (an inline table's inputs; not where a cell
      // spans columns, which puts headers and cells out of line); else by the title its own box starts with
      const ch = r.ctx && r.ctx.cell && !spansColumns(r.ctx.cell) ? cellHeaders(r.ctx.cell)[1] : null;
      const bt = ch || boxTitle(el); if (bt) o.box_title = bt;
    }
    const nm = attr(el, 'name'); if (nm) o.name_attr = nm;
    if (el.id) o.id_attr = el.id;
    // A native select hidden and drawn again by a script right after it (Chosen, Select2): its opener goes by the
    // select's label, name and options, as a person reading the page takes it for that select
    const stood = r.op ? replacedSelect(el) : null;
    if (stood) {
      // (its label's own words, never the texts of the box drawn inside it; with none, the select's name)
      const said = Array.from(stood.labels || []).map((l) => {
        const copy = l.cloneNode(true);
        for (const c of Array.from(copy.querySelectorAll('select, a, button, ul, ol'))) c.remove();
        return norm(copy.textContent);
      }).filter((t) => t);
      const named = attr(stood, 'name');
      if (!o.label && (said.length || named)) o.label = cap(said.length ? said.join(' ') : named.replace(/[_-]+/g, ' ').trim(), 200);
      if (!o.name_attr && named) o.name_attr = named;
      const opts = [];
      for (const x of stood.options) { if (opts.length >= 200) break; opts.push(norm(x.label || x.text)); }
      o.options = opts;
    }
    const tid = attr(el, 'data-testid'); if (tid) o.testid = tid;
    if (!r.op) { const cw = classWords(el); if (cw) o.cw = cw; } else { const kw = classWords(el); if (kw) o.kw = kw; }
    if (el === document.activeElement && el !== document.body) o.focused = true;
    // a text of a tab, a menu entry or a link marked as the one chosen (by ARIA or by its class), or whose holder is
    if (o.text && [el, el.parentElement, el.parentElement && el.parentElement.parentElement].some(chosen)) o.selected = true;
    if (r.styled) o.looks = ['heading'];
    if ((isCtl && tag !== 'select') || el.isContentEditable) { if (typeahead(el, tag, r.role)) o.typeahead = true; }
    if (tag === 'input') {
      o.input_type = r.type;
      if (r.type === 'checkbox' || r.type === 'radio') o.checked = el.checked;
      else if (r.type !== 'password') o.value = el.value;
      if (r.type === 'image' && !o.text) { const a = attr(el, 'alt'); if (a) o.text = norm(a); }
    } else if (tag === 'select') {
      o.input_type = 'select';
      const sel = Array.from(el.selectedOptions || []).map((x) => norm(x.label || x.text));
      o.value = sel.join(', ');
      const opts = [];
      for (const x of el.options) { if (opts.length >= 200) break; opts.push(norm(x.label || x.text)); }
      o.options = opts;
    } else if (tag === 'textarea') {
      o.input_type = 'textarea';
      o.value = el.value;
    } else if (r.drawn) {
      o.input_type = r.drawn.type;
      o.checked = r.drawn.checked;
    } else if (r.role === 'checkbox' || r.role === 'radio' || r.role === 'switch') {
      const ac = el.getAttribute('aria-checked');
      if (ac !== null) o.checked = ac === 'true';
    }
    if (isCtl) {
      if (el.required || el.getAttribute('aria-required') === 'true') o.required = true;
      const pt = attr(el, 'pattern'); if (pt) o.pattern = pt;
      if (el.hasAttribute('minlength')) { const v = parseInt(el.getAttribute('minlength'), 10); if (!isNaN(v)) o.minlength = v; }
      if (el.hasAttribute('maxlength')) { const v = parseInt(el.getAttribute('maxlength'), 10); if (!isNaN(v)) o.maxlength = v; }
      const mn = attr(el, 'min'); if (mn) o.min = mn;
      const mx = attr(el, 'max'); if (mx) o.max = mx;
    } else if (el.getAttribute('aria-required') === 'true') o.required = true;
    const f = (isCtl || tag === 'button') && el.form ? el.form : (tag === 'form' ? null : el.closest('form'));
    if (f && elIndex.has(f)) o.form = elIndex.get(f);
    if (f) o.form_title = formTitle(f);
    // context
    const ctx = r.ctx;
    const parts = [];
    const push = (t) => { if (t && !parts.includes(t)) parts.push(t); };
    if (r.role !== 'heading') push(r.heading);
    push(ctx.legend);
    push(ctx.caption);
    if (ctx.cell) { const [rh, ch] = cellHeaders(ctx.cell); push(rh); push(ch); }
    if (ctx.dd) {
      let dt = ctx.dd.previousElementSibling;
      while (dt && dt.tagName !== 'DT') dt = dt.previousElementSibling;
      if (dt) push(cap(norm(dt.textContent), 80));
    }
    if (parts.length) o.context = parts.join(' / ');
    if (tag === 'iframe' || tag === 'frame') {
      const cs = getComputedStyle(el);
      o.fsel = frameSel(el);
      o.fx = rect.x + el.clientLeft + (parseFloat(cs.paddingLeft) || 0);
      o.fy = rect.y + el.clientTop + (parseFloat(cs.paddingTop) || 0);
      o.same = !!r.sameOrigin || (() => { try { return !!el.contentDocument; } catch (e) { return false; } })();
    }
    out.push(o);
  }
  window.__stepforge_nodes = els;
  // The page's fingerprint rides along, so observing an operation needs no extra round trip before it.
  let state = null;
  if (window === window.top) {
    const text = document.body ? document.body.innerText : '';
    let hash = 5381;
    for (let i = 0; i < text.length; i++) hash = ((hash * 33) ^ text.charCodeAt(i)) >>> 0;
    state = [document.querySelectorAll('*').length, text.length, hash];
  }
  // How many changes the page had made when it was read: a change made while the snapshot is still being
  // taken (other frames, names, crops) is then seen by whoever waits for the page's next change.
  const mark = window === window.top && window.__stepforge ? window.__stepforge.mark() : null;
  return { frame_index: frameIndex, nodes: out, title: document.title, state, mark };
}
