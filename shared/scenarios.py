"""Scenario files: YAML or JSON, validated into plain models with errors that name the problem."""

from __future__ import annotations

import gc
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, Field, ValidationError, field_validator, model_validator


def natural_key(scenario_id: str) -> list[object]:
    """OWN-2 before OWN-10: digits compare as numbers."""
    return [(0, int(part), "") if part.isdigit() else (1, 0, part.lower()) for part in re.split(r"(\d+)", scenario_id)]



class ScenarioFileError(ValueError):
    """A scenario file that cannot be used; the message names the file and the field."""


# C0 control characters other than tab, newline and carriage return, DEL, and lone UTF-16 surrogates: none of them
# belongs in a scenario, PostgreSQL refuses NUL in text and JSON, and a surrogate cannot be encoded as UTF-8.
_FORBIDDEN = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")
_FORBIDDEN_ONE_LINE = re.compile(r"[\x00-\x1f\x7f\ud800-\udfff]")


def check_text(value: str, *, one_line: bool = False) -> str:
    """The value unchanged, or ValueError naming the first control character (or lone surrogate) in it.

    Tab, newline and carriage return are allowed unless `one_line`."""
    found = (_FORBIDDEN_ONE_LINE if one_line else _FORBIDDEN).search(value)
    if found is None:
        return value
    char = found.group(0)
    if "\ud800" <= char <= "\udfff":
        raise ValueError(f"holds a lone surrogate (U+{ord(char):04X}) at position {found.start()}: not valid Unicode")
    raise ValueError(f"holds a control character (U+{ord(char):04X}) at position {found.start()}")


def check_feature_title(value: str) -> str:
    value = " ".join(check_text(value, one_line=True).split())
    if not re.search(r"[A-Za-z0-9]", value):
        raise ValueError("must hold a letter or digit (it names a .feature file)")
    return value


def feature_title_of(path: str | Path) -> str:
    """A feature title from a scenarios file's name: "checkout-flows.yaml" -> "Checkout flows"."""
    return feature_title_of_name(Path(path).stem)


def feature_title_of_name(name: str) -> str:
    """A feature title from a name (a file's stem, a project's name): "checkout-flows" -> "Checkout flows"."""
    words = " ".join(re.split(r"[-_.\s]+", name)).strip()
    if not re.search(r"[A-Za-z0-9]", words):
        return "Scenarios"
    return check_feature_title(words[:1].upper() + words[1:])


# What the checks below accept, for JSON Schema (the API's OpenAPI document): text without control characters
# (tab and line breaks allowed), a one-line text, a text with something besides spaces, a tag-like id.
TEXT_PATTERN = r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$"
ONE_LINE_PATTERN = r"^[^\x00-\x1f\x7f]*$"
FILLED_TEXT_PATTERN = r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*[^\s\x00-\x1f\x7f][^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$"
ID_PATTERN = r"^[A-Za-z0-9_.:\-]*[A-Za-z0-9][A-Za-z0-9_.:\-]*$"
FEATURE_PATTERN = r"^[^\x00-\x1f\x7f]*[A-Za-z0-9][^\x00-\x1f\x7f]*$"

# Longest texts a scenario may hold, in characters: a step (its action, its expected result), a free text, a start
# path, a title. A longer one is refused naming its field, so no verdict, status or report repeats an unbounded text.
STEP_MAX = 2_000
TEXT_MAX = 20_000
START_MAX = 2_048
TITLE_MAX = 500


def _id_schema(schema: dict[str, Any]) -> None:
    """An id is a tag-like string, or a number written as one (YAML reads `id: 123` as a number)."""
    string = {key: schema.pop(key) for key in ("type", "minLength", "maxLength") if key in schema}
    schema["anyOf"] = [{**string, "pattern": ID_PATTERN}, {"type": "integer"}]


def _steps_schema(schema: dict[str, Any]) -> None:
    """A step is a sentence, or an {action, expected} pair."""
    schema["items"] = {"anyOf": [{"type": "string", "minLength": 1, "maxLength": STEP_MAX,
                                  "pattern": FILLED_TEXT_PATTERN},
                                 schema["items"]]}


def data_rows_schema(schema: dict[str, Any]) -> None:
    """Rows of name -> value; a value may be written as a number, a boolean or null (it is read as text)."""
    schema["items"] = {"type": "object", "propertyNames": {"pattern": ONE_LINE_PATTERN},
                       "additionalProperties": {"anyOf": [{"type": "string", "maxLength": STEP_MAX,
                                                           "pattern": TEXT_PATTERN},
                                                          {"type": ["number", "boolean", "null"]}]}}


class ScenarioStep(BaseModel):
    action: str = Field(min_length=1, max_length=STEP_MAX, json_schema_extra={"pattern": FILLED_TEXT_PATTERN})
    expected: str | None = Field(default=None, max_length=STEP_MAX, json_schema_extra={"pattern": TEXT_PATTERN})

    @model_validator(mode="before")
    @classmethod
    def _not_a_sentence_read_as_a_mapping(cls, value: Any) -> Any:
        """`- Verify the page shows "Status: open"` unquoted is, to YAML, the mapping {'Verify ... "Status': 'open"'}:
        said as such, rather than as a missing 'action'."""
        if isinstance(value, dict) and len(value) == 1 and not {"action", "expected"} & set(value):
            (key, rest), = value.items()
            if isinstance(key, str) and isinstance(rest, str | int | float | bool | None):
                text = f"{key}: {'' if rest is None else rest}".rstrip()
                raise ValueError(f"the step {text!r} holds ': ', so YAML read it as a mapping; put the whole step "
                                 f"in quotes")
        return value

    @field_validator("action")
    @classmethod
    def _strip(cls, value: str) -> str:
        value = check_text(value).strip()
        if not value:
            raise ValueError("must not be empty")
        return value

    @field_validator("expected")
    @classmethod
    def _plain_expected(cls, value: str | None) -> str | None:
        return None if value is None else check_text(value)


PLACEHOLDER = re.compile(r"<([A-Za-z_][A-Za-z0-9_]*)>")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'“\x00])|\n+|;\s*")


_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|(?<![\w])'[^']*'(?![\w])")


