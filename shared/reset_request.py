"""A project's reset request: the HTTP call made before each scenario to put a stateful application back in a
known state, as the command line's `--reset-command` does with a shell command.

Before each scenario the agent and the suite's replays run one reset *command*; a reset request is carried as the
command that makes it (`reset_command(url, policy)`): `python -m shared.reset_request <url> --policy <json>`. So
the request goes wherever a reset command goes (generation, every replay, the batch's suite) with nothing new to
plumb, and it is made through the egress guard under the project's target policy: it reaches only the addresses
base_url may reach, follows no redirect and sends no ambient credentials. A 2xx answer is a reset; anything else
fails the scenario with the status (the reset command's failure names it).
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import shlex
import sys

import httpx

from shared.egress import guarded
from shared.urls import TargetPolicy, UnsafeTargetError

TIMEOUT_S = 30.0  # the reset's own time limit (the caller's reset_timeout_s bounds the whole command too)
USER_AGENT = "stepforge-reset/1"


class LabelledReset(str):
    """A reset command that a failure names by `label`, never by its text: the text of an operator's command may
    hold a secret, and a reset request's command holds the worker's paths and the cluster's networks. The end of
    its output is shown only with `show_output` (a reset request's is one line of ours)."""

    label: str
    show_output: bool

    def __new__(cls, command: str, label: str, show_output: bool = False) -> LabelledReset:
        made = super().__new__(cls, command)
        made.label, made.show_output = label, show_output
        return made


def reset_command(url: str, policy: TargetPolicy) -> LabelledReset:
    """The shell command that POSTs to url under policy (see the module's doc)."""
    rules = {"allow_private": policy.allow_private, "refused_networks": [str(n) for n in policy.refused_networks]}
    command = shlex.join([sys.executable, "-m", "shared.reset_request", url, "--policy", json.dumps(rules)])
    return LabelledReset(command, f"the reset request to {url}", show_output=True)


def post_reset(url: str, policy: TargetPolicy, timeout_s: float = TIMEOUT_S) -> str | None:
    """POST to url through the egress guard; None on a 2xx answer, else why not (one line)."""
    try:
        policy.check_url(url)
    except UnsafeTargetError as error:
        return f"the reset request's URL is refused: {str(error).removeprefix(f'{url!r}: ')}"
    with guarded(policy) as guard:
        try:
            with httpx.Client(timeout=timeout_s, follow_redirects=False, trust_env=False, proxy=guard.url) as client:
                response = client.post(url, headers={"user-agent": USER_AGENT})
        except httpx.HTTPError as error:
            refused = guard.refused or guard.unreachable
            return f"the reset request to {url} failed: {refused[0] if refused else type(error).__name__}"
    if 200 <= response.status_code < 300:
        return None
    return f"the reset request to {url} answered HTTP {response.status_code}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m shared.reset_request", description="POST a reset request")
    parser.add_argument("url")
    parser.add_argument("--policy", default="{}", help='{"allow_private": bool, "refused_networks": [cidr, ...]}')
    args = parser.parse_args(argv)
    rules = json.loads(args.policy)
    policy = TargetPolicy(bool(rules.get("allow_private")),
                          tuple(ipaddress.ip_network(n) for n in rules.get("refused_networks", ())))
    problem = post_reset(args.url, policy)
    if problem is not None:
        print(problem)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
