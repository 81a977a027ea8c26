"""The controller through emulated hardware: what a table sees and what gets saved."""

from __future__ import annotations

import json
import random

import pytest

from engine.tenfour import Correct, Draw
from hardware.events import FrameRejected, KnobPress
from rig.core.autopilot import gestures_for, play_out
from rig.core.journalread import JournalWriteError, read_journal
from rig.core.replay import replay
from rig.desktop.emulated import new_emulated_rig
from tests.rig.drive import advance_to_choice


def _state_text(rig) -> str:
    return json.dumps(rig.session.state.to_json(), sort_keys=True)


def _advance_to(rig, kind: str, rng: random.Random, limit: int = 500) -> None:
    for _ in range(limit):
        if rig.session.state.prompt().kind == kind and rig.controller.alert is None:
            return
        for gesture in gestures_for(rig.controller, rng):
            rig.loop.step(gesture)
            rig.settle()
    pytest.fail(f"never reached a {kind!r} prompt")


@pytest.mark.parametrize(("game", "players"), [("tenfour", 2), ("tenfour", 3),
                                               ("tenfour", 4), ("bumpem", 2), ("bumpem", 4)])
def test_a_whole_game_through_the_hardware_replays_from_its_journal(tmp_path, game, players):
    journal = tmp_path / "game.jsonl"
    rig = new_emulated_rig(game, players, seed=11, journal=journal)
    play_out(rig, random.Random(11))
    assert rig.session.state.is_terminal()
    assert "wins" in rig.screen.plain().lower() or "winner" in rig.screen.plain().lower()
    contents = read_journal(journal)
    assert len(contents.entries) == rig.session.steps
    _, replayed = replay(contents.header, contents.entries)
    assert replayed == rig.session.state


def test_an_unknown_card_is_refused_with_the_reason_and_changes_nothing():
    rig = new_emulated_rig("tenfour", 3, seed=1)
    _advance_to(rig, "draw", random.Random(1))
    before = _state_text(rig)
    rig.tap(tag="0003887558")
    assert "Unknown card 0003887558" in rig.screen.plain()
    assert _state_text(rig) == before
    rig.wait(5)  # not a hang deadline: the emulated rig's clock, not the machine's
    assert "Unknown card" not in rig.screen.plain(), "the refusal fades"


def test_a_card_drawn_since_the_last_reshuffle_is_refused():
    rig = new_emulated_rig("tenfour", 3, seed=2)
    rng = random.Random(2)
    _advance_to(rig, "draw", rng)
    first = next(a for a, _ in rig.session.state.chance_outcomes())
    rig.tap(card_id=first.card)
    _advance_to(rig, "draw", rng)
    assert Draw(card=first.card) not in [a for a, _ in rig.session.state.chance_outcomes()]
    before = _state_text(rig)
    rig.tap(card_id=first.card)
    assert "already drawn" in rig.screen.plain()
    assert _state_text(rig) == before


def test_spinning_the_wrong_knob_is_refused_and_a_forced_value_is_used():
    rig = new_emulated_rig("tenfour", 3, seed=3)
    assert rig.session.state.prompt().kind == "start_spin"
    rig.spin("lo")
    assert "Spin the HI knob" in rig.screen.plain()
    assert rig.session.steps == 0
    rig.spin("hi", value=12)
    events_text = rig.screen.plain()
    assert rig.session.steps == 1
    assert "spins 12" in events_text


def test_spin_animation_runs_on_deadlines_then_shows_the_result():
    rig = new_emulated_rig("tenfour", 3, seed=4)
    rig.controller.chance.forced_spin = 7
    from hardware.events import KnobSpin

    rig.loop.step(KnobSpin("hi", 1.0))
    assert rig.controller.animation is not None
    assert rig.screen.lines == ("spinning...",)
    assert rig.controller.next_deadline() is not None
    rig.settle()
    assert rig.controller.animation is None
    assert "spins 7" in rig.screen.plain()
    assert rig.controller.next_deadline() is None, "an idle rig has nothing to wake for"


def test_a_failed_journal_write_refuses_the_input_and_keeps_the_state(tmp_path, monkeypatch):
    rig = new_emulated_rig("tenfour", 3, seed=5, journal=tmp_path / "j.jsonl")
    before = _state_text(rig)

    def full_disk(action):
        raise JournalWriteError("cannot write the journal: the disk is full", 28)

    monkeypatch.setattr(rig.session.journal, "append", full_disk)
    rig.spin("hi")
    assert "NOT SAVED" in rig.screen.plain()
    assert _state_text(rig) == before
    assert rig.session.steps == 0


def test_the_correction_menu_sets_a_piece_and_is_journaled(tmp_path):
    journal = tmp_path / "j.jsonl"
    rig = new_emulated_rig("tenfour", 3, seed=6, journal=journal)
    _advance_to(rig, "draw", random.Random(6))
    rig.hold("hi")
    screen = rig.screen
    assert screen.title == "CORRECTION"
    pieces = list(screen.menu[:-1])
    red = next(i for i, item in enumerate(pieces) if item.startswith("Red truck at "))
    rig.turn("hi", red)
    rig.press("hi")
    here = rig.session.state.truck_where(0)
    assert rig.screen.parts()[0].text == f"FIX: Red truck at {here} to"
    places = list(rig.screen.menu)
    assert places[rig.screen.cursor] == f"{here} (now)", "the menu starts where it stands"
    rig.turn("lo", 1)
    assert rig.screen.menu[rig.screen.cursor] == "G1", "the LO knob jumps to the next route"
    rig.turn("lo", -1)
    target = places.index("R5")
    rig.turn("hi", target - rig.screen.cursor)
    rig.press("hi")
    assert rig.controller.correction is None
    assert rig.session.state.truck_where(0) == "R5"
    entries = read_journal(journal).entries
    assert entries[-1] == Correct(piece="red", location="R5").to_json()


