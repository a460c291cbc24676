"""Request and response bodies of the service API. Table models (shared/models.py) are never returned as such."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    StrictBool,
    Tag,
    model_validator,
)

from shared.reporting import jira_cloud_site, xray_kind
from shared.scenarios import (
    FEATURE_PATTERN,
    FILLED_TEXT_PATTERN,
    ID_PATTERN,
    ONE_LINE_PATTERN,
    START_MAX,
    STEP_MAX,
    TEXT_MAX,
    TEXT_PATTERN,
    TITLE_MAX,
    Scenario,
    ScenarioStep,
    check_feature_title,
    check_text,
    data_rows_schema,
)

# Every integer that reaches an INTEGER column is bounded here (PostgreSQL int4, and SQLite cannot even bind an
# integer above 2**63 - 1): out of range is a 422 naming the field, never a database error.
INT4_MAX = 2**31 - 1


def _one_line(value: str) -> str:
    return check_text(value, one_line=True)


def _no_whitespace(value: str) -> str:
    _one_line(value)
    if any(char.isspace() for char in value):
        raise ValueError("must not contain whitespace")
    return value


Brain = Literal["builtin", "openai"]
Grounding = Literal["hte", "som"]
SuiteFormat = Literal["cucumber-js", "playwright-bdd"]
StepWriter = Literal["builtin", "model"]
ResetName = Annotated[str, Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9_.-]+$",
                                 description="The name of a reset command the service's operator configured "
                                             "(STEPFORGE_RESET_COMMANDS)")]
FeatureTitle = Annotated[str, Field(min_length=1, max_length=200, json_schema_extra={"pattern": FEATURE_PATTERN},
                                    description="The feature (and .feature file) of scenarios that name none"),
                         AfterValidator(check_feature_title)]
# Stored strings refuse control characters (NUL among them: PostgreSQL cannot store it) at validation.
# "target-url": an http(s) URL whose host resolves to addresses the service may visit (README, "Targets"); the
# API refuses any other with a 422 naming the field.
Url = Annotated[str, Field(min_length=1, max_length=2048, description="An http(s) URL the service may visit",
                           json_schema_extra={"format": "target-url"}),
                AfterValidator(_no_whitespace)]
Name = Annotated[str, Field(min_length=1, max_length=200, json_schema_extra={"pattern": ONE_LINE_PATTERN}),
                 AfterValidator(_one_line)]
def _tag_id(value: str) -> str:
    if not re.fullmatch(ID_PATTERN, value):
        raise ValueError("may hold only letters, digits and _ . : - with at least one letter or digit")
    return value


ExternalId = Annotated[str, Field(min_length=1, max_length=200, json_schema_extra={"pattern": ID_PATTERN},
                                  description="The test-management system's id: letters, digits and _ . : -, with "
                                              "at least one letter or digit"), AfterValidator(_tag_id)]
def _json_integer(value: Any) -> Any:
    """JSON Schema's integer: a number without a fraction (3 or 3.0), never true or "3"."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError("must be an integer")
    return value


Version = Annotated[int, Field(ge=1, le=INT4_MAX), BeforeValidator(_json_integer)]
Hour = Annotated[int, Field(ge=0, le=23), BeforeValidator(_json_integer)]


class ErrorBody(BaseModel):
    detail: str


# --- projects ---------------------------------------------------------------------------------------------------


# A project resets by a request or by a named command: a body never sets both.
ONE_RESET = {"not": {"required": ["reset_url", "reset_command"],
                     "properties": {"reset_url": {"type": "string"}, "reset_command": {"type": "string"}}}}


ReportKind = Literal["testrail", "xray", "xray-server", "xray-cloud"]


# What each kind needs, for JSON Schema (the model's validator says it in words).
REPORT_KIND_NEEDS = {"oneOf": [
    {"properties": {"kind": {"const": "testrail"}, "run_id": {"type": "integer"}, "user": {"type": "string"}},
     "required": ["kind", "run_id", "user"]},
    {"properties": {"kind": {"enum": ["xray", "xray-server"]}}, "required": ["kind"]},
    {"properties": {"kind": {"const": "xray-cloud"}, "secret": {"pattern": ":"}}, "required": ["kind"]},
]}


