"""From what the grammars read to operations: each claim of an expected result (reading/claims.py) becomes one check,
each command of an action sentence (reading/commands.py) one operation, of the kinds in workers/agent/actions.
Anything no operation can hold to raises `Unsupported` naming it, and the brain reads the sentence by its rules.
"""

from __future__ import annotations

from dataclasses import replace

from workers.agent.actions.kinds.assert_page import VAGUE
from workers.agent.actions.kinds.assert_state import OPPOSITE, STATE_WORDS
from workers.agent.actions.kinds.assert_text import MESSAGES
from workers.agent.actions.parts import part_of
from workers.agent.actions.placed import PART_KINDS, placed_role
from workers.agent.language.phrases import Op, Place, Unsupported, split_role
from workers.agent.reading.claims import Claim
from workers.agent.reading.commands import ORDINALS, Command, Where

from .grammar import Macro

# Kinds of part a title heads that a text is checked under (its section); any other kind said with a title is refused
_TITLED_KINDS = frozenset("list section panel box group card area block pane view tree table menu sidebar dialog "
                          "heading header footer toolbar grid modal navigation form".split())


def claim_op(claim: Claim) -> Op:
    """The check of one claim: in the row of its title, under its title, in its column, inside a part of its kind,
    or anywhere on the page; raises `Unsupported` for a place no check can hold it to."""
    if claim.state is not None:  # 'the "Save" button is disabled', 'the "Terms" box is not ticked'
        state = STATE_WORDS[claim.state]
        return Op("assert_state", target=claim.text, role_hint=_control_role(claim.said_as),
                  value=state if claim.shown else OPPOSITE[state], place=_control_place(claim))
    if claim.kind == "part":  # 'the "Login" dialog opens', 'the menu closes'
        part_of(claim.text)  # a part settle.js can find, else Unsupported
        return Op("assert_part_shown" if claim.shown else "assert_part_gone", value=claim.text)
    if claim.kind == "page":  # 'the Roadmap page is shown': the page is the one named
        if VAGUE.fullmatch(claim.text):
            raise Unsupported(f"the {claim.text!r} page names no particular page; name it as its title or heading "
                              "says, e.g. The Roadmap page is shown")
        return Op("assert_page", value=claim.text)
    if claim.kind == "row at":  # 'the first row is "A"': the data row of that order shows the text
        if not claim.shown:
            raise Unsupported("a text gone from one row cannot be checked, only a text gone from the whole page")
        return Op("assert_row_at", value=claim.text, place=Place(ordinal=ORDINALS[claim.place]))
    if claim.kind == "count":  # 'lists two posts: A and B': the list holding B has two records
        return Op("assert_count", target=claim.text, value=claim.place)
    if claim.kind in ("main heading", "title"):  # 'the page heading reads "Roadmap"', 'the page title is "Timeline"'
        return Op("assert_heading" if claim.kind == "main heading" else "assert_title", value=claim.text)
    if claim.kind == "value":  # 'the Priority field shows minor', 'the status is new'
        return Op("assert_value", target=claim.place, role_hint=_control_role(claim.said_as), value=claim.text)
    if claim.near is not None:  # '"Wrong password" is shown above the form'
        if not claim.shown:
            raise Unsupported(f"a text not shown {claim.near} a part cannot be checked, only a text gone from the page")
        return Op(f"assert_{claim.near}", target=claim.place, role_hint=placed_role(claim.kind), value=claim.text)
    if claim.kind == "described":  # 'the status facet shows Open 47': inside the box its class or id words describe
        return Op("assert_inside" if claim.shown else "assert_not_inside", target=claim.place, role_hint="described",
                  value=claim.text)
    check, uncheck = ("assert_text", "assert_absent")
    if claim.place is None and claim.kind is None and claim.said_as in MESSAGES:  # 'the message "Saved" is shown'
        return Op(check if claim.shown else uncheck, role_hint=claim.said_as, value=claim.text)
    if claim.place is None and claim.kind is None and claim.said_as in PART_KINDS - {"field"}:
        # 'the heading "Files" is shown', 'the "Save" button': an element of that kind shows it (a field's name is
        # its label, outside it: no check of a field is read here)
        claim = replace(claim, kind=claim.said_as, said_as=None)
    if claim.place is None and claim.kind is None and claim.shown and claim.said_as in _SHOWN_CONTROLS:
        # 'with a Password field and a "Sign in" button': that control is there, by its name and kind
        return Op("assert_state", target=claim.text, role_hint=split_role(f"x {claim.said_as}")[1], value="visible")
    if claim.place is None and claim.kind is None and claim.shown and claim.said_as \
            and split_role(f"x {claim.said_as}")[1] is None:
        # 'the file "Budget" is listed', 'Ticket #13 is shown': the text shown, and what it is when the page says so
        # (scenario_run.note_what_it_is)
        return Op(check, value=claim.text, said_as=claim.said_as)
    if claim.place is not None and claim.kind in ("row", "column"):
        if not claim.shown:
            raise Unsupported(f"a text gone from one {claim.kind} cannot be checked, only a text gone from the whole "
                              "page")
        return Op(f"assert_in_{claim.kind}", target=claim.place, value=claim.text)
    if claim.place is not None:
        if claim.kind is not None and claim.kind not in _TITLED_KINDS:
            raise Unsupported(f"a text in the {claim.place!r} {claim.kind} cannot be checked, only under a title")
        check, uncheck = ("assert_in_section", "assert_not_in_section")
    elif claim.kind is not None:
        if claim.kind not in PART_KINDS:
            raise Unsupported(f"which {claim.kind} is not said (name it by its title)")
        check, uncheck = ("assert_inside", "assert_not_inside")
    return Op(check if claim.shown else uncheck, target=claim.place, role_hint=claim.kind, value=claim.text)