def split_sentences(text: str) -> list[str]:
    """Free text into one step per sentence (or line, or semicolon-separated clause); quotes stay whole."""
    quoted: list[str] = []

    def mask(match: re.Match[str]) -> str:
        quoted.append(match.group(0))
        return f"\x00{len(quoted) - 1}\x00"

    masked = _QUOTED.sub(mask, text)
    parts = (p.strip().rstrip(".") for p in _SENTENCE_END.split(masked))
    restore = re.compile("\x00(\\d+)\x00")
    return [restore.sub(lambda m: quoted[int(m.group(1))], p) for p in parts if p]


class Scenario(BaseModel):
    id: str = Field(min_length=1, max_length=200, json_schema_extra=_id_schema)
    title: str = Field(min_length=1, max_length=TITLE_MAX, json_schema_extra={"pattern": TEXT_PATTERN})
    start: str = Field(default="/", max_length=START_MAX, json_schema_extra={"pattern": TEXT_PATTERN})
    steps: list[ScenarioStep] = Field(default_factory=list, json_schema_extra=_steps_schema)
    text: str | None = Field(default=None, max_length=TEXT_MAX, json_schema_extra={"pattern": TEXT_PATTERN})
    data: list[dict[str, str]] = Field(default_factory=list, json_schema_extra=data_rows_schema)
    # The feature (and .feature file) this scenario belongs to; None: the scenarios file's own feature.
    feature: str | None = Field(default=None, min_length=1, max_length=200,
                                json_schema_extra={"pattern": FEATURE_PATTERN})

    @field_validator("id", mode="before")
    @classmethod
    def _id_as_text(cls, value: Any) -> Any:
        return str(value) if isinstance(value, int) and not isinstance(value, bool) else value

    @field_validator("id")
    @classmethod
    def _id_is_a_tag(cls, value: str) -> str:
        if not re.fullmatch(r"[A-Za-z0-9_.:\-]+", value) or not re.search(r"[A-Za-z0-9]", value):
            raise ValueError("may hold only letters, digits and _ . : - with at least one letter or digit "
                             "(it becomes a Gherkin tag and a folder name)")
        return value

    @field_validator("title", "start", "text")
    @classmethod
    def _plain_text(cls, value: str | None) -> str | None:
        return None if value is None else check_text(value)

    @field_validator("feature")
    @classmethod
    def _one_line_feature(cls, value: str | None) -> str | None:
        return None if value is None else check_feature_title(value)

    @field_validator("steps", mode="before")
    @classmethod
    def _sentences_or_pairs(cls, value: Any) -> Any:
        if isinstance(value, list):
            return [{"action": item} if isinstance(item, str) else item for item in value]
        return value

    @field_validator("data", mode="before")
    @classmethod
    def _cells_as_text(cls, value: Any) -> Any:
        """A cell written as a number, true/false or null (YAML reads them so) is its text; a list or a mapping
        is refused (left as it is, so that validation names it)."""
        def cell(v: Any) -> Any:
            if v is None:
                return ""
            return str(v) if isinstance(v, int | float | bool) else v

        if isinstance(value, list):
            return [{str(k): cell(v) for k, v in row.items()} if isinstance(row, dict) else row for row in value]
        return value

    @field_validator("data")
    @classmethod
    def _plain_cells(cls, rows: list[dict[str, str]]) -> list[dict[str, str]]:
        for number, row in enumerate(rows, start=1):
            for column, cell in row.items():
                try:
                    check_text(column, one_line=True)
                except ValueError as error:
                    raise ValueError(f"row {number}: column name {column!r} {error}") from None
                try:
                    check_text(cell)
                except ValueError as error:
                    raise ValueError(f"row {number}, column {column!r}: {error}") from None
                if len(cell) > STEP_MAX:
                    raise ValueError(f"row {number}, column {column!r}: longer than {STEP_MAX} characters")
        return rows

    @model_validator(mode="after")
    def _steps_from_text(self) -> Scenario:
        if self.steps and self.text and self.steps != [ScenarioStep(action=s) for s in split_sentences(self.text)]:
            # Steps equal to the text's sentences are the ones derived from it (a scenario validated again).
            raise ValueError("give either 'steps' or 'text', not both")
        if not self.steps:
            if not self.text or not self.text.strip():
                raise ValueError("needs 'steps' (a list) or 'text' (free text)")
            sentences = split_sentences(self.text)
            too_long = next((s for s in sentences if len(s) > STEP_MAX), None)
            if too_long is not None:
                raise ValueError(f"the text's sentence {too_long[:60]!r}... is longer than a step may be "
                                 f"({STEP_MAX} characters)")
            self.steps = [ScenarioStep(action=s) for s in sentences]
        if self.data:
            columns = list(self.data[0])
            for number, row in enumerate(self.data, start=1):
                if list(row) != columns:
                    raise ValueError(f"data row {number} has columns {list(row)}, expected {columns}")
            used = {m for step in self.steps for m in PLACEHOLDER.findall(step.action + " " + (step.expected or ""))}
            unknown = sorted(used - set(columns))
            if unknown:
                raise ValueError(f"steps use <{unknown[0]}> but 'data' has no such column")
        return self

    def first_row(self) -> dict[str, str]:
        return dict(self.data[0]) if self.data else {}