class ReportTo(BaseModel):
    """Where each finished batch's verdicts are posted (shared/reporting.py). The secret is stored encrypted and
    never returned."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=REPORT_KIND_NEEDS)

    kind: ReportKind = Field(description="testrail (add_results_for_cases to a run), xray-server (Cucumber JSON "
                                         "import, personal access token), xray-cloud (client id and secret), or "
                                         "xray: either, told by the url (Xray Cloud's hosts are *.getxray.app)")
    url: Url = Field(description="The system's address: https://acme.testrail.io, https://jira.acme.com, "
                                 "https://xray.cloud.getxray.app")
    secret: Annotated[str, Field(min_length=1, max_length=4096, json_schema_extra={"pattern": "^[ -~]+$"},
                                 description="Write-only. TestRail: the user's API key; xray-server: a personal "
                                             "access token; xray-cloud: <client_id>:<client_secret>"),
                      AfterValidator(_one_line)]
    run_id: int | None = Field(default=None, ge=1, le=2**31 - 1, description="TestRail: the test run (R<id>)")
    user: Name | None = Field(default=None, description="TestRail: the user (e-mail) the API key belongs to")

    @model_validator(mode="after")
    def _what_each_kind_needs(self) -> ReportTo:
        if self.kind == "xray":
            self.kind = xray_kind(str(self.url))
        if self.kind == "xray-server" and jira_cloud_site(self.url):
            raise ValueError("a Jira Cloud site takes no Xray results itself: Xray Cloud does, at "
                             "https://xray.cloud.getxray.app (kind xray or xray-cloud, secret "
                             "<client_id>:<client_secret>)")
        if self.kind == "testrail" and (self.run_id is None or not self.user):
            raise ValueError("a testrail report_to needs run_id (the test run) and user (the API key's user)")
        if not self.secret.isascii() or not self.secret.isprintable():
            raise ValueError("a report_to's secret is printable ASCII (an API key or token)")
        if self.kind == "xray-cloud" and ":" not in self.secret:
            raise ValueError("an xray-cloud report_to's secret is <client_id>:<client_secret>")
        return self


class ReportToPublic(BaseModel):
    kind: str
    url: str
    run_id: int | None = None
    user: str | None = None


class ProjectCreate(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra=ONE_RESET)

    name: Name
    base_url: Url = Field(description="The application under test, e.g. https://staging.example.com")
    default_brain: Brain = "builtin"
    default_grounding: Grounding = "hte"
    default_feature: FeatureTitle | None = Field(default=None, description="Default: named after the project")
    default_format: SuiteFormat = Field(default="cucumber-js", description="The project a batch's suite.zip holds")
    default_step_writer: StepWriter | None = Field(default=None, description="Who groups and words the steps; "
                                                                             "default: model with the openai "
                                                                             "brain, else builtin")
    reset_url: Url | None = Field(default=None, description="POSTed before each scenario to reset the "
                                                            "application (a 2xx answer is a reset)")
    reset_command: ResetName | None = Field(default=None, description="One of the operator's reset commands "
                                                                      "(STEPFORGE_RESET_COMMANDS), by name: only "
                                                                      "the admin token creates projects")
    webhook_url: Url | None = Field(default=None, description="Receives batch.completed events (Standard Webhooks)")
    report_to: ReportTo | None = Field(default=None, description="Where each finished batch's verdicts are posted")
    nightly_hour_utc: Hour | None = Field(default=None,
                                         description="Regenerate the whole suite every night at this hour (UTC)")


class ProjectUpdate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # Optional but never null (the document says so: leave a field out to keep it).
    name: Name = None  # type: ignore[assignment]
    base_url: Url = None  # type: ignore[assignment]
    default_brain: Brain = None  # type: ignore[assignment]
    default_grounding: Grounding = None  # type: ignore[assignment]
    default_feature: FeatureTitle | None = Field(default=None, description="null: named after the project")
    default_format: SuiteFormat = None  # type: ignore[assignment]
    default_step_writer: StepWriter | None = Field(default=None, description="null: model with the openai brain, "
                                                                             "else builtin")
    reset_url: Url | None = Field(default=None, description="Replaces a reset command; null: no reset request. "
                                                            "A named reset command is set only when the project "
                                                            "is created (the operator's admin token)")
    webhook_url: Url | None = Field(default=None, description="Setting it (even to the same URL) re-enables a webhook "
                                                               "disabled by an HTTP 410 from the receiver")
    nightly_hour_utc: Hour | None = None
    report_to: ReportTo | None = Field(default=None, description="Setting it (even to the same target) re-enables "
                                                                 "reporting disabled after repeated 4xx; null: "
                                                                 "report nowhere")
    rotate_webhook_secret: StrictBool = Field(default=False, description="Issue a new webhook secret (returned once)")


class ProjectPublic(BaseModel):
    id: int
    name: str
    base_url: str
    default_brain: str
    default_grounding: str
    default_feature: str | None
    default_format: str
    default_step_writer: str | None
    reset_url: str | None
    reset_command: str | None
    webhook_url: str | None
    webhook_disabled_at: datetime | None = Field(
        default=None, description="Set when the receiver answered HTTP 410 Gone: no webhook is sent until webhook_url is "
                                  "set again with PATCH /v1/projects/me")
    webhook_disabled_reason: str | None = None
    report_to: ReportToPublic | None = Field(default=None, description="Its target; the secret is never returned")
    report_disabled_at: datetime | None = Field(default=None, description="Set after repeated answers 4xx: nothing "
                                                                          "is posted until report_to is set again")
    report_disabled_reason: str | None = None
    nightly_hour_utc: int | None
    created_at: datetime


class ProjectCreated(BaseModel):
    project: ProjectPublic
    api_key: str = Field(description="Shown once: only its hash is stored. Send as Authorization: Bearer <api_key>")
    webhook_secret: str = Field(description="whsec_...: verifies the webhook signatures; shown once")


class ProjectUpdated(BaseModel):
    project: ProjectPublic
    webhook_secret: str | None = Field(default=None, description="The new secret, when rotate_webhook_secret was set")


# --- scenarios --------------------------------------------------------------------------------------------------


def _step_kind(value: Any) -> str:
    return "sentence" if isinstance(value, str) else "pair"


# A sentence, or an {action, expected} pair; one error for a bad step, not one per alternative.
Sentence = Annotated[str, Field(min_length=1, max_length=STEP_MAX, json_schema_extra={"pattern": FILLED_TEXT_PATTERN})]
Step = Annotated[Annotated[Sentence, Tag("sentence")] | Annotated[ScenarioStep, Tag("pair")], Discriminator(_step_kind)]


# A scenario has steps or a text, never both (the document says so too).
STEPS_OR_TEXT = {"oneOf": [
    {"required": ["steps"], "properties": {"steps": {"minItems": 1}, "text": {"type": "null"}}},
    {"required": ["text"], "properties": {"text": {"type": "string", "pattern": FILLED_TEXT_PATTERN},
                                          "steps": {"maxItems": 0}}},
]}


class ScenarioBody(BaseModel):
    """A scenario as in a scenarios file, without its id (the path gives it)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=STEPS_OR_TEXT)

    title: str = Field(min_length=1, max_length=TITLE_MAX, json_schema_extra={"pattern": TEXT_PATTERN})
    start: str = Field(default="/", max_length=START_MAX, json_schema_extra={"pattern": TEXT_PATTERN})
    steps: list[Step] = Field(default_factory=list, description="Sentences or {action, expected}")
    text: str | None = Field(default=None, max_length=TEXT_MAX, description="Free text instead of steps",
                             json_schema_extra={"pattern": TEXT_PATTERN})
    data: list[dict[str, Any]] = Field(default_factory=list, description="Rows of the Examples table",
                                       json_schema_extra=data_rows_schema)


