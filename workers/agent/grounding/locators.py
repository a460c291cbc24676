"""Stable locators for grounded nodes, checked against the live page.

``best_locator`` tries, in this order: id (``#id`` or ``[id="..."]``), data-testid, name
(``tag[name="..."]``), label (getByLabel exact), role + accessible name (getByRole exact), text
(getByText exact); then the same, or the role alone, inside the row, list item or card that holds
the element, found by a text of its own (``locator("tr").filter({ hasText: "Betty Davis" })``).
A candidate is kept only when, resolved through the node's iframe chain, it matches exactly one
element and that element *is* the node's element.  A value check may use an XPath anchored to the
element's label (a row header, a ``<dt>``).  A node inside a shadow root falls back to a piercing
CSS path; otherwise no position-only path is ever returned: NoStableLocator says so.

``resolve`` turns a ``Locator`` into a Playwright locator with exactly the calls the generated
JavaScript makes: ``locator(css)``, ``locator('xpath=...')``, ``getByTestId``,
``getByLabel(v, {exact: true})``, ``getByRole(role, {name: v, exact: true})``,
``getByText(v, {exact: true})``, each behind ``frameLocator(sel)`` for every iframe in the chain.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator

from playwright.sync_api import ElementHandle, FrameLocator, Page
from playwright.sync_api import Locator as PWLocator

from shared.records import Locator, Node, PageSnapshot, Within
from shared.volatile import locator_texts, unsaid_volatile
from shared.words import words_pattern
from workers.agent.actions.naming import said_within

from .ids import generated_id
from .tree import element_handle

__all__ = ["best_locator", "resolve", "candidate_locators", "css_string", "NoStableLocator"]

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")
_IS_TARGET_JS = "(els, t) => els.length === 1 && els[0] === t"
# roles Playwright's getByRole accepts (ARIA 1.2 plus a few it knows)
_ROLES = frozenset(
    """alert alertdialog application article banner blockquote button caption cell checkbox code columnheader
    combobox complementary contentinfo definition deletion dialog directory document emphasis feed figure form
    generic grid gridcell group heading img insertion link list listbox listitem log main marquee math meter menu
    menubar menuitem menuitemcheckbox menuitemradio navigation none note option paragraph presentation progressbar
    radio radiogroup region row rowgroup rowheader scrollbar search searchbox separator slider spinbutton status
    strong subscript superscript switch tab table tablist tabpanel term textbox time timer toolbar tooltip tree
    treegrid treeitem""".split()
)
# roles whose accessible name comes from their content
_NAME_FROM_CONTENT = frozenset(
    """button cell checkbox columnheader gridcell heading link menuitem menuitemcheckbox menuitemradio option
    radio row rowheader switch tab tooltip treeitem""".split()
)


def css_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _scope(page: Page, frames: list[str]) -> Page | FrameLocator:
    root: Page | FrameLocator = page
    for sel in frames:
        root = root.frame_locator(sel)
    return root


def resolve(page: Page, locator: Locator) -> PWLocator:
    """The Playwright locator for a stepforge Locator (same semantics as the generated JavaScript)."""
    found = _query(page, locator)
    return found.nth(locator.nth) if locator.nth is not None else found


def _query(page: Page, locator: Locator) -> PWLocator:
    root: Page | FrameLocator | PWLocator = _scope(page, locator.frames)
    if locator.within is not None:
        root = root.locator(locator.within.css).filter(has_text=locator.within.text)
    s, v = locator.strategy, locator.value
    selector = locator.selector()
    if selector is not None:
        return root.locator(selector)
    if s == "testid":
        return root.get_by_test_id(v)
    exact = locator.exact
    if s == "label":
        return root.get_by_label(v, exact=exact)
    if s == "role":
        if not locator.role:
            raise ValueError("role locator without a role")
        if not v:
            return root.get_by_role(locator.role)  # type: ignore[arg-type]
        return root.get_by_role(locator.role, name=v, exact=exact)  # type: ignore[arg-type]
    if s == "text":
        return root.get_by_text(v, exact=exact)
    if s == "title":
        return root.get_by_title(v, exact=exact)
    raise ValueError(f"unknown locator strategy {s!r}")


def accessible_names(n: Node) -> list[str]:
    names: list[str] = []
    for v in (n.aria_label, n.label, n.a11y_name):
        if v:
            names.append(v)
    if n.role in _NAME_FROM_CONTENT and n.text:
        names.append(n.text)
    if n.tag == "input" and n.input_type in ("button", "submit", "reset") and n.value:
        names.append(n.value)
    for v in (n.title, n.placeholder):
        if v:
            names.append(v)
    out: list[str] = []
    for v in names:
        v = " ".join(v.split())
        if v and v not in out:
            out.append(v)
    return out[:2]


def candidate_locators(n: Node, anchored: bool = False, said: str | None = None) -> Iterator[Locator]:
    """Locator candidates for a node, in preference order (unchecked).

    anchored: the node's text is the value under test, so no candidate may be built from it.
    said: the words the step named the element by; when its name holds them with a count, a state or a card's
    whole text around them, the element is found by those words inside its name first.
    """
    frames = list(n.frame)
    if n.id_attr:
        value = f"#{n.id_attr}" if _IDENT.match(n.id_attr) else f"[id={css_string(n.id_attr)}]"
        yield Locator(strategy="id", value=value, frames=frames)
    if n.testid:
        yield Locator(strategy="testid", value=n.testid, frames=frames)
    if n.name_attr:
        yield Locator(strategy="name", value=f"{n.tag}[name={css_string(n.name_attr)}]", frames=frames)
    for v in (n.label, n.aria_label):
        if v and len(v) <= 120:
            yield Locator(strategy="label", value=" ".join(v.split()), frames=frames)
    if anchored:
        return
    if n.role and n.role in _ROLES:
        for name in accessible_names(n)[:1]:
            words = said_within(name, said)
            if words:
                yield Locator(strategy="role", role=n.role, value=words, frames=frames, exact=False)
        for name in accessible_names(n):
            if len(name) <= 120:
                yield Locator(strategy="role", role=n.role, value=name, frames=frames)
    if n.text and len(n.text) <= 120 and n.tag not in ("input", "select", "textarea"):
        yield Locator(strategy="text", value=n.text, frames=frames)
    if n.title and len(n.title) <= 120:  # an icon-only control named by its tooltip
        yield Locator(strategy="title", value=" ".join(n.title.split()), frames=frames)


# An XPath from the element's label rather than its content: a row header to its cell, a <dt> to its
# <dd>, a column header to the cell below it. Null when the element has no such label.
_ANCHORED_XPATH_JS = r"""(el) => {
  const lit = (t) => !t.includes('"') ? `"${t}"` : !t.includes("'") ? `'${t}'`
    : 'concat(' + t.split('"').map((p) => `"${p}"`).join(`, '"', `) + ')';
  const norm = (t) => (t || '').replace(/\s+/g, ' ').trim();
  const tag = el.localName;
  if (tag === 'dd') {
    let dt = el.previousElementSibling;
    while (dt && dt.localName !== 'dt') dt = dt.previousElementSibling;
    if (dt && norm(dt.textContent)) return `//dt[normalize-space(.)=${lit(norm(dt.textContent))}]/following-sibling::dd[1]`;
    return null;
  }
  if (tag !== 'td' && tag !== 'th') return null;
  const row = el.parentElement;
  if (!row || row.localName !== 'tr') return null;
  const header = Array.from(row.children).find((c) => c !== el && c.localName === 'th' && norm(c.textContent));
  if (header) {
    const index = Array.from(row.children).filter((c) => c.localName === el.localName).indexOf(el) + 1;
    return `//tr[${header.localName}[normalize-space(.)=${lit(norm(header.textContent))}]]/${tag}[${index}]`;
  }
  return null;
}"""


def lasting(loc: Locator, told: str | None = None) -> bool:
    """The locator names nothing that reads otherwise tomorrow (a date, a time, "3 minutes ago", a counter, a
    generated id: see shared.volatile), unless the step's own words (`told`) name it."""
    return not any(unsaid_volatile(text, told or "") for text in locator_texts(loc))


