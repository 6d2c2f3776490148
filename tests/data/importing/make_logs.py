"""Make the Inspect AI logs the import tests read, with the real inspect-ai (not a dependency).

Run it in a scratch environment that has inspect-ai (`pip install inspect-ai`), from this
folder: `python make_logs.py`. No network: the solver sets each sample's output itself (as a
mockllm/model completion after one tool call), so no model is called. It writes
`demo.eval` and `demo.json` here (Inspect names its logs by time; they are renamed so the run
ids in the tests stay the same).

The task: samples `t1` and `t2` (fixture ids of the tests' workspace), `42` (matches no
fixture; its metadata `fixture: t1` is for `--map metadata:fixture`), two epochs, a letter-grade
scorer (match) and a numeric one.
"""

from __future__ import annotations

import glob
import os
import shutil
import tempfile

from inspect_ai import Task, eval, task
from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessageAssistant, ChatMessageTool, ModelOutput
from inspect_ai.scorer import Score, Target, match, mean, scorer
from inspect_ai.solver import Generate, TaskState, solver
from inspect_ai.tool import ToolCall


@solver
def answer():  # type: ignore[no-untyped-def]
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.messages.append(
            ChatMessageAssistant(
                content="Let me look at the repository first.",
                tool_calls=[ToolCall(id="c1", function="bash", arguments={"cmd": "ls"})],
            )
        )
        state.messages.append(
            ChatMessageTool(content="README.md\nsrc/", tool_call_id="c1", function="bash")
        )
        state.output = ModelOutput.from_content(
            "mockllm/model", f"The answer for {state.sample_id}: Paris"
        )
        state.messages.append(state.output.message)
        return state

    return solve


@scorer(metrics=[mean()])
def length():  # type: ignore[no-untyped-def]
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value=round(len(state.output.completion) / 100, 2))

    return score


@task
def demo() -> Task:
    return Task(
        dataset=[
            Sample(id="t1", input="What is the capital of France?", target="Paris"),
            Sample(id="t2", input="What is the capital of Spain?", target="Madrid"),
            Sample(id=42, input="Capital of France?", target="Paris", metadata={"fixture": "t1"}),
        ],
        solver=[answer()],
        scorer=[match(location="end"), length()],
        epochs=2,
    )


def main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    for fmt in ("eval", "json"):
        out = tempfile.mkdtemp()
        eval(demo(), model="mockllm/model", log_dir=out, log_format=fmt, display="none")
        (made,) = glob.glob(os.path.join(out, f"*.{fmt}"))
        shutil.move(made, os.path.join(here, f"demo.{fmt}"))
        shutil.rmtree(out)


if __name__ == "__main__":
    main()