class ScenarioPublic(BaseModel):
    external_id: str
    version: int
    created: bool = Field(description="False when the definition was unchanged (no new version)")
    definition: dict


class StoredScenario(BaseModel):
    external_id: str
    version: int = Field(description="The version shown: the latest unless one was asked for")
    latest_version: int
    created_at: datetime = Field(description="When this version was stored")
    definition: dict = Field(description="The scenario as it was given (title, steps or text, data, ...)")


class ScenarioPage(BaseModel):
    scenarios: list[StoredScenario] = Field(description="Latest versions, in natural order of their ids "
                                                        "(OWN-2 before OWN-10); deleted scenarios are left out")
    next: str | None = Field(description="The next page's URL (its `after` is this page's last id), or null")


class InlineScenario(Scenario):
    """A scenario given in full: upserted (versioned) before the batch is made."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=STEPS_OR_TEXT)


class ScenarioRef(BaseModel):
    """A scenario stored before with PUT /v1/scenarios/{external_id}: its latest version, or the one named."""

    model_config = ConfigDict(extra="forbid")

    external_id: ExternalId
    version: Version | None = None


def _scenario_kind(value: Any) -> str:
    if isinstance(value, dict):
        return "ref" if "external_id" in value else "inline"
    return "ref" if isinstance(value, ScenarioRef) else "inline"


BatchScenario = Annotated[
    Annotated[ScenarioRef, Tag("ref")] | Annotated[InlineScenario, Tag("inline")],
    Discriminator(_scenario_kind),
]


class SuiteChoices(BaseModel):
    """What a batch chooses of its run and its suite; each left out is the project's."""

    model_config = ConfigDict(extra="forbid")

    base_url: Url | None = Field(default=None, description="Default: the project's base_url")
    brain: Brain | None = None
    grounding: Grounding | None = None
    feature: FeatureTitle | None = Field(default=None, description="Default: the project's default_feature")
    format: SuiteFormat | None = Field(default=None, description="The project suite.zip holds: cucumber-js, or "
                                                                 "playwright-bdd (Playwright Test); default: the "
                                                                 "project's default_format")
    step_writer: StepWriter | None = Field(default=None, description="Who groups and words the steps; default: "
                                                                     "the project's, else model with the openai "
                                                                     "brain, else builtin")