def _is_target(page: Page, loc: Locator, handle: ElementHandle) -> bool:
    try:
        return bool(resolve(page, loc).evaluate_all(_IS_TARGET_JS, handle))
    except Exception:
        return False


_SHADOW_CSS_JS = """(el) => {
  const seg = (e) => {
    let k = 1;
    for (let s = e.previousElementSibling; s; s = s.previousElementSibling) if (s.localName === e.localName) k++;
    return `${e.localName}:nth-of-type(${k})`;
  };
  const scopes = [];
  let cur = el;
  while (cur) {
    const parts = [];
    let e = cur;
    for (; e && e.parentElement; e = e.parentElement) parts.unshift(seg(e));
    const root = e.getRootNode ? e.getRootNode() : null;
    if (root instanceof ShadowRoot) {
      parts.unshift(':scope > ' + seg(e));
      scopes.unshift(parts.join(' > '));
      cur = root.host;
    } else {
      scopes.unshift(parts.join(' > '));
      cur = null;
    }
  }
  return scopes.map((s) => 'css=' + s).join(' >> ');
}"""


# The repeated containers around an element (table rows, list items, cards: nearest first), each with the texts
# of its own that could name it, in reading order: a row's cells; else its text and the text of its children that
# are neither controls nor hold the element. A card is an element whose parent holds two or more of its tag and
# class.
_CONTAINERS_JS = r"""(el, itself) => {
  const norm = (t) => (t || '').replace(/\s+/g, ' ').trim();
  const ident = /^[A-Za-z_][A-Za-z0-9_-]*$/;
  const controls = new Set(['input', 'select', 'textarea', 'button']);
  const out = [];
  for (let cur = itself ? el : el.parentElement; cur && cur !== document.body && out.length < (itself ? 1 : 3);
       cur = itself ? null : cur.parentElement) {
    const tag = cur.localName, role = cur.getAttribute('role');
    let css = null;
    if (tag === 'tr' || tag === 'li' || (!itself && (tag === 'th' || tag === 'td'))) css = tag;
    else if (role === 'row' || role === 'listitem' || role === 'option') css = `[role="${role}"]`;
    else if (cur.parentElement) {
      // one of several alike: beside each other, or anywhere on the page (a tree's rows, each in an item of its own)
      const classes = Array.from(cur.classList).filter((c) => ident.test(c));
      const same = Array.from(cur.parentElement.children).filter((c) => c.localName === tag
        && classes.every((k) => c.classList.contains(k)));
      const kind = classes.length ? tag + classes.map((k) => '.' + k).join('') : null;
      const written = classes.every((k) => !/^(?:css|sc|jsx|emotion|svelte)-|[a-z]\d|\d[a-z]/i.test(k));  // see _MADE_CLASS
      if (kind && (same.length >= 2 || (!itself && written && document.querySelectorAll(kind).length >= 2))) css = kind;
    }
    if (!css && !itself && (/^(section|fieldset|article|aside|form|dialog)$/.test(tag) || ['region', 'group', 'dialog'].includes(role))) {
      // a section named by its heading: "the second field under Profile"
      const heading = cur.querySelector('h1, h2, h3, h4, h5, h6, legend, caption, [role="heading"]');
      const title = heading && !heading.contains(el) ? norm(heading.innerText || heading.textContent) : '';
      if (title && title.length <= 80) out.push({ css: role && !/^(section|fieldset|article|aside|form|dialog)$/.test(tag) ? `[role="${role}"]` : tag, texts: [title] });
      continue;
    }
    if (!css) continue;
    const parts = [];
    for (const child of cur.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) parts.push(norm(child.textContent));
      else if (child.nodeType === Node.ELEMENT_NODE && (tag === 'tr' || (!child.contains(el)
               && !controls.has(child.localName)))) parts.push(...(child.innerText || '').split('\n').map(norm));
    }
    const texts = [...new Set(parts.filter((t) => t && t.length <= 80))];
    if (texts.length) out.push({ css, texts: texts.slice(0, 6) });
  }
  return out;
}"""


