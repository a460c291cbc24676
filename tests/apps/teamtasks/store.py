"""Teamtasks' data: one in-memory store per process, restored to its seed by reset()."""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass, field

USERS = {"alice@example.com": ("wonderland", "Alice"), "bob@example.com": ("builder", "Bob")}
PEOPLE = ["Alice Liddell", "Bob Builder", "Carol Danvers", "Dave Grohl", "Erin Brockovich", "Frank Ocean"]
SEED_TASKS = [
    ("Write the quarterly report", "Alice Liddell"),
    ("Water the plants", "Bob Builder"),
    ("Book the team dinner", "Carol Danvers"),
    ("Renew the SSL certificate", "Dave Grohl"),
]
# An export job takes this long on the server (longer than any check waits: "Wait until ..." is needed).
EXPORT_SECONDS = 5.0
SEED_ACTIVITY = ["Alice closed Fix the login page", "Bob commented on Water the plants",
                 "Carol created Book the team dinner"]


@dataclass
class Task:
    id: int
    title: str
    assignee: str
    done: bool = False
    starred: bool = False
    urgent: bool = False
    attachments: list[str] = field(default_factory=list)

    def as_json(self) -> dict:
        return {"id": self.id, "title": self.title, "assignee": self.assignee, "done": self.done,
                "starred": self.starred, "urgent": self.urgent, "attachments": list(self.attachments)}


@dataclass
class Store:
    tasks: dict[int, Task] = field(default_factory=dict)
    next_id: int = 1
    tokens: dict[str, str] = field(default_factory=dict)  # token -> user's name
    activity: list[str] = field(default_factory=list)
    profile: dict[str, str] = field(default_factory=dict)
    exports: dict[int, float] = field(default_factory=dict)  # export job id -> when it was started (monotonic)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, title: str, assignee: str, urgent: bool = False) -> Task:
        task = Task(self.next_id, title, assignee, urgent=urgent)
        self.tasks[task.id] = task
        self.next_id += 1
        return task

    def sign_in(self, email: str, password: str) -> tuple[str, str] | None:
        known = USERS.get(email.strip().lower())
        if known is None or known[0] != password:
            return None
        token = secrets.token_urlsafe(16)
        self.tokens[token] = known[1]
        return token, known[1]


store = Store()


def reset() -> None:
    with store.lock:
        store.tasks.clear()
        store.next_id = 1
        store.tokens.clear()
        store.profile.clear()
        store.exports.clear()
        store.activity[:] = SEED_ACTIVITY
        for title, assignee in SEED_TASKS:
            store.add(title, assignee)