ImportFormat = Literal["testrail-csv", "testrail-json", "xray-json", "xray-csv", "zephyr-json"]
IMPORT_MAX = 2 * 1024 * 1024


class ImportSource(BaseModel):
    """A test-management export whose cases become the batch's scenarios (see shared/importers)."""

    model_config = ConfigDict(extra="forbid")

    format: ImportFormat = Field(description="testrail-csv (Test Cases > Export > CSV), testrail-json (get_cases), "
                                             "xray-json, xray-csv, zephyr-json")
    content: str = Field(min_length=1, max_length=IMPORT_MAX, description="The export's text, as exported")


SCENARIOS_OR_SOURCE = {"oneOf": [
    {"required": ["scenarios"], "properties": {"scenarios": {"minItems": 1}, "source": {"type": "null"}}},
    {"required": ["source"], "properties": {"source": {"type": "object"}, "scenarios": {"maxItems": 0}}},
]}


class BatchCreate(SuiteChoices):
    model_config = ConfigDict(extra="forbid", json_schema_extra=SCENARIOS_OR_SOURCE)

    scenarios: list[BatchScenario] = Field(default_factory=list, description="Inline scenarios ({id, title, "
                                                                              "steps...}) or references "
                                                                              "({external_id, version?})")
    source: ImportSource | None = Field(default=None, description="Instead of scenarios: an export of test cases "
                                                                  "from TestRail, Xray or Zephyr Scale")

    @model_validator(mode="after")
    def _scenarios_or_source(self) -> BatchCreate:
        if bool(self.scenarios) == (self.source is not None):
            raise ValueError("give either 'scenarios' (a non-empty list) or 'source' (an export), not both")
        return self


class ImportSkipped(BaseModel):
    case: str
    where: str = Field(description="Where the case is in the export: its line, or its place in the JSON")
    reason: str


