#!/usr/bin/env python3
"""Seeds a fresh Trac environment through Trac's own interfaces.

1. trac-admin (batch mode): project settings, components, milestones, versions,
   priorities, permissions, users' names, wiki pages (`wiki import`).
2. A temporary tracd on a free port with --basic-auth: users log in through
   /login and create/modify tickets by posting Trac's own New Ticket and
   ticket forms.

Usage: seed.py ENV_DIR VENV_BIN HTPASSWD
"""
import base64
import datetime as dt
import html
import http.cookiejar
import os
import re
import shlex
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

ENV, VBIN, HTPASSWD = sys.argv[1:4]
TRAC_ADMIN = os.path.join(VBIN, "trac-admin")
TRACD = os.path.join(VBIN, "tracd")

USERS = {  # user: (password, full name, email)
    "admin": ("admin123", "Site Admin", "admin@lighthouse.test"),
    "alice": ("alice123", "Alice Moreau", "alice@lighthouse.test"),
    "bob": ("bob123", "Bob Tanaka", "bob@lighthouse.test"),
    "carol": ("carol123", "Carol Jensen", "carol@lighthouse.test"),
}

WIKI = {
    "WikiStart": """= Welcome to the Lighthouse project =

Lighthouse is a small photo sharing service: a web site, a backend API and a mobile app.

== Where to start ==
 * ReleaseProcess - how we ship a release
 * TeamContacts - who owns which component
 * [report:1 Active tickets] and the [/roadmap Roadmap]

== House rules ==
 1. Every bug gets a ticket before it gets a fix.
 1. Tickets for the next release need a milestone.
 1. Keep this wiki short and current.
""",
    "ReleaseProcess": """= Release Process =

We ship from the release branch once every ticket of the milestone is closed.

== Checklist ==
 1. Freeze the milestone two days before the due date.
 1. Run the full regression suite on staging.
 1. Update the user manual screenshots.
 1. Tag the release and close the milestone.

''Questions go to the release manager, Alice Moreau.''
""",
    "TeamContacts": """= Team Contacts =

||= Component =||= Owner =||= Backup =||
|| Backend || alice || bob ||
|| Frontend || bob || carol ||
|| Documentation || carol || alice ||
|| Mobile app || bob || alice ||
""",
}

# summary, reporter, type, priority, component, milestone, version, keywords, description
TICKETS = [
    ("Login page rejects valid passwords", "carol", "defect", "critical", "Backend", "1.1 Beta", "1.0",
     "login security", "Users with a correct password sometimes see \"Invalid credentials\" on the login page."),
    ("Add dark mode to the settings page", "alice", "enhancement", "minor", "Frontend", "2.0 Release", "",
     "ui", "Offer a dark colour scheme that users can switch on in their settings."),
    ("Write the installation guide", "alice", "task", "major", "Documentation", "1.1 Beta", "",
     "docs", "Describe how to install Lighthouse on a new server, step by step."),
    ("App crashes when uploading large photos", "bob", "defect", "blocker", "Mobile app", "1.1 Beta", "1.0",
     "upload crash", "Uploading a photo larger than 20 MB closes the app without a message."),
    ("Search results ignore accents", "carol", "defect", "major", "Backend", "2.0 Release", "1.0",
     "search", "Searching for \"cafe\" does not find photos tagged \"caf\u00e9\"."),
    ("Update screenshots in the user manual", "carol", "task", "trivial", "Documentation", "1.0 Alpha", "0.9",
     "docs", "The screenshots still show the old upload dialog."),
    ("Fix typo on the pricing page", "bob", "defect", "minor", "Frontend", "1.0 Alpha", "0.9",
     "", "\"Anual plan\" should read \"Annual plan\"."),
    ("Export albums as ZIP files", "alice", "enhancement", "major", "Backend", "2.0 Release", "",
     "export", "Let users download a whole album as one ZIP file."),
    ("Push notifications arrive twice", "alice", "defect", "critical", "Mobile app", "1.1 Beta", "1.0",
     "notifications", "Every comment notification is delivered two times on Android."),
    ("Remove the legacy Flash uploader", "bob", "task", "minor", "Frontend", "1.0 Alpha", "0.9",
     "cleanup", "The Flash based uploader is no longer used by anyone."),
    ("Translate the onboarding screens", "carol", "task", "major", "Mobile app", "", "",
     "i18n", "The three onboarding screens are English only."),
    ("Password reset email has a broken link", "alice", "defect", "major", "Backend", "1.1 Beta", "1.0",
     "email", "The link in the password reset email points to the staging server."),
]

