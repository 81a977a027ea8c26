"""The game's screen while play goes on: the news, a refusal, the prompt, how to make a
draw, and a decision's menu with the computer seat's line or the hint.

The controller (rig.core.controller) feeds it a plain record of what it knows now
(`Table`): the screens room never imports the core.
"""

from __future__ import annotations

from engine.api import Action, State
from rig.screens import words
from rig.screens.screen import Part, Screen
from rig.screens.views import GameView, Notice
from valueclass import Frozen


class Table(Frozen):
    """What the game screen shows, as the controller has it now."""

    state: State
    view: GameView[State]
    news: tuple[Notice, ...]
    refusal: str | None
    """The refusal's words while it shows ("! " goes before them), else None."""
    abandoned: bool
    status: str
    page: int
    cursor: int
    hinted: int
    """The computer's choice (or a person's hint) at this decision."""
    choice_pending: bool
    level: str
    """The level of the seat to decide ("human", "hint", a computer's); "" at no decision."""
    computer: bool
    """That seat's choices are the computer's."""
    choices: tuple[Action, ...]
    """The legal choices in menu order at a decision; () otherwise."""
    virtual_deck: bool


def status_text(reader_ok: bool, sound_ok: bool) -> str:
    flags = []
    if not reader_ok:
        flags.append(words.NO_READER)
    if not sound_ok:
        flags.append(words.NO_SOUND)
    return ",".join(flags)


def game_screen(table: Table) -> Screen:
    status = table.status
    state = table.state
    title = table.view.title(state)
    lines: list[Part] = [Part(n.text, "news", n.short) for n in table.news]
    if table.refusal is not None:
        lines.append(Part("! " + table.refusal, "refusal"))
    if table.abandoned:
        return Screen(title=words.ABANDONED_TITLE, lines=tuple(lines), status=status,
                      footer=words.NEW_GAME, page=table.page)
    lines.extend(table.view.prompt_parts(state))
    if state.is_terminal():
        return Screen(title=title, lines=tuple(lines), status=status,
                      footer=words.NEW_GAME, page=table.page)
    if state.is_chance_node():
        how = how_to_resolve(table)
        lines.extend([how] if how else [])
        return Screen(title=title, lines=tuple(lines), status=status, page=table.page)
    describe = state.describe
    items = [describe(a) for a in table.choices]
    if table.level == "hint":
        if not table.choice_pending:
            items[table.hinted] = "* " + items[table.hinted]
            lines.append(Part(words.SUGGESTED[0], "hint", words.SUGGESTED[1]))
    elif table.computer:
        lines.append(computer_part(table, table.level, items))
    return Screen(title=title, lines=tuple(lines), menu=tuple(items),
                  cursor=table.cursor, status=status, page=table.page)


def computer_part(table: Table, level: str, items: list[str]) -> Part:
    """What the computer seat is doing; once the knob leaves its choice, the line
    says so and "*" marks its choice (``items`` is changed): a press plays what is
    selected, never what the screen claims the computer chose."""
    if table.choice_pending:
        text, short = words.computer_thinking(level)
        return Part(text, "cpu", short)
    if table.cursor == table.hinted:
        text, short = words.computer_chose(level)
        return Part(text, "cpu", short)
    items[table.hinted] = "* " + items[table.hinted]
    return Part(words.NOT_THE_COMPUTERS[0], "cpu", words.NOT_THE_COMPUTERS[1])


def how_to_resolve(table: Table) -> Part | None:
    """How to make the draw, in words (a spin prompt names its knob itself)."""
    need = table.view.chance_input(table.state)
    if need.kind == "spin":
        return None
    if need.kind == "card" and not table.virtual_deck:
        return Part(words.TAP_IT, "instruction")
    return Part(words.press_for_instruction(need.noun), "instruction")
