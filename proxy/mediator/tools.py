"""What the proxy knows of one server's tools: the annotations it listed, its tasks, their verdicts."""

from ..classify import ToolVerdict, classify
from ..policy import ServerPolicy


class ToolKnowledge:
    """Tool verdicts from the server's own lists, cached until it lists again."""

    def __init__(self, server_policy: ServerPolicy) -> None:
        self._policy = server_policy
        self.annotations: dict[str, dict | None] = {}  # by name, for every tool ever listed
        self._listed = False  # whether the server has listed its tools at all
        self._task_tools: dict[str, str] = {}
        self._verdicts: dict[str, ToolVerdict] = {}

    def verdict(self, tool: str) -> ToolVerdict:
        """Classify a tool with the annotations its server last listed."""
        verdict = self._verdicts.get(tool)
        if verdict is None:
            verdict = self._verdicts[tool] = classify(
                self._policy,
                tool,
                self.annotations.get(tool),
                listed=not self._listed or tool in self.annotations,
            )
        return verdict

    def learn(self, result: dict) -> list[dict] | None:
        """Take in a `tools/list` result; the classification rows to record, None if it lists none."""
        tools = result.get("tools")
        if not isinstance(tools, list):
            return None
        if not self._listed:
            # Names classified before any list was seen were taken as listed.
            self._listed = True
            self._verdicts.clear()
        rows = []
        for tool in tools:
            if isinstance(tool, dict) and isinstance(tool.get("name"), str):
                annotations = (
                    tool.get("annotations") if isinstance(tool.get("annotations"), dict) else None
                )
                self.annotations[tool["name"]] = annotations
                self._verdicts.pop(tool["name"], None)
                rows.append(self.verdict(tool["name"]).as_row())
        return rows

    def started_task(self, result: dict, tool: str | None) -> None:
        """Remember which tool a `tools/call` that answered with a task was a call of."""
        task = result.get("task")
        if isinstance(task, dict) and isinstance(task.get("taskId"), str) and tool:
            self._task_tools[task["taskId"]] = tool

    def task_tool(self, task_id: object) -> str | None:
        """The tool whose call started this task, if the proxy saw it start."""
        return self._task_tools.get(str(task_id))