def _inner_candidates(n: Node, anchored: bool) -> Iterator[Locator]:
    """What finds the element inside its container: its usual candidates, its role alone, its kind of input."""
    yield from candidate_locators(n, anchored)
    if n.role and n.role in _ROLES:
        yield Locator(strategy="role", role=n.role, value="")
    if n.tag == "input" and n.input_type and _IDENT.match(n.input_type):
        yield Locator(strategy="css", value=f"input[type={css_string(n.input_type)}]")
    elif n.tag in ("select", "textarea", "button", "a", "input"):
        yield Locator(strategy="css", value=n.tag)


_CLASSES_JS = "(e) => Array.from(e.classList)"
# Class names a build or a CSS-in-JS library makes (css-1dbjc4n, sc-bdVaJa, jsx-123): never a locator.
_MADE_CLASS = re.compile(r"^(?:css|sc|jsx|emotion|svelte)-|[a-z]\d|\d[a-z]", re.I)


def _kind_css(n: Node, handle: ElementHandle) -> Locator | None:
    """An icon-only control nothing names (an icon drawn in SVG, a tree's toggle) by its tag and the class names a
    person wrote for it (svg.dropdown-menu-icon): found inside its row or cell only."""
    if not n.icon or n.text or n.label or n.aria_label or n.title:
        return None
    try:
        classes = [c for c in handle.evaluate(_CLASSES_JS) if _IDENT.match(c) and not generated_id(c)
                   and not _MADE_CLASS.search(c)]
    except Exception:
        return None
    if not classes or not _IDENT.match(n.tag):
        return None
    return Locator(strategy="css", value=n.tag + "".join(f".{c}" for c in classes[:3]))


