"""How big the phrase cache gets for whole games: the figures behind rig.voice.cache.CAP.

Plays one seeded game of each kind through the emulated rig, keeps every distinct
sentence the voice would say (rig.voice.speech, split as the synthesizer splits them), renders
each with the configured voice (the radio effect by default) into a fresh cache, and
prints the count, the bytes and the mean length. Needs espeak-ng and sox; slow (the
four-player Bump 'Em renders ~700 sentences: about a minute on a desktop core).

    python -m bench.voice_cache_size [--seed 1] [--effect radio]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from rig.voice.narrator import Synthesizer, VoiceSettings, sentences
from rig.voice.speech import utterance, vocabulary_for
from tests.voice.speechgames import GAMES, game_screens


def distinct_sentences(game: str, players: int, variant: str | None, seed: int) -> set[str]:
    found: set[str] = set()
    for screen in game_screens(game, players, variant, seed):
        said = utterance(screen, vocabulary_for(game))
        if said is not None:
            found.update(sentences(said.text))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--effect", default="radio", choices=("radio", "plain"))
    args = parser.parse_args()
    for game, players, variant in GAMES:
        texts = distinct_sentences(game, players, variant, args.seed)
        with tempfile.TemporaryDirectory() as directory:
            synthesizer = Synthesizer(VoiceSettings(effect=args.effect), Path(directory))
            for text in sorted(texts):
                synthesizer.clip(text)
            size = sum(p.stat().st_size for p in Path(directory).glob("*.wav"))
        print(f"{game} {players} players{f' ({variant})' if variant else ''}: "
              f"{len(texts)} distinct sentences, {size / 1e6:.1f} MB, "
              f"{size / len(texts) / 1e3:.0f} kB a sentence", flush=True)


if __name__ == "__main__":
    main()