# ticket id, user, comment, action, action args
CHANGES = [
    (3, "carol", "I will take this one.", "accept", {}),
    (4, "alice", "Bob knows the upload code best.", "reassign", {"action_reassign_reassign_owner": "bob"}),
    (6, "carol", "New screenshots are in the manual.", "resolve", {"action_resolve_resolve_resolution": "fixed"}),
    (7, "bob", "Fixed the spelling.", "resolve", {"action_resolve_resolve_resolution": "fixed"}),
    (10, "bob", "Decided to keep it out of the code base.", "resolve", {"action_resolve_resolve_resolution": "wontfix"}),
    (9, "bob", "I can reproduce this on Android 14 only.", "leave", {}),
    (12, "alice", "The link now uses the public host name.", "resolve", {"action_resolve_resolve_resolution": "fixed"}),
    (1, "alice", "Looks like the password hash is compared with the wrong encoding.", "leave", {}),
]


def admin_batch(commands):
    script = "\n".join(" ".join(shlex.quote(str(a)) for a in c) for c in commands) + "\n"
    res = subprocess.run([TRAC_ADMIN, ENV], input=script, capture_output=True, text=True)
    out = res.stdout + res.stderr
    if res.returncode != 0 or "Error:" in out or "Command failed" in out:
        sys.exit("seed.py: trac-admin failed:\n" + out[-2000:])


def day(offset):
    return (dt.date.today() + dt.timedelta(days=offset)).isoformat()


def seed_admin():
    cmds = [
        ["config", "set", "project", "descr", "Photo sharing service: web, API and mobile app"],
        ["config", "set", "header_logo", "src", "common/trac_banner.png"],
        ["config", "set", "header_logo", "alt", "Lighthouse"],
        ["config", "set", "header_logo", "height", "73"],
        ["config", "set", "header_logo", "width", "236"],
        ["config", "set", "logging", "log_type", "none"],
        ["config", "set", "trac", "use_chunked_encoding", "false"],
        ["config", "set", "ticket", "default_milestone", ""],
        ["config", "set", "ticket", "default_component", ""],
    ]
    for c in ("component1", "component2"):
        cmds.append(["component", "remove", c])
    for name, owner in (("Backend", "alice"), ("Frontend", "bob"), ("Documentation", "carol"),
                        ("Mobile app", "bob")):
        cmds.append(["component", "add", name, owner])
    for m in ("milestone1", "milestone2", "milestone3", "milestone4"):
        cmds.append(["milestone", "remove", m])
    cmds += [
        ["milestone", "add", "1.0 Alpha", day(-20)],
        ["milestone", "add", "1.1 Beta", day(21)],
        ["milestone", "add", "2.0 Release", day(90)],
        ["milestone", "add", "Someday"],
    ]
    for v in ("1.0", "2.0"):
        cmds.append(["version", "remove", v])
    cmds += [["version", "add", "0.9", day(-60)], ["version", "add", "1.0", day(-15)]]
    for perm in ("TICKET_CREATE", "TICKET_MODIFY", "TICKET_ADMIN", "MILESTONE_ADMIN",
                 "WIKI_CREATE", "WIKI_MODIFY", "WIKI_ADMIN", "REPORT_ADMIN"):
        cmds.append(["permission", "add", "anonymous", perm])
    cmds.append(["permission", "add", "admin", "TRAC_ADMIN"])
    cmds.append(["permission", "add", "developer", "TICKET_ADMIN", "MILESTONE_ADMIN"])
    for u in ("alice", "bob", "carol"):
        cmds.append(["permission", "add", u, "developer"])
    for u, (_, name, email) in USERS.items():
        cmds.append(["session", "add", u, name, email])
    admin_batch(cmds)
    # milestone completion after adding: done separately so the date parses
    with tempfile.TemporaryDirectory() as tmp:
        cmds = [["milestone", "completed", "1.0 Alpha", day(-18)]]
        for page, text in WIKI.items():
            path = os.path.join(tmp, page)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            cmds.append(["wiki", "import", page, path])
        admin_batch(cmds)


