"""Upload a file into a file field, from the files folder the scenarios (and the suite) ship."""

from __future__ import annotations

from workers.agent.actions.base import Action, Rule, thing
from workers.agent.actions.elements import is_file_input
from workers.agent.actions.naming import field_label, where
from workers.agent.language.phrases import Op, Unsupported, literal_value, target_phrase


def _upload(m, s):
    name = literal_value(s, m["v"], what="file name")
    if not name or "/" in name or "\\" in name:
        raise Unsupported(f"{s.show(m['v'])!r} is not a file name of the scenarios' files folder (write e.g. "
                          "Upload notes.txt as the Attachment)")
    t = target_phrase(s, m["t"], "field")
    return [Op.on("upload", t, value=name)]


def _nowhere(m, s):
    raise Unsupported("it does not say which file field to use; write e.g. Upload notes.txt as the Attachment")


class Upload(Action):
    name = "upload"
    model_hint = "upload: put the file named by value (from the scenarios' files folder) into the target file field"
    valued = True
    field = True
    param_name = "fileName"
    verbs = frozenset({"upload", "attach"})
    rules = (
        Rule(r"(?:upload|attach)\s+(?:the\s+)?(?:file\s+)?(?P<v>\S+\.\w{1,5}|\x01\d+\x02)\s+"
             r"(?:as|to|into|in|for|using|with|on)\s+(?P<t>.+)", _upload, 560),
        Rule(r"(?:upload|attach)\s+(?P<v>.+)", _nowhere, 561),
    )

    def describe(self, target, role, value):
        return f"Upload {value} as {thing(target, role)}"

    def eligible(self, node):
        return 1.0 if is_file_input(node) else 0.0

    def perform(self, act):
        act.target.set_input_files(act.file_path(act.value or ""))

    def phrase(self, op, slot):
        return ["Upload ", *slot, f" as the {field_label(op)}"]

    def comment(self, op, what):
        return f'Put the file {what} (from the suite\'s files folder) into the "{field_label(op)}" field{where(op)}'

    def brief_target(self, op):
        return field_label(op)

    def javascript(self, op, target, value):
        return f"await {target}.setInputFiles(this.file({value}));"


ACTION = Upload()
