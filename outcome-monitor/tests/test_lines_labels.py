"""``key: value`` lines are read out of text (a ``lines`` view) only where some key is the text's own
label, held once by every clean text: keys that came only as repeated records (as many as the data
asked held, ``Attendees:`` of each meeting note in a read of several files) are the data's, and a
text holding none of them (files without notes) is a clean answer, not an unreadable one."""

from __future__ import annotations

import random

from outcome_monitor import learn
from outcome_monitor.text.views import infer_view


def _note(rng: random.Random, day: int) -> str:
    return f"/notes/meeting-{day}.md:\n# Meeting {day}\n\nAttendees: {rng.choice(['Ada', 'Bo'])}\n\nNext meeting: {day + 7}\n"


def _log(rng: random.Random) -> str:
    return f"/logs/app.log:\n2025-0{rng.randint(1, 9)}-01 INFO started\n2025-01-02 WARN slow\n"


def _read_many(rng: random.Random, notes: int) -> dict:
    texts = [_note(rng, rng.randint(1, 28)) for _ in range(notes)] + [_log(rng)]
    return {"content": "\n---\n".join(texts)}


def test_keys_only_records_of_the_data_make_no_view():
    rng = random.Random(5)
    rows = [
        {"tool": "read_files", "arguments": {"paths": [f"p{i}"]}, "result": _read_many(rng, 1 + i % 3)}
        for i in range(12)
    ]  # every read happened to hold a meeting note
    reg = learn(rows)
    assert "read_files" not in (reg.meta.get("views") or {})
    without = {"content": _log(rng) + "\n---\n/src/app.py:\nprint('hi')\n"}
    assert reg.check("read_files", {"paths": ["a", "b"]}, without) == []


def test_a_label_every_text_held_once_keeps_the_view():
    """The same records under a label of the text's own (``Commit history:``) are read as before."""
    rng = random.Random(6)
    texts = [
        "Commit history:\n" + "".join(f"Commit: {rng.getrandbits(64):016x}\nAuthor: A\n" for _ in range(k))
        for k in range(1, 8)
    ]
    view = infer_view(texts)
    assert view is not None and view["parse"] == "lines" and view["single"] == ["Commit history"]
    assert infer_view([t.replace("Commit history:\n", "") for t in texts]) is None
