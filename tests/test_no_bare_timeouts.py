"""No test judges speed (issue 46): every timeout in tests/ goes through
`tests.slowdown.hang` or `scaled`, so it only ends a hang and stretches with a slow
machine. A bare number where a test waits fails here: a `timeout=`/`deadline=`/
`seconds=` keyword, `.wait(N)`, `.join(N)`, `.wait_for(x, N)`, `wait_until(x, N)`,
`.settimeout(N)`, selenium's `WebDriverWait(driver, N)`, `time.monotonic() + N`, a
parameter named so defaulting to a number, or a module constant holding a bare number
used in any of those; unless its line says why it is not a hang deadline with
`# not a hang deadline: <reason>` (the emulated rig's clock, a poll interval, pacing, a
wait that must run out); for a constant, on its definition's line."""

from __future__ import annotations

import ast
from pathlib import Path

from hypothesis import HealthCheck, settings

TESTS = Path(__file__).resolve().parent
MARK = "# not a hang deadline:"
KEYWORDS = {"timeout", "deadline", "seconds", "ready_timeout", "stop_timeout", "wait"}
PARAMETERS = {"timeout", "deadline", "ready_timeout", "stop_timeout"}
"""Parameter names whose numeric default is a timeout (`seconds` is a clip's length too)."""
POSITIONAL = {"wait": 0, "join": 0, "wait_for": 1, "wait_until": 1, "settimeout": 0,
              "WebDriverWait": 1}
"""Method name (or selenium's waiter) -> the index of its timeout argument."""


def _numeric(node: ast.expr, constants: dict[str, ast.expr]) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp):
        return _numeric(node.operand, constants)
    if isinstance(node, ast.BinOp):
        return _numeric(node.left, constants) and _numeric(node.right, constants)
    return isinstance(node, ast.Name) and node.id in constants


def _waits(tree: ast.Module) -> list[ast.expr]:
    """Every expression used as a timeout in `tree`."""
    found: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            found += [k.value for k in node.keywords if k.arg in KEYWORDS]
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else \
                func.id if isinstance(func, ast.Name) else ""
            if called in POSITIONAL and len(node.args) > POSITIONAL[called]:
                found.append(node.args[POSITIONAL[called]])
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            arguments = node.args
            positional = [*arguments.posonlyargs, *arguments.args]
            defaulted = positional[len(positional) - len(arguments.defaults):]
            found += [default for arg, default in zip(defaulted, arguments.defaults, strict=True)
                      if arg.arg in PARAMETERS]
            found += [default for arg, default in zip(arguments.kwonlyargs,
                                                      arguments.kw_defaults, strict=True)
                      if default is not None and arg.arg in PARAMETERS]
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) \
                and isinstance(node.left, ast.Call) and isinstance(node.left.func, ast.Attribute) \
                and node.left.func.attr in ("monotonic", "time", "perf_counter"):
            found.append(node.right)
    return found


def bare_timeouts(source: str, name: str) -> list[str]:
    """`name:line: text` for each bare numeric timeout in `source` not marked as no hang
    deadline."""
    tree = ast.parse(source)
    lines = source.splitlines()
    constants: dict[str, ast.expr] = {}
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None \
                and _numeric(node.value, {}):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            constants.update({t.id: node.value for t in targets if isinstance(t, ast.Name)})
    bare = []
    for wait in sorted(_waits(tree), key=lambda node: (node.lineno, node.col_offset)):
        if not _numeric(wait, constants):
            continue
        marked = lines[wait.lineno - 1]
        if isinstance(wait, ast.Name):
            marked += lines[constants[wait.id].lineno - 1]
        if MARK not in marked:
            bare.append(f"{name}:{wait.lineno}: {lines[wait.lineno - 1].strip()}")
    return bare


def test_no_test_waits_a_bare_number_of_seconds() -> None:
    bare = [line for path in sorted(TESTS.rglob("*.py"))
            for line in bare_timeouts(path.read_text(), str(path.relative_to(TESTS.parent)))]
    assert not bare, ("timeouts that judge the machine's speed: pass them through "
                      "tests.slowdown.hang() (or scaled), or say on the line why they are "
                      f"'{MARK} ...':\n" + "\n".join(bare))


def test_the_check_finds_each_kind_of_bare_timeout() -> None:
    source = "\n".join([
        "import time",
        "T = 5.0",
        "q.get(timeout=5)",
        "event.wait(10)",
        "thread.join(2 * 3)",
        "server.wait_for(lambda: True, 20.0)",
        "deadline = time.monotonic() + 30",
        "q.get(timeout=T)",
        "event.wait(hang())",
        "q.get(timeout=scaled(5))",
        "rig.wait(3.0)  # not a hang deadline: the emulated clock",
        "q.get(timeout=None)",
        "wait_until(probe, 30, 'up')",
        "def boot(self, timeout: float = 120) -> None: ...",
        "def stop(*, deadline=60.0): ...",
        "def tone(seconds_long: float = 0.5): ...",
        "sock.settimeout(20)",
        "WebDriverWait(driver, 20).until(ready)",
        "WebDriverWait(driver, hang()).until(ready)",
    ])
    assert [line.split(":")[1] for line in bare_timeouts(source, "x")] == \
        ["3", "4", "5", "6", "7", "8", "13", "14", "15", "17", "18"]


def test_a_marked_constant_is_allowed_where_it_is_used() -> None:
    source = "BOOT = 900  # not a hang deadline: scaled by the callee\npi.wait_for('x', BOOT)\n"
    assert bare_timeouts(source, "x") == []


def test_property_tests_have_no_deadline() -> None:
    """Hypothesis's default 200 ms per example and its too_slow health check are speed
    verdicts: tests/conftest.py's profile turns them off for every property test."""
    assert settings().deadline is None
    assert HealthCheck.too_slow in settings().suppress_health_check