def _scoped_locator(page: Page, n: Node, handle: ElementHandle, avoid: Collection[str],
                    anchored: bool, told: str | None = None) -> Locator | None:
    """A locator that finds the container (row, list item, card) by a text of its own, then the element inside it
    by what it is: what people say ("Delete in the row of Betty Davis"), never a position. anchored: the element's
    text is the value under test, so the container is never named by it."""
    try:
        containers = handle.evaluate(_CONTAINERS_JS, False)
    except Exception:
        return None
    inner = [loc for loc in [*_inner_candidates(n, anchored), _kind_css(n, handle)] if loc is not None
             and loc.strategy not in avoid and lasting(loc, told)]
    own = " ".join(n.text.split()).lower()
    for container in containers:
        for text in container["texts"]:
            if anchored and own and (own in text.lower() or text.lower() in own):
                continue
            if unsaid_volatile(text, told or ""):  # a row named by today's date finds nothing tomorrow
                continue
            within = Within(css=container["css"], text=text)
            for loc in inner:
                scoped = loc.model_copy(update={"frames": list(n.frame), "within": within})
                if _is_target(page, scoped, handle):
                    return scoped
            for loc in inner:  # named alike inside it: by their order there ("the second field under Profile")
                scoped = loc.model_copy(update={"frames": list(n.frame), "within": within})
                try:
                    index = resolve(page, scoped).evaluate_all(_INDEX_OF_JS, handle)
                except Exception:
                    continue
                if isinstance(index, int) and index >= 0:
                    return scoped.model_copy(update={"nth": index})
    return None


def _row_locator(page: Page, n: Node, handle: ElementHandle, told: str | None = None) -> Locator | None:
    """A clickable row, list item or card itself, by a text of its own ("the Water the plants row":
    locator("tr").filter({ hasText: "Water the plants" })), not by all its text, which changes with its status."""
    try:
        own = handle.evaluate(_CONTAINERS_JS, True)
    except Exception:
        return None
    for container in own:
        for text in container["texts"]:
            if unsaid_volatile(text, told or ""):
                continue
            loc = Locator(strategy="css", value=":scope", frames=list(n.frame),
                          within=Within(css=container["css"], text=text))
            if _is_target(page, loc, handle):
                return loc
    return None


_INDEX_OF_JS = "(els, t) => els.length <= 20 ? els.indexOf(t) : -1"


def _ordinal_locator(page: Page, n: Node, handle: ElementHandle, avoid: Collection[str],
                     told: str | None = None) -> Locator | None:
    """Among elements named alike, the element by its order: "the second Same" (getByText("Same").nth(1))."""
    for loc in _inner_candidates(n, anchored=False):
        if loc.strategy in avoid or not lasting(loc, told):
            continue
        loc = loc.model_copy(update={"frames": list(n.frame)})
        try:
            index = resolve(page, loc).evaluate_all(_INDEX_OF_JS, handle)
        except Exception:
            continue
        if isinstance(index, int) and index >= 0:
            return loc.model_copy(update={"nth": index})
    return None


