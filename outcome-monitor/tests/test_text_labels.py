"""Numbers a word labels keep their sign where the text as a whole holds negatives (a diff's hunk
headers), and the lines a ``Key: value`` view does not read stay text with text rules (a commit's
diff under its Author and Date lines)."""

from __future__ import annotations

import random

from outcome_monitor import learn
from outcome_monitor.registry_format import schema
from outcome_monitor.text.prose import label_params, prose_params

NAMES = ("router", "cache", "report", "queue", "index", "widget")


def _diff(r: random.Random) -> str:
    start = r.randint(1, 30)
    lines = [f"@@ -{start},2 +{start},3 @@"]
    for _ in range(r.randint(2, 5)):
        lines.append(f"{r.choice(' +-')}{r.choice(NAMES)} = {r.randint(10, 999)}  # step {r.randint(0, 40)}")
    return "\n".join(lines) + "\n"


def _commit(r: random.Random, i: int) -> str:
    return (
        f"Commit: {i:040x}\nAuthor: Ada Quinn <ada@example.org>\nDate: 2025-03-{i % 28 + 1:02d}\n\n{_diff(r)}"
    )


def test_a_labelled_number_keeps_its_sign_where_the_text_holds_negatives() -> None:
    r = random.Random("labels")
    texts = [_diff(r) for _ in range(20)]
    params = prose_params(texts, 7)
    assert {"form": "no_negative"} not in params  # the hunk headers' -12
    labels = next(p for p in params if p["form"] == "label_signs")["labels"]
    assert labels["step"] == ">= 0"
    # too few texts, or too few distinct numbers under a label: no label kept
    assert label_params(texts[:5], 7) is None
    few = label_params([f"the step 4 of the plan, again and again, draft {i}" for i in range(9)], 7)
    assert few is None or "step" not in few["labels"]


def test_a_commit_keeps_its_diffs_labelled_signs_under_its_key_lines() -> None:
    r = random.Random("commits")
    rows = [{"tool": "show", "arguments": {"rev": f"{i:07x}"}, "result": _commit(r, i)} for i in range(30)]
    reg = learn(rows)
    assert reg.meta["views"]["show"]["parse"] == "lines"
    rule = next(x for x in reg.rules["show"] if x.params.get("form") == "label_signs")
    assert rule.fields == ("body",)
    schema_text = schema()["$defs"]["params_text"]["properties"]["form"]["pattern"]
    assert "label_signs" in schema_text
    clean = _commit(r, 40)
    assert reg.check("show", {"rev": f"{40:07x}"}, clean) == []
    negated = clean.replace("# step ", "# step -", 1)
    found = reg.check("show", {"rev": f"{40:07x}"}, negated)
    assert [v.rule_id for v in found] == [rule.rule_id], found
    assert found[0].observed.startswith("step -")
    # a zero under the label is a clean value: never "> 0"
    assert reg.check("show", {"rev": f"{40:07x}"}, clean.replace("# step ", "# step 0 #", 1)) == []
