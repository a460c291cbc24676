"""Which brain and which grounding a job uses, and the model client they share.

    builtin: BuiltinBrain + TextGrounder + the builtin step rules (offline, deterministic; the default
             without a model endpoint)
    openai:  ModelBrain + ModelHteGrounder (grounding "hte") or SomGrounder ("som") + ModelStepWriter
             (step grouping, wording and parameter names; the builtin rules when its answer does not
             hold), one ModelClient per job so that its calls, tokens, cost and budget are the job's

The step writer goes with the brain unless chosen apart (a batch's `step_writer`): the builtin brain with the
model writer asks the model only to word the steps.

The choice is made per job: the command line (or a batch) first, then the scenario file's `brain` /
`grounding`, then the project default (STEPFORGE_BRAIN / STEPFORGE_GROUNDING), then `openai` when a
model endpoint is configured, else `builtin`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from shared.scenarios import Scenario
from shared.settings import Settings
from workers.agent.brains.base import Brain
from workers.agent.brains.builtin import BuiltinBrain
from workers.agent.brains.model_brain import ModelBrain
from workers.agent.grounding.base import Grounder, TextGrounder
from workers.agent.model.client import ModelClient
from workers.agent.scripting.model_writer import ModelStepWriter
from workers.agent.scripting.writer import StepWriter

BrainName = Literal["builtin", "openai"]
GroundingName = Literal["hte", "som"]


class AgentChoiceError(ValueError):
    """The chosen brain cannot be used with these settings; the message says what is missing."""


@dataclass
class Agent:
    brain: BrainName = "builtin"
    grounding: GroundingName = "hte"
    client: ModelClient | None = None
    grounder: Grounder = field(default_factory=TextGrounder)
    writer: StepWriter | None = None  # None: the builtin rules name and group the steps
    expected_reader: str = "rules"  # the builtin brain's reading of expected results (Settings.expected_reader)

    def brain_for(self, scenario: Scenario) -> Brain:
        if self.client is None or self.brain == "builtin":  # a client of the builtin brain serves the writer only
            return BuiltinBrain(row=scenario.first_row(), grammar_first=self.expected_reader == "grammar")
        return ModelBrain(self.client, scenario)

    @property
    def grounding_name(self) -> str:
        return self.grounder.name

    def usage(self) -> dict[str, Any]:
        return self.client.usage() if self.client is not None else {}

    def exhausted(self) -> str | None:
        """Why the job may not call the model any more (a budget is used up), or None."""
        return self.client.exhausted() if self.client is not None else None

    def close(self) -> None:
        if self.client is not None:
            self.client.close()


def open_agent(settings: Settings, brain: str | None = None, grounding: str | None = None,
               step_writer: str | None = None) -> Agent:
    """The job's agent: `brain` / `grounding` override the settings when given; `step_writer` ("builtin" or
    "model") who groups and words the steps (None: the model with the openai brain, the builtin rules else)."""
    chosen = brain or settings.chosen_brain()
    if chosen not in ("builtin", "openai"):
        raise AgentChoiceError(f"unknown brain {chosen!r}: use builtin or openai")
    ground = grounding or settings.grounding
    if ground not in ("hte", "som"):
        raise AgentChoiceError(f"unknown grounding {ground!r}: use hte or som")
    writer = step_writer or ("model" if chosen == "openai" else "builtin")
    if writer not in ("builtin", "model"):
        raise AgentChoiceError(f"unknown step writer {writer!r}: use builtin or model")
    if chosen == "builtin" and writer == "builtin":
        return Agent(expected_reader=settings.expected_reader)
    replaying = settings.model_cassette is not None and settings.model_cassette_mode == "replay"
    if not settings.model_base_url and not replaying:
        needs = "the openai brain" if chosen == "openai" else "the model step writer"
        raise AgentChoiceError(f"{needs} needs a model endpoint: set STEPFORGE_MODEL_BASE_URL "
                               "(and STEPFORGE_MODEL_API_KEY, STEPFORGE_MODEL_NAME)")
    cassette = None
    if settings.model_cassette is not None:
        from workers.agent.model.cassette import Cassette

        try:
            cassette = Cassette(settings.model_cassette, settings.model_cassette_mode)
        except ValueError as error:
            raise AgentChoiceError(f"STEPFORGE_MODEL_CASSETTE: {error}") from None
    client = ModelClient(
        settings.model_base_url or "http://cassette.invalid/v1",  # replaying: no endpoint is asked
        settings.model_api_key.get_secret_value() if settings.model_api_key else None,
        settings.model_name,
        timeout_s=settings.model_timeout_s,
        max_retries=settings.model_max_retries,
        price_per_1k_input=settings.model_price_input_per_1k,
        price_per_1k_output=settings.model_price_output_per_1k,
        budget_calls=settings.model_budget_calls,
        budget_cost=settings.model_budget_cost,
        cassette=cassette,
    )
    step_writer_of = ModelStepWriter(client) if writer == "model" else None
    if chosen == "builtin":  # the builtin brain and grounding; only the steps' wording asks the model
        return Agent(client=client, writer=step_writer_of, expected_reader=settings.expected_reader)
    return Agent(brain="openai", grounding=ground, client=client,  # type: ignore[arg-type]
                 grounder=model_grounder(ground, client), writer=step_writer_of)


def model_grounder(grounding: str, client: ModelClient) -> Grounder:
    # Imported here: the model grounders pull in Pillow, which the builtin path never needs.
    if grounding == "som":
        from workers.agent.grounding.som import SomGrounder

        return SomGrounder(client)
    from workers.agent.grounding.model_hte import ModelHteGrounder

    return ModelHteGrounder(client)
