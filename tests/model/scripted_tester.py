"""A test's script for the scripted model server, written as the answers a tester model would give.

    tester = ScriptedTester({"Finding owners": {
        1: [act("click", "Find Owners")],
        2: [act("fill", "Last name", "Davis"), act("click", "Find Owner", done=True, texts=["Betty Davis"])],
    }})
    server.respond_with(tester)

Next-action requests: the script of the prompt's test case (by title); the answer is its entry for the
CURRENT step of the prompt, indexed by
how many actions of that step the prompt's history already holds (failed ones included, so a script
can make a wrong move first and its correction second). A step without entries is answered "done".

Step-writing requests (abstraction): the builtin proposal of the prompt, given back as it is.

Grounding requests (HTE and Set-of-Mark): the tester picks the numbered choice whose description names
the target phrase of the prompt (a quoted exact name first), the way a model reading the crops would;
`wrong_first` names targets for which it first picks another choice, once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .fake_openai import prompt_text, reply, schema_name

_CURRENT = re.compile(r"^\s*(\d+)\. \[CURRENT\]", re.MULTILINE)


def act(kind: str, target: str = "", value: str = "", *, done: bool = False, texts: tuple[str, ...] | list[str] = (),
        values: dict[str, str] | None = None) -> dict[str, Any]:
    """One next-action answer: an operation, and with done=True the step's assertions."""
    assertions = [{"kind": "text", "target": "", "value": t} for t in texts]
    assertions += [{"kind": "value", "target": k, "value": v} for k, v in (values or {}).items()]
    return {
        "page": "the page of the screenshot",
        "progress": [],
        "action": {"kind": kind, "target": target, "value": value, "description": ""},
        "step_done": done,
        "assertions": assertions,
        "verdict": {"status": "continue", "kind": "none", "reason": ""},
    }


def verdict(kind: str, reason: str) -> dict[str, Any]:
    answer = act("none")
    answer["verdict"] = {"status": "failed", "kind": kind, "reason": reason}
    return answer


@dataclass
class ScriptedTester:
    scripts: dict[str, dict[int, list[dict[str, Any]]]]  # test case title -> step number -> answers
    wrong_first: set[str] = field(default_factory=set)
    calls: dict[str, int] = field(default_factory=dict)  # requests answered, per schema name

    def __call__(self, body: dict[str, Any]) -> dict:
        name = schema_name(body) or _schema_in_text(prompt_text(body))
        self.calls[name] = self.calls.get(name, 0) + 1
        text = prompt_text(body)
        if name == "next_action":
            return reply(self.next_action(text), prompt_tokens=len(text) // 4, completion_tokens=60)
        if name == "step_writing":
            return reply(self.write_steps(text), prompt_tokens=len(text) // 4, completion_tokens=40)
        return reply(self.choose(text), prompt_tokens=len(text) // 4, completion_tokens=20)

    def next_action(self, text: str) -> dict[str, Any]:
        match = _CURRENT.search(text)
        if match is None:
            return verdict("action", "no current step")
        step = int(match[1])
        title = re.search(r"following test case: (.+)$", text, re.MULTILINE)
        script = self.scripts.get(title[1].strip() if title else "", {}).get(step, [])
        history = text.split("Previous actions:", 1)[1].split("Current page:", 1)[0]
        done = [line for line in history.splitlines() if f"(step {step}) " in line and f"(step {step}) Verify" not in line]
        if len(done) < len(script):
            return script[len(done)]
        return act("none", done=True)

    def write_steps(self, text: str) -> dict[str, Any]:
        """The abstraction request: the builtin proposal given back, each step text prefixed by `wording`."""
        steps = []
        for m in re.finditer(r"^step \d+ \((?:When|Then)\): operations? (\d+)(?:-(\d+))?(?: KEEP[^:]*)?: (.*)$",
                             text, re.MULTILINE):
            first, last = int(m[1]), int(m[2] or m[1])
            steps.append({"operations": list(range(first, last + 1)), "text": m[3]})
        renames = re.search(r"^parameters: (.*)$", text, re.MULTILINE)
        pairs = [] if not renames or renames[1] == "(none)" else [p.split(" -> ") for p in renames[1].split(", ")]
        return {"steps": steps, "parameters": [{"current": a, "name": b} for a, b in pairs]}

    def choose(self, text: str) -> dict[str, Any]:
        target = _target(text)
        options = _numbered(text)
        wanted = target.lower()
        exact = [n for n, summary in options if wanted and f'"{wanted}"' in summary.lower()]
        ranked = exact + [n for n, summary in options if wanted and wanted in summary.lower() and n not in exact]
        if target in self.wrong_first:
            self.wrong_first.discard(target)
            others = [n for n, _ in options if n not in ranked]
            ranked = others[:1] + ranked
        return {"choice": ranked[0] if ranked else None, "ranked": ranked, "reason": f"names {target!r}"}


def _schema_in_text(text: str) -> str:
    match = re.search(r"JSON Schema \(([\w-]+)\)", text)
    return match[1] if match else "unknown"


def _target(text: str) -> str:
    match = re.search(r"^Target: (.+)$", text, re.MULTILINE)
    return match[1].strip().strip("'\"") if match else ""


def _numbered(text: str) -> list[tuple[int, str]]:
    return [(int(m[1]), m[2]) for m in re.finditer(r"^\[(\d+)\] (.*)$", text, re.MULTILINE)]
