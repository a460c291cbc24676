"""One settings object, read from STEPFORGE_* environment variables, safe embedded defaults."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, IPvAnyNetwork, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

# The browser asks nothing of the network on its own: no component updates, sync, metrics, crash reports, safe-
# browsing lists, domain reliability beacons, hyperlink pings or DNS prefetching. What it still sends goes to the
# egress guard, which lets the browser's own traffic out nowhere (shared/egress.py). A page's WebRTC may use no UDP
# the proxy does not carry (its STUN requests would go straight to any address), nor may QUIC.
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--metrics-recording-only",
    "--disable-breakpad",
    "--disable-domain-reliability",
    "--disable-client-side-phishing-detection",
    "--safebrowsing-disable-auto-update",
    "--no-pings",
    "--dns-prefetch-disable",
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",  # the headless browser reads this one ...
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",  # ... a headed Chrome this one
    "--disable-quic",
)


HEADLESS_SHELL = "chromium-headless-shell"  # Debian's package and executable of that name


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="STEPFORGE_", extra="ignore")

    def _launched(self, chosen: str | None) -> str:
        """What a headless run launches: the browser chosen for it, else the headless shell beside browser_path,
        else browser_path; a headed run (a person watching) needs the whole browser's window."""
        if chosen:
            return chosen
        if not self.headless:
            return self.browser_path
        shell = Path(self.browser_path).with_name(HEADLESS_SHELL)
        return str(shell) if os.access(shell, os.X_OK) and shell.is_file() else self.browser_path

    @property
    def generation_browser(self) -> str:
        """The executable generation's browser sessions launch (see _launched)."""
        return self._launched(self.generation_browser_path)

    @property
    def replay_browser(self) -> str:
        """The executable replays launch (see _launched)."""
        return self._launched(self.replay_browser_path)

    browser_path: str = "/usr/bin/chromium"
    # The browser the generated suite's replays launch (cucumber-js, Playwright's runner). Unset: the headless shell
    # installed beside browser_path (Debian's chromium-headless-shell: the same engine without the full browser
    # around it, about half the CPU per scenario, so replays side by side scale with the cores), else browser_path.
    replay_browser_path: str | None = None
    # The browser generation drives, chosen the same way: unset, the headless shell beside browser_path (half the
    # wall time and CPU of the whole browser per scenario, measured on the real-page tests), else browser_path.
    generation_browser_path: str | None = None
    headless: bool = True
    viewport_width: int = 1280
    viewport_height: int = 800
    action_timeout_ms: int = Field(default=5_000, ge=100)
    navigation_timeout_ms: int = Field(default=15_000, ge=100)
    # How long an expected text may take to appear before the step fails.
    assertion_timeout_ms: int = Field(default=3_000, ge=100)
    # After an operation the page settles: any navigation loaded, then no fetch/XHR in flight and no DOM change
    # for the quiet window; at most settle_timeout_ms. Grounding that finds nothing looks again after each change
    # of the page until action_timeout_ms.
    settle_timeout_ms: int = Field(default=2_000, ge=0)
    settle_quiet_ms: int = Field(default=50, ge=0)
    # A request to a host outside the application's (a CDN, fonts, analytics) that has not answered within this
    # is aborted, and its host is cut off for the rest of the run: a stalled stylesheet must not stall every
    # page. 0 turns it off. Listed in run.json and report.json.
    third_party_timeout_ms: int = Field(default=2_000, ge=0)
    # Each generation attempt's Playwright trace (trace.zip) holds every action with the page's DOM before and after
    # it. Its filmstrip (a screenshot of every frame the page paints) repeats the picture kept after each operation
    # and costs about a quarter of a scenario's CPU (screencast frames encoded as it runs): off unless asked for.
    trace_screenshots: bool = False
    replay_timeout_s: float = Field(default=120.0, gt=0)
    # Replays run in cucumber-js kept resident in each worker process (workers/agent/verify/resident.py) rather than
    # in a new cucumber-js each: no node, cucumber-js and playwright-core start per replay. False: a new one each time.
    resident_replay: bool = True
    reset_timeout_s: float = Field(default=30.0, gt=0)
    # Generate, replay, and on a red replay generate again: at most this many attempts.
    max_attempts: int = Field(default=3, ge=1, le=10)
    max_operations: int = Field(default=60, ge=1)
    # A step whose operations left a word of its sentence unused (workers/agent/reading/coverage.py): "fail" ends the
    # scenario there with the words not used (a step never passes on part of its sentence); "report" only records them
    # in the run record and lets the step pass (to measure how much a reading leaves out, never for a suite kept).
    partial_readings: Literal["fail", "report"] = "fail"
    # How the builtin brain reads a sentence: "rules" reads it by the phrase rules (brains/grammar.py, checks.py) and an
    # expected result they refuse by the claims grammar (reading/claims.py); "grammar" reads an action sentence by the
    # commands grammar (reading/commands.py) and a check or an expected result by the claims grammar first, and by the
    # rules only what the grammars do not read whole. The grammars become the default once the corpus measures them
    # better.
    expected_reader: Literal["rules", "grammar"] = "rules"
    # Each worker process's browser pool: a fresh Chromium after this many jobs, or when the browser's whole
    # process tree (main, renderers, GPU...) holds more than this much memory (PSS, else RSS) after a job.
    pool_max_jobs: int = Field(default=50, ge=1)
    pool_max_rss_mb: int = Field(default=1500, ge=1)
    artifacts_dir: Path = Path("artifacts")
    # Files a scenario uploads ("Upload notes.txt as the Attachment"); the CLI uses the files/ folder beside the
    # scenarios file, and the suite ships a copy of each file it uploads in its own files/ folder.
    files_dir: Path = Path("files")
    # How long "Wait until 'X' is shown / disappears" may wait before the step fails.
    wait_timeout_ms: int = Field(default=15_000, ge=100)
    # Where the cucumber-js and playwright-core packages used for replay are installed once.
    node_runtime_dir: Path = Path.home() / ".cache" / "stepforge" / "node"
    # Loopback and private targets are what a laptop tests; the service turns this off.
    allow_private_targets: bool = True
    # Networks no browser or HTTP client of stepforge may reach, whatever allow_private_targets says (the
    # cluster's own service network, a database subnet): a JSON list, e.g. '["10.96.0.0/12", "fd00:1::/64"]'.
    # Cloud metadata endpoints are always refused (shared/urls.py CLOUD_METADATA).
    refused_networks: tuple[IPvAnyNetwork, ...] = ()
    # The step registry: a service URL (workers, shared across machines), else an embedded SQLite file.
    registry_url: str | None = None
    registry_token: SecretStr | None = None
    registry_timeout_s: float = Field(default=5.0, gt=0)
    database_url: str = f"sqlite:///{Path.home() / '.local' / 'share' / 'stepforge' / 'stepforge.db'}"
    log_json: bool = False

    # --- the brain: "builtin" (rules, offline) or "openai" (a model behind an OpenAI-compatible API) ---
    # Unset: "openai" when a model endpoint is configured, else "builtin".
    brain: Literal["builtin", "openai"] | None = None
    # How the openai brain finds elements: HTE (tree descent over image crops) or Set-of-Mark.
    grounding: Literal["hte", "som"] = "hte"
    model_base_url: str | None = None  # e.g. https://api.openai.com/v1, http://localhost:11434/v1 (Ollama)
    model_api_key: SecretStr | None = None
    model_name: str = "gpt-4o"
    model_timeout_s: float = Field(default=60.0, gt=0)
    model_max_retries: int = Field(default=3, ge=0, le=10)
    # Prices per 1,000 tokens, for the cost figures and the cost budget.
    model_price_input_per_1k: float = Field(default=0.0, ge=0)
    model_price_output_per_1k: float = Field(default=0.0, ge=0)
    # Per job: when either is used up the job ends with a verdict saying so. Unset: no limit.
    model_budget_calls: int | None = Field(default=None, ge=1)
    model_budget_cost: float | None = Field(default=None, gt=0)
    # A folder of the model's exchanges (workers/agent/model/cassette.py): "record" keeps each one there, "replay"
    # answers every request from it with no endpoint (STEPFORGE_MODEL_BASE_URL not needed).
    model_cassette: Path | None = None
    model_cassette_mode: Literal["record", "replay"] = "record"

    # --- artifacts in S3-compatible storage (AWS S3, MinIO); no bucket: the local artifacts_dir ---
    s3_bucket: str | None = None
    s3_endpoint_url: str | None = None  # unset: AWS; compose: http://minio:9000
    # Put in presigned URLs when clients reach S3 by another name than the service does (http://localhost:9000).
    s3_public_endpoint_url: str | None = None
    s3_region: str = "us-east-1"
    # Unset: boto3's own chain (environment, ~/.aws, instance role).
    s3_access_key_id: SecretStr | None = None
    s3_secret_access_key: SecretStr | None = None
    # Keys live under this prefix inside the bucket, so one bucket can hold several deployments.
    s3_prefix: str = ""
    s3_presign_expires_s: int = Field(default=3600, ge=1, le=7 * 24 * 3600)  # S3 refuses more than 7 days
    s3_timeout_s: float = Field(default=10.0, gt=0)  # connect and read timeout of every call
    s3_max_attempts: int = Field(default=3, ge=1, le=10)  # first try included
    s3_create_bucket: bool = True

    @field_validator("s3_endpoint_url", "s3_public_endpoint_url")
    @classmethod
    def _http_endpoint(cls, value: str | None) -> str | None:
        if value is None or value == "":
            return None
        parsed = urlsplit(value)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise ValueError(f"must be an http(s) URL with a host, got {value!r}")
        return value.rstrip("/")

    def chosen_brain(self) -> Literal["builtin", "openai"]:
        if self.brain is not None:
            return self.brain
        return "openai" if self.model_base_url else "builtin"


@lru_cache
def get_settings() -> Settings:
    return Settings()
