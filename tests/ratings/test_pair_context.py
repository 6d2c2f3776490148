"""What the rater's task pane and the browser's detail pane hold of a task's `context`
(SPEC 3.1): inline text as written, code blocks kept, and the files it names, read bounded
through the same checks as validation."""

from __future__ import annotations

import os

from tests.conftest import task_yaml
from tests.ratings.common import rubric, workspace_files
from voyage_tui.engine.details import load_detail
from voyage_tui.engine.items import Item
from voyage_tui.engine.kinds import FileKind
from voyage_tui.engine.ratings.content import load_pair
from voyage_tui.engine.ratings.runs import AgentRunRef
from voyage_tui.engine.references.journey import Journey
from voyage_tui.engine.rules.task_context import CONTEXT_FILE_CHARS, CONTEXT_FILES
from voyage_tui.engine.workspace.model import Workspace

TASK = "fixtures/bug-diagnosis/t1/task.yaml"

CONTEXT = """\
context:
  - |
    Diff of app/pay.py:

        40  def pay(amount):
        41      return charge(amount * 100)

    ```python
    print("fenced")
    ```
  - {file: repo/pay.py}
  - {file: repo/gone.py}
  - {file: ../t2/task.yaml}
  - Pages are 1-based.
"""


def _workspace(make_workspace, context: str = CONTEXT, files: dict[str, str] | None = None):
    all_files = workspace_files()
    all_files[TASK] = task_yaml("t1", extra=context)
    all_files["fixtures/bug-diagnosis/t1/repo/pay.py"] = "def pay(amount):\n    return 1\n"
    all_files.update(files or {})
    return Workspace.load(make_workspace(all_files))


def _run() -> AgentRunRef:
    return AgentRunRef("t1", "run-a", "fixtures/bug-diagnosis/t1/runs/run-a.yaml", TASK)


def test_the_task_view_keeps_inline_text_with_its_code_blocks_as_written(make_workspace):
    ws = _workspace(make_workspace)
    parts = load_pair(ws, rubric(), _run(), blind=True).task.context.parts
    first = parts[0]
    assert first.file is None
    assert first.text.startswith("Diff of app/pay.py:\n\n    40  def pay(amount):\n")
    assert "        41      return charge(amount * 100)" not in first.text  # dedented once only
    assert "    41      return charge(amount * 100)\n" in first.text
    assert '```python\nprint("fenced")\n```' in first.text
    assert parts[-1].file is None and parts[-1].text == "Pages are 1-based."


def test_the_task_view_reads_the_files_the_context_names(make_workspace):
    ws = _workspace(make_workspace)
    parts = load_pair(ws, rubric(), _run(), blind=True).task.context.parts
    files = {p.file: p for p in parts if p.file is not None}
    assert list(files) == ["repo/pay.py", "repo/gone.py", "../t2/task.yaml"]
    shown = files["repo/pay.py"]
    assert shown.text == "def pay(amount):\n    return 1\n"
    assert shown.path == "fixtures/bug-diagnosis/t1/repo/pay.py"
    assert shown.problem is None and shown.cut == 0
    missing = files["repo/gone.py"]
    assert missing.text == "" and missing.problem is not None
    assert missing.problem.code == "context-file-missing"
    escaping = files["../t2/task.yaml"]
    assert escaping.text == "" and escaping.problem is not None
    assert escaping.problem.code == "context-path-escapes"


def test_a_context_file_is_read_bounded(make_workspace):
    big = "x" * (CONTEXT_FILE_CHARS + 123)
    ws = _workspace(
        make_workspace,
        "context:\n  - {file: big.txt}\n",
        {"fixtures/bug-diagnosis/t1/big.txt": big},
    )
    (part,) = load_pair(ws, rubric(), _run(), blind=True).task.context.parts
    assert len(part.text) == CONTEXT_FILE_CHARS
    assert part.cut == 123


def test_only_the_first_context_files_are_read(make_workspace):
    count = CONTEXT_FILES + 3
    refs = "".join(f"  - {{file: f{n}.txt}}\n" for n in range(count))
    files = {f"fixtures/bug-diagnosis/t1/f{n}.txt": f"file {n}\n" for n in range(count)}
    ws = _workspace(make_workspace, "context:\n" + refs, files)
    context = load_pair(ws, rubric(), _run(), blind=True).task.context
    assert [p.text for p in context.parts] == [f"file {n}\n" for n in range(CONTEXT_FILES)]
    assert context.files_left_out == 3


def test_a_context_symlink_out_of_the_fixture_is_not_read(make_workspace, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("do not show\n")
    ws = _workspace(make_workspace, "context:\n  - {file: link.txt}\n")
    os.symlink(secret, os.path.join(ws.root, "fixtures/bug-diagnosis/t1/link.txt"))
    (part,) = load_pair(ws, rubric(), _run(), blind=True).task.context.parts
    assert part.text == "" and part.problem is not None
    assert "do not show" not in part.problem.message


def test_the_browser_detail_holds_the_same_context(make_workspace):
    ws = _workspace(make_workspace)
    item = Item(path=TASK, kind=FileKind.TASK)
    detail = load_detail(ws, Journey(), item)
    assert detail.context == load_pair(ws, rubric(), _run(), blind=True).task.context
    assert detail.context.parts[1].text == "def pay(amount):\n    return 1\n"