_INSIDE_TARGET_JS = "(els, t) => els.length === 1 && els[0] !== t && t.contains(els[0])"


def _inner_text_locator(page: Page, snap: PageSnapshot, n: Node, handle: ElementHandle,
                        said: str | None, told: str | None = None) -> Locator | None:
    """A clickable element nothing names but a text inside it (an SVG node of a diagram, a <g> holding a <text>, a
    card whose title and summary sit in elements of their own): that text, which a click reaches it through. The
    element's whole text first, then the words the step named it by, then the texts of what it holds."""
    if not (n.operable and n.children and n.text and len(n.text) <= 120):
        return None
    texts = [" ".join(n.text.split())]
    found = words_pattern(said).search(n.text) if said and said.split() else None
    if found:
        texts.append(found.group(0))
    stack = list(reversed(n.children))
    while stack and len(texts) < 8:
        inner = snap.nodes[stack.pop()]
        if inner.text and inner.text not in texts and len(inner.text) <= 120:
            texts.append(" ".join(inner.text.split()))
        stack.extend(reversed(inner.children))
    for text in texts:
        loc = Locator(strategy="text", value=text, frames=list(n.frame))
        if not lasting(loc, told):
            continue
        try:
            if resolve(page, loc).evaluate_all(_INSIDE_TARGET_JS, handle):
                return loc
        except Exception:
            continue
    return None


class NoStableLocator(RuntimeError):
    """No locator that names the element (not its position) finds it, and it alone."""


def best_locator(
    page: Page, snap: PageSnapshot, node_id: int, anchored: bool = False, avoid: Collection[str] = (),
    said: str | None = None, sentence: str | None = None,
) -> Locator:
    """The first locator candidate that resolves to exactly this node's element; XPath otherwise.

    anchored: for a value check; the locator comes from the element's label, never from its content.
    avoid: strategies that failed this operation's replay before; the next one in the order is used.
    said: the words the step named the element by (see candidate_locators).
    sentence: the step's whole sentence: a date, time or count it names may name the element or its row (lasting).
    """
    told = " ".join(t for t in (said, sentence) if t)
    n = snap.nodes[node_id]
    handle = element_handle(page, snap, node_id)
    try:
        seen: set[tuple[str, str, str | None]] = set()
        row_tried = not (n.operable and n.children and not anchored and "css" not in avoid)
        for loc in candidate_locators(n, anchored, said):
            if not row_tried and loc.strategy in ("role", "text") and loc.exact:
                row_tried = True  # a clickable container: one of its own texts names it better than all of them
                row = _row_locator(page, n, handle, told)
                if row is not None:
                    return row
            key = (loc.strategy, loc.value, loc.role)
            if key in seen or loc.strategy in avoid or not lasting(loc, told):
                continue
            seen.add(key)
            if _is_target(page, loc, handle):
                return loc
        if anchored and not n.shadow:
            labelled = handle.evaluate(_ANCHORED_XPATH_JS)
            if labelled:
                loc = Locator(strategy="xpath", value=labelled, frames=list(n.frame))
                if _is_target(page, loc, handle):
                    return loc
        scoped = _scoped_locator(page, n, handle, avoid, anchored, told)
        if scoped is not None:
            return scoped
        ordinal = _ordinal_locator(page, n, handle, avoid, told)
        if ordinal is not None:
            return ordinal
        inner = _inner_text_locator(page, snap, n, handle, said, told)
        if inner is not None:
            return inner
        if n.shadow:
            try:
                css = Locator(strategy="css", value=handle.evaluate(_SHADOW_CSS_JS), frames=list(n.frame))
                if _is_target(page, css, handle):
                    return css
            except Exception:
                pass
        if n.focused:
            # a field nothing names that the click before focused (a grid's cell turned into a field): the focus
            focus = Locator(strategy="css", value="*:focus", frames=list(n.frame))
            if _is_target(page, focus, handle):
                return focus
        # A position-only path (/html[1]/body[1]/table[1]/tr[3]/td[1]/a[1]) breaks with the next row added.
        raise NoStableLocator(f"nothing that names the <{n.tag}> finds it (its text, label, role, or the row it "
                              f"sits in, leaving out dates, times and counts that read otherwise tomorrow); only its "
                              f"position in the document would")
    finally:
        handle.dispose()