class ImportSummary(BaseModel):
    format: str
    imported: int
    skipped: list[ImportSkipped] = Field(description="Cases that could not become scenarios, and why")
    notes: list[str] = Field(description="What the mapping left out (a precondition that states a fact)")


class RegenerateRequest(SuiteChoices):
    """The whole suite regenerated; the same choices as a batch."""


# --- batches ----------------------------------------------------------------------------------------------------


class Links(BaseModel):
    batch: str
    suite: str
    changes: str
    webhooks: str


class BatchAccepted(BaseModel):
    id: int
    kind: str = Field(description="on_demand (POST /v1/batches), regenerate, or nightly")
    state: str
    jobs_total: int
    idempotency_key: str
    links: Links
    imported: ImportSummary | None = Field(default=None, description="A batch made from an export: what was "
                                                                     "imported and what was skipped")


class JobVerdict(BaseModel):
    failed_step: int | None = Field(default=None, description="1-based scenario step that failed")
    kind: str | None = Field(default=None, description="action | expectation | unsupported | error")
    reason: str | None = None


class JobView(BaseModel):
    id: int
    external_id: str
    scenario_version: int
    state: str
    attempt: int = Field(description="How many times a worker claimed the job")
    verdict: JobVerdict | None = None
    generation_attempts: int | None = None
    timings: dict | None = None
    model_usage: dict | None = None
    triage: str | None = Field(default=None, description="A regeneration's class for the scenario: passed, flake, "
                                                         "drift, app_changed, broken_environment or generated")
    started_at: datetime | None = None
    finished_at: datetime | None = None


class BatchProgress(BaseModel):
    id: int
    kind: str
    state: str
    base_url: str
    brain: str
    grounding: str
    feature: str = Field(description="The feature of its scenarios that name none")
    format: str = Field(validation_alias="suite_format", description="The project suite.zip holds")
    step_writer: str
    previous_batch_id: int | None = Field(description="The batch the what-changed report compares with: for a full regeneration "
                                                  "(kind regenerate or nightly) the project's latest finished full "
                                                  "regeneration, else (or when there is none) its latest finished "
                                                  "batch of any kind")
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    suite_state: str | None = Field(description="The batch's one suite, once the batch has finished: building (built and "
                                                "replayed as a whole by a worker), ready (suite.zip), empty (no "
                                                "scenario passed), error (it could not be built). The batch's "
                                                "webhook is sent once it is no longer building")
    suite_failed: dict[str, str] | None = Field(description="Scenarios red in the suite's combined replay, id -> "
                                                            "reason (they stay in the suite)")
    counts: dict[str, int] = Field(description="Jobs per state: queued, running, passed, failed, cancelled")
    model_usage: dict[str, float] = Field(description="Model calls, tokens and cost summed over the jobs")
    jobs: list[JobView]
    links: Links


class ArtifactView(BaseModel):
    key: str = Field(description="Relative to the listing's prefix: <scenario>/attempt-<n>/run.json (n: the "
                                 "generation attempt within the run), suite/..., report.json")
    size: int
    url: str = Field(description="A presigned URL (S3), else this API's own URL of the artifact (a local store): "
                                 "never a path on the server")


class ArtifactList(BaseModel):
    batch_id: int
    job_id: int
    prefix: str = Field(description="The store folder listed: projects/<p>/batches/<b>/jobs/<j>/attempts/<n>/, n being "
                                    "the claim of the job that finished it (the latest claim while it runs)")
    artifacts: list[ArtifactView]


class VerdictChange(BaseModel):
    external_id: str
    before: dict
    after: dict


class LocatorChange(BaseModel):
    external_id: str
    step: str
    before: list[str]
    after: list[str]


class DriftView(BaseModel):
    step: int = Field(description="1-based scenario step whose element was found again under a new locator")
    operation: int
    description: str
    before: str
    after: str
    screenshot: str | None = Field(description="The element as the new locator finds it (an artifact URL)")