def test_events_that_do_not_change_the_screen_do_not_redraw():
    rig = new_emulated_rig("bumpem", 2, seed=7)
    renders = rig.loop.stats.renders
    rig.loop.step(FrameRejected("deck", "checksum"))
    rig.loop.step(FrameRejected("deck", "checksum"))
    assert rig.loop.stats.renders == renders
    rig.loop.step(KnobPress("hi"))
    assert rig.loop.stats.renders == renders + 1


def test_a_catch_is_an_alert_that_a_press_acknowledges():
    rig = new_emulated_rig("tenfour", 3, seed=8)
    rng = random.Random(8)
    for _ in range(3000):
        if rig.controller.alert is not None and "BEAR" in rig.controller.alert.title:
            break
        for gesture in gestures_for(rig.controller, rng):
            rig.loop.step(gesture)
            rig.settle()
    else:
        pytest.fail("no catch in a whole game")
    screen = rig.screen
    assert screen.alert and "BEAR" in screen.title and "caught" in screen.text().lower()
    steps = rig.session.steps
    rig.press("hi")
    assert rig.controller.alert is None
    assert rig.session.steps == steps, "the acknowledging press is not also a choice"


def test_a_computer_seat_has_its_choice_preselected():
    from rig.core.computer import seat_for

    seats = [seat_for("bumpem", "random", seed=1), seat_for("bumpem", "random", seed=2)]
    rig = new_emulated_rig("bumpem", 2, seed=9, seats=seats)
    advance_to_choice(rig, random.Random(9))
    assert "Computer (random) chose: press to play it" in rig.screen.plain()
    choice = rig.controller.choices()[rig.controller.decisions.cursor]
    rig.press("hi")
    assert rig.session.last_action == choice


def test_bears_crawling_when_both_smokeys_wait_just_ahead_of_the_leader():
    from cbrig.games.tenfour.view import bears_crawling

    rig = new_emulated_rig("tenfour", 3, seed=12)
    state = rig.session.state
    assert bears_crawling(state) is None
    state.pos[:] = [10, 3, 4]  # Red leads, on its route's 11th space
    loop = state.g.board.loop
    red_at = state.location(0)
    state.police["smokey1"] = loop[(red_at + 2) % len(loop)]
    state.police["smokey2"] = loop[(red_at + 5) % len(loop)]
    assert bears_crawling(state) == "Red truck"
    state.police["smokey2"] = loop[(red_at + 9) % len(loop)]
    assert bears_crawling(state) is None


def test_computer_seats_play_their_own_choices_through_the_autopilot():
    from rig.core.computer import seat_for

    seats = [seat_for("tenfour", "strong", seed=1), seat_for("tenfour", "random", seed=2)]
    rig = new_emulated_rig("tenfour", 2, seed=13, seats=seats)
    rng = random.Random(13)
    choices = 0
    while not rig.session.state.is_terminal():
        state = rig.session.state
        deciding = not state.is_chance_node() and rig.controller.alert is None
        expected = rig.controller.choices()[rig.controller.decisions.cursor] if deciding else None
        for gesture in gestures_for(rig.controller, rng):
            rig.loop.step(gesture)
            rig.settle()
        if expected is not None:
            assert rig.session.last_action == expected
            choices += 1
    assert choices > 5


def _to_decision_without_settling(rig, rng) -> None:
    """Step gestures (no ticks) until a real choice is on screen, choice still pending."""
    for _ in range(500):
        state = rig.session.state
        if not state.is_chance_node() and len(state.legal_actions()) > 1 \
                and rig.controller.alert is None and rig.controller.decisions.choice_pending:
            return
        for gesture in gestures_for(rig.controller, rng):
            rig.loop.step(gesture)
            rig.controller.animation = None  # its time is up: an input now is not early
    pytest.fail("no pending choice came up")


def test_the_computer_thinks_after_the_frame_is_drawn():
    from rig.core.computer import seat_for

    calls = []

    def counting(state, legal):
        calls.append(len(legal))
        return legal[-1]

    seats = [seat_for("bumpem", "random", seed=1), seat_for("bumpem", "random", seed=2)]
    for seat in seats:
        seat.chooser = counting
    rig = new_emulated_rig("bumpem", 2, seed=14, seats=seats)
    _to_decision_without_settling(rig, random.Random(14))
    thinking_calls = len(calls)
    assert "is thinking" in rig.loop._last_screen.plain(), "the frame came first"
    assert rig.controller.next_deadline() == rig.clock()
    rig.loop.run_due()
    assert len(calls) == thinking_calls + 1
    assert "Computer (random) chose:" in rig.screen.plain()
    assert rig.controller.decisions.cursor == len(rig.session.state.legal_actions()) - 1


def test_a_person_who_presses_before_the_hint_gets_what_they_saw():
    from rig.core.controller import Seat

    seats = [Seat(level="hint", chooser=lambda state, legal: legal[-1]) for _ in range(2)]
    rig = new_emulated_rig("bumpem", 2, seed=15, seats=seats)
    _to_decision_without_settling(rig, random.Random(15))
    shown_first = rig.session.state.legal_actions()[0]
    rig.press("hi")
    assert rig.session.last_action == shown_first