class ScenarioFile(BaseModel):
    base_url: str | None = None
    reset_command: str | None = None
    # This job's brain and grounding (the command line overrides them; see workers/agent/choice.py).
    brain: Literal["builtin", "openai"] | None = None
    grounding: Literal["hte", "som"] | None = None
    # The title of the file's feature (its .feature file): scenarios without a `feature:` of their own go there.
    # None: named after the scenarios file ("checkout-flows.yaml" -> "Checkout flows").
    feature: str | None = Field(default=None, min_length=1, max_length=200)
    scenarios: list[Scenario] = Field(min_length=1)

    @field_validator("feature")
    @classmethod
    def _one_line_feature(cls, value: str | None) -> str | None:
        return None if value is None else check_feature_title(value)

    @model_validator(mode="after")
    def _unique_ids(self) -> ScenarioFile:
        seen: set[str] = set()
        for scenario in self.scenarios:
            if scenario.id in seen:
                raise ValueError(f"scenario id {scenario.id!r} appears twice")
            seen.add(scenario.id)
        return self


def _describe(error: ValidationError, document: Any) -> str:
    first = error.errors()[0]
    where = []
    node = document
    for part in first["loc"]:
        if isinstance(part, int) and isinstance(node, list) and part < len(node):
            node = node[part]
            label = node.get("id") if isinstance(node, dict) and "id" in node else None
            where.append(f"[{part}]" + (f" (id {label})" if label else ""))
        else:
            node = node.get(part) if isinstance(node, dict) else None
            where.append(f".{part}")
    path = "".join(where).lstrip(".") or "(top level)"
    return f"{path}: {first['msg']}"