class AppChangeView(BaseModel):
    step: int | None = Field(description="1-based scenario step where the scenario stops")
    kind: str = Field(description="expectation (an assertion no longer holds) or action (its element is gone)")
    description: str
    expected: str | None
    actual: str | None
    reason: str
    screenshot: str | None = Field(description="The page when it stopped (an artifact URL)")


class CandidateView(BaseModel):
    passed: bool = Field(description="The scenario generated afresh passed: the application still does what the "
                                     "scenario's words say, in another way (accept it if the change was intended). "
                                     "False: the application no longer does it (a bug, or a scenario to change)")
    failed_step: int | None = None
    failure_kind: str | None = None
    reason: str | None = None
    diff: str | None = Field(default=None, description="The unified diff of the verified and the regenerated "
                                                       "script (an artifact URL), when it passed")
    accept: str | None = Field(default=None, description="POST here to make the regenerated script the verified "
                                                         "one, when it passed and is not accepted yet")
    accepted_at: datetime | None = None
    model_calls: int = 0


class TriageView(BaseModel):
    external_id: str
    job_id: int
    triage: str = Field(description="passed, flake, drift, app_changed, broken_environment or generated")
    verdict: dict
    replays: int = Field(description="cucumber-js replays of its verified script (a flake counts its tries)")
    drift: list[DriftView]
    app_change: AppChangeView | None
    candidate: CandidateView | None = Field(default=None, description="app_changed: the scenario generated afresh "
                                                                      "beside its verified script, never applied "
                                                                      "until a person accepts it")


class TriageCost(BaseModel):
    scenarios: int
    model_calls: int = Field(description="Model calls of its jobs: generation, and app_changed scenarios' candidates")
    seconds: float = Field(description="Its jobs' own seconds (replays, walks, generation), summed")


class Flakiness(BaseModel):
    external_id: str
    flakes: int = Field(description="Regenerations, up to this batch, in which the scenario was a flake")
    regenerations: int = Field(description="Regenerations, up to this batch, that replayed its verified script")


class AcceptedScript(BaseModel):
    batch_id: int
    job_id: int
    external_id: str
    accepted_at: datetime
    diff: str = Field(description="The unified diff of the script it replaces and the accepted one")
    suite_state: str | None = Field(description="The batch's suite, built again with the accepted script (building, "
                                                "then ready)")


class Changes(BaseModel):
    batch_id: int
    previous_batch_id: int | None = Field(description="For a full regeneration (kind regenerate or nightly) the "
                                                  "project's latest finished full regeneration, else (or when there "
                                                  "is none) its latest finished batch of any kind: the batch "
                                                  "`removed` counts from")
    verdicts: list[VerdictChange] = Field(description="Scenarios whose verdict differs from their latest earlier "
                                                      "job's, whatever batch ran it")
    locators: list[LocatorChange] = Field(description="Steps whose locators differ from the scenario's latest "
                                                      "verified script")
    triage: dict[str, int] = Field(description="A regeneration's scenarios per triage class")
    triaged: list[TriageView] = Field(description="A regeneration's scenarios, each with what its triage found")
    cost: dict[str, TriageCost] = Field(default_factory=dict, description="A regeneration's cost per triage class")
    added: list[str] = Field(description="Scenarios this batch verified that no earlier batch had verified: "
                                         "they joined the suite")
    removed: list[str] = Field(description="Scenarios deleted since the previous batch")
    flakiness: list[Flakiness] = Field(default_factory=list, description="The batch's scenarios that were a flake "
                                                                         "in any regeneration up to this one")


# --- webhooks ---------------------------------------------------------------------------------------------------


class DeliveryView(BaseModel):
    attempt: int
    status: str
    status_code: int | None
    error: str | None
    duration_ms: int
    at: datetime


class EventView(BaseModel):
    id: str
    type: str
    created_at: datetime
    delivered_at: datetime | None
    gave_up_at: datetime | None
    payload: dict
    deliveries: list[DeliveryView]


class WebhookLog(BaseModel):
    batch_id: int
    events: list[EventView]


class RedeliveryAccepted(BaseModel):
    event_id: str
    queued: bool


class Health(BaseModel):
    status: str
    database: str