# the kinds of control a claim may say are there ('a Password field', 'a "Sign in" button')
# (said by the plain word of its kind: a "hyperlink" or a "picker" says more than the role grounding looks for)
_SHOWN_CONTROLS = frozenset({"field", "button", "link", "checkbox", "dropdown", "tab"})


def _control_place(claim: Claim) -> Place:
    """Where a control said in a state is: in the row of a text, under a title, or inside a part said by its kind."""
    if claim.place is None:
        return Place(anchor=claim.kind, part=claim.kind) if claim.kind else Place()
    if claim.kind == "row":
        return Place(anchor=claim.place)
    return Place(section=claim.place, part=claim.kind)


def _control_role(kind: str | None) -> str | None:
    """The role a control said by its kind ('the Terms checkbox', 'the Priority field') is looked for as."""
    if kind is None:
        return None
    role = split_role(f"x {kind}")[1]
    if role is None:
        raise Unsupported(f"a {kind} is no control with a state or a value")
    return role


# Keys a tester presses by name ('Press Enter'); any other name pressed is a button's
_KEYS = frozenset("enter return escape esc tab space backspace delete home end pageup pagedown arrowup arrowdown "
                  "arrowleft arrowright".split())
_CHECK_ROLES = frozenset({"checkbox", "radio", "option"})


def command_op(command: Command) -> Op | Macro:
    """The operation of one command read by the commands grammar (typing with no field said: the macro that types
    into the field in use); raises `Unsupported` for a kind of element no operation looks for."""
    if command.verb == "type_here":
        return Macro("type_here", value=command.value)
    role, said_as = None, command.said_as
    if command.kind == "header" and command.target and command.verb in ("click", "press"):
        role = "header"  # 'Click the "votes" header': a column's header named so (the header alone is the banner)
    elif command.kind is not None and not (command.verb == "select" and command.kind in ("list", "menu")):
        rest, role = split_role(f"x {command.kind}")
        if role is None and command.target and command.kind != "icon" and said_as is None:
            # 'the chip "tiny-logger"', 'the "Budget" card': a kind no role is, said of a named element: what it is
            role, said_as = None, command.kind
        elif role is None or rest != "x" or role == "icon":  # (an icon: its picture, which the rules name)
            raise Unsupported(f"a {command.kind} is no kind of element looked for")
    where = command.where
    place = Place(anchor=where.anchor or where.part, section=where.section, ordinal=command.ordinal,
                  side=where.side, part=where.part or where.kind, corner=where.corner,
                  heads=where.kind if where.part and where.section else None)
    verb = command.verb
    if verb == "press" and role is None and (command.target or "").lower() in _KEYS and where == Where():
        return Op("press", value=command.target)
    if verb in ("press", "click"):
        return Op("click", target=command.target, role_hint=role, place=place, said_as=said_as)
    if verb == "choose":  # 'Select the "Published" radio button': the radio, option or checkbox itself, ticked
        verb = "check"
    if verb in ("check", "uncheck"):
        role = "checkbox" if role in (None, "field") else role
        if role not in _CHECK_ROLES:
            raise Unsupported(f"a {command.kind} is not ticked or unticked")
        return Op(verb, target=command.target, role_hint=role, place=place, said_as=said_as)
    if verb == "clear":
        return Op("clear", target=command.target, role_hint=role or "field", place=place, said_as=said_as)
    if verb == "fill":
        return Op("fill", target=command.target, role_hint=role or "field", value=command.value, place=place,
                  said_as=said_as)
    if verb == "select":  # 'from the Priority list': the list a dropdown opens
        return Op("select", target=command.target, role_hint="dropdown" if role in (None, "field") else role,
                  value=command.value, place=place)
    return Op(verb, target=command.target, role_hint=role, place=place, said_as=said_as)  # hover