class Client:
    def __init__(self, base, user):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        pw = USERS[user][0]
        req = urllib.request.Request(base + "/login")
        req.add_header("Authorization", "Basic " + base64.b64encode(f"{user}:{pw}".encode()).decode())
        self.opener.open(req).read()
        if not any(c.name == "trac_auth" for c in self.jar):
            sys.exit(f"seed.py: login as {user} failed")

    def get(self, path):
        return self.opener.open(self.base + path).read().decode("utf-8")

    def post(self, path, fields):
        data = urllib.parse.urlencode(fields).encode()
        resp = self.opener.open(urllib.request.Request(self.base + path, data=data))
        return resp.geturl(), resp.read().decode("utf-8")

    def hidden(self, page, name):
        m = re.search(r'name="%s"\s+value="([^"]*)"' % re.escape(name), page)
        if not m:
            sys.exit(f"seed.py: hidden field {name} not found")
        return html.unescape(m.group(1))


def wait_port(port, timeout=30):
    end = time.time() + timeout
    while time.time() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    sys.exit("seed.py: temporary tracd did not start")


def seed_web():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    proj = os.path.basename(ENV.rstrip("/"))
    proc = subprocess.Popen([TRACD, "--hostname=127.0.0.1", "--port=%d" % port, "--single-env",
                             "--basic-auth=%s,%s,Lighthouse" % (proj, HTPASSWD), ENV],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_port(port)
        base = "http://127.0.0.1:%d" % port
        clients = {}

        def client(u):
            if u not in clients:
                clients[u] = Client(base, u)
            return clients[u]

        for i, (summary, rep, typ, prio, comp, ms, ver, kw, desc) in enumerate(TICKETS, 1):
            c = client(rep)
            page = c.get("/newticket")
            url, _ = c.post("/newticket", {
                "__FORM_TOKEN": c.hidden(page, "__FORM_TOKEN"),
                "field_summary": summary, "field_description": desc, "field_type": typ,
                "field_priority": prio, "field_component": comp, "field_milestone": ms,
                "field_version": ver, "field_keywords": kw, "field_cc": "", "action": "create",
                "submit": "Create ticket",
            })
            if not url.endswith("/ticket/%d" % i):
                sys.exit(f"seed.py: creating ticket {i} failed (ended at {url})")
            time.sleep(0.05)
        for tid, user, comment, action, extra in CHANGES:
            c = client(user)
            page = c.get("/ticket/%d" % tid)
            fields = {
                "__FORM_TOKEN": c.hidden(page, "__FORM_TOKEN"),
                "start_time": c.hidden(page, "start_time"),
                "view_time": c.hidden(page, "view_time"),
                "comment": comment, "action": action, "submit": "Submit changes",
            }
            fields.update(extra)
            url, body = c.post("/ticket/%d" % tid, fields)
            if "/ticket/%d" % tid not in url or 'class="system-message' in body:
                sys.exit(f"seed.py: changing ticket {tid} failed")
            time.sleep(0.05)
    finally:
        proc.terminate()
        proc.wait(10)


if __name__ == "__main__":
    seed_admin()
    seed_web()