# libyaml's loader where PyYAML was built with it (about 10x faster on a 5,000-case file: bench/importers.py)
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _load_yaml(text: str) -> tuple[Any, yaml.Node | None]:
    """The YAML document and its node tree, from one parse (the tree is read again by _refuse_cut_by_comment). A
    file that is not YAML is parsed again by PyYAML's own parser, whose message names the line a person looks at."""
    try:
        return _load_with(_YAML_LOADER, text)
    except yaml.YAMLError:
        if _YAML_LOADER is yaml.SafeLoader:
            raise
        return _load_with(yaml.SafeLoader, text)


def _load_with(loader_class: type, text: str) -> tuple[Any, yaml.Node | None]:
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        return (loader.construct_document(node) if node is not None else None), node
    finally:
        loader.dispose()


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector paused while a scenarios file is read: the many small objects of a big file set it
    off again and again (half the time of a 5,000-case file, bench/importers.py) and hold no cycle to collect; it
    runs again as usual afterwards."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def parse_scenarios(text: str, source: str = "<scenarios>") -> ScenarioFile:
    with _collector_paused():
        return _parse_scenarios(text, source)


def _parse_scenarios(text: str, source: str) -> ScenarioFile:
    node = None
    try:
        if source.endswith(".json"):
            document = json.loads(text)
        else:
            document, node = _load_yaml(text)
    except (yaml.YAMLError, json.JSONDecodeError) as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or getattr(exc, "msg", None) or str(exc)
        raise ScenarioFileError(f"{source}: not valid {'JSON' if source.endswith('.json') else 'YAML'}{at}: {problem}") from None
    if node is not None and '"' in text and _COMMENT_AFTER_TEXT.search(text):  # else no text can have been cut
        _refuse_cut_by_comment(text, node, source)
    if isinstance(document, list):
        document = {"scenarios": document}
    if not isinstance(document, dict):
        raise ScenarioFileError(f"{source}: expected a mapping with 'scenarios' or a list of scenarios")
    try:
        return ScenarioFile.model_validate(document)
    except ValidationError as exc:
        raise ScenarioFileError(f"{source}: {_describe(exc, document)}") from None


# A ' #' after something on its line: where YAML starts a comment that may cut a plain text short.
_COMMENT_AFTER_TEXT = re.compile(r"\S[ \t]+#")


def _refuse_cut_by_comment(text: str, root: yaml.Node, source: str) -> None:
    """A plain (unquoted) YAML text with an unclosed double quote that a ' #' ends: YAML reads the rest of the line
    as a comment, so 'Type "Same root cause as #4." in the box' would silently become 'Type "Same root cause as'."""
    lines = text.splitlines()
    for node in _plain_scalars(root):
        line = lines[node.end_mark.line] if node.end_mark.line < len(lines) else ""
        rest = line[node.end_mark.column:]
        if node.value.count('"') % 2 and re.match(r"\s+#", rest):
            raise ScenarioFileError(
                f"{source}: line {node.end_mark.line + 1}: {node.value!r} ends where ' #' starts a YAML comment, "
                f"which drops {rest.strip()!r}; put the whole text in single quotes")


def _plain_scalars(node: Any):
    if isinstance(node, yaml.ScalarNode):
        if not node.style:  # plain: None from PyYAML's own parser, "" from libyaml's
            yield node
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            yield from _plain_scalars(item)
    elif isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield from _plain_scalars(value)


def load_scenarios(path: Path) -> ScenarioFile:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioFileError(f"{path}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise ScenarioFileError(f"{path}: not UTF-8 text (byte {exc.start}); save it as UTF-8") from None
    scenario_file = parse_scenarios(text, str(path))
    if scenario_file.feature is None:  # the file's feature is named after the file
        scenario_file.feature = feature_title_of(path)
    return scenario_file


def list_items(text: str) -> list[str]:
    """The items of an unquoted list of three or more short texts ('Medium 46, High 29, Low 25 and Critical 20'), or
    of names of two to four capitalised words each ('Study Rooms and Library Cards'), each on its own; the text whole
    otherwise ('Terms and Conditions' is one name)."""
    parts = [p.strip() for p in re.split(r",\s+(?:and\s+)?|\s+and\s+", text) if p.strip()]
    if len(parts) >= 3 and all(len(p.split()) <= 4 for p in parts):
        return parts
    names = len(parts) == 2 and all(re.fullmatch(r"[A-Z][\w'&.-]*(?:\s+[A-Z][\w'&.-]*){1,3}", p) for p in parts)
    return parts if names else [text]
