"""@cyanheads/git-mcp-server (npm): a small project's git history read through a server that answers in JSON.

Its results are structured JSON with an ``outputSchema``, the text block the same object indented (where the
text shows a ``null``, the structured content leaves the key out): commits with 40-hex hashes, short hashes,
authors and unix timestamps, parents; branches with ahead and behind counts; tags with their commits and
annotations; blame lines; diffs with counts of files, insertions and deletions; reflog and stash entries;
the working tree's status as lists of paths. The repository is made once with git itself: commits on main
by three authors at seeded times, feature and fix branches (some merged, some not), lightweight and
annotated tags, a stash, and a working tree with changes staged, unstaged and untracked. The workload only
reads: the server's writes stamp the clock's time into commits and reflogs, or fail when a session replays
them (a tag or branch made twice).
"""

from __future__ import annotations

import datetime as dt
import os
import random
import subprocess
from pathlib import Path
from typing import Any

from mcpbench.client import Call
from mcpbench.fixture import Fixture

# git without the user's or the system's config; the server's own log to its stderr kept to errors
# ("warning" is read as "warn", a level its logger does not know, and falls back to "info")
QUIET = ("GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null", "MCP_LOG_LEVEL=error")
AUTHORS = (
    ("Ada Quinn", "ada@example.org"),
    ("Bo Lindqvist", "bo@example.org"),
    ("Chidi Okafor", "chidi@example.org"),
)
FILES = ("src/orders.py", "src/prices.py", "src/stock.py", "src/report.py", "docs/guide.md", "README.md",
         "config.toml", "CHANGELOG.md")  # fmt: skip
WORDS = ("parser", "cache", "router", "config", "logger", "token", "index", "report", "export", "invoice",
         "catalog", "profile", "queue", "ledger", "widget")  # fmt: skip
VERBS = ("Fix", "Add", "Refactor", "Document", "Speed up", "Test", "Rename", "Remove")
FEATURES = ("search", "export", "dark-mode", "coupons", "audit-log", "bulk-edit")
GREP = ("Fix", "Add", "parser", "cache", "export", "invoice", "Merge", "report")


class _Repo:
    def __init__(self, path: Path, rng: random.Random) -> None:
        self.path, self.rng = path, rng
        self.when = dt.datetime(2025, 2, 3, 9, 0, tzinfo=dt.UTC)
        self.env = dict(os.environ, GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_SYSTEM=os.devnull)

    def git(self, *args: str) -> str:
        name, email = self.rng.choice(AUTHORS)
        self.when += dt.timedelta(hours=self.rng.randrange(1, 30), minutes=self.rng.randrange(60))
        stamp = self.when.strftime("%Y-%m-%dT%H:%M:%S+00:00")
        env = dict(self.env, GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=email, GIT_COMMITTER_NAME=name,
                   GIT_COMMITTER_EMAIL=email, GIT_AUTHOR_DATE=stamp, GIT_COMMITTER_DATE=stamp)  # fmt: skip
        done = subprocess.run(
            ["git", "-C", str(self.path), *args], env=env, capture_output=True, text=True, check=True
        )
        return done.stdout.strip()

    def edit(self, rel: str) -> None:
        path = self.path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a") as f:
            f.write(f"{self.rng.choice(WORDS)} = {self.rng.randrange(1000)}  # {self.rng.choice(WORDS)}\n")

    def commit(self, files: int = 1) -> str:
        for rel in self.rng.sample(FILES, files):
            self.edit(rel)
        self.git("add", "-A")
        self.git(
            "commit",
            "-q",
            "-m",
            f"{self.rng.choice(VERBS)} {self.rng.choice(WORDS)} {self.rng.choice(WORDS)}",
        )
        return self.git("rev-parse", "HEAD")


def history_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    root = work / "project"
    root.mkdir()
    repo = _Repo(root, rng)
    repo.git("init", "-q", "-b", "main")
    shas: list[str] = []
    tags: list[str] = []
    branches: list[str] = []
    for i in range(45):
        shas.append(repo.commit(rng.randrange(1, 4)))
        if i % 6 == 5:
            tag = f"v0.{i // 6 + 1}.{rng.randrange(4)}"
            if rng.random() < 0.5:
                repo.git(
                    "tag", "-a", tag, "-m", f"Release {tag}: {rng.choice(VERBS).lower()} {rng.choice(WORDS)}"
                )
            else:
                repo.git("tag", tag)
            tags.append(tag)
        if i in (10, 18, 26, 34, 40):
            kind = "fix" if i % 4 else "feature"
            branch = f"{kind}/{FEATURES[len(branches) % len(FEATURES)]}"
            repo.git("checkout", "-q", "-b", branch)
            for _ in range(rng.randrange(1, 5)):
                shas.append(repo.commit())
            repo.git("checkout", "-q", "main")
            if rng.random() < 0.5:
                repo.git("merge", "-q", "--no-ff", "-m", f"Merge {branch}", branch)
                shas.append(repo.git("rev-parse", "HEAD"))
            branches.append(branch)
    repo.edit("src/orders.py")  # a stash, then a working tree with changes of each kind
    repo.git("stash", "push", "-q", "-m", f"wip: {rng.choice(WORDS)} {rng.choice(WORDS)}")
    dirty = rng.sample(FILES, 2)
    for rel in dirty:
        repo.edit(rel)
    (root / "src" / "notes.py").write_text(f"# staged, not committed\nLIMIT = {rng.randrange(10, 99)}\n")
    repo.git("add", "src/notes.py")
    (root / "scratch.txt").write_text(f"todo: {rng.choice(WORDS)}\n")
    # blame only files the working tree leaves as committed (an uncommitted line's time is the clock's)
    lines = {rel: len((root / rel).read_text().splitlines()) for rel in FILES if rel not in dirty}
    facts: dict[str, Any] = {"repo": str(root), "shas": shas, "tags": tags, "branches": branches, "lines": lines,
                             "first": dt.date(2025, 2, 3), "last": repo.when.date()}  # fmt: skip
    return Fixture(["env", f"GIT_BASE_DIR={work}", *QUIET, *binary], facts)


def _ref(rng: random.Random, facts: dict[str, Any]) -> str:
    shas: list[str] = facts["shas"]
    k = rng.randrange(len(shas))
    return rng.choice((shas[k], shas[k][:7], shas[k][:10], rng.choice(facts["tags"]), f"HEAD~{rng.randrange(0, 30)}",
                       rng.choice(facts["branches"])))  # fmt: skip


def history_call(rng: random.Random, fx: Fixture) -> Call:
    facts = fx.facts
    repo = {"path": facts["repo"]}
    r = rng.random()
    if r < 0.22:
        args: dict[str, Any] = {**repo, "maxCount": rng.randrange(1, 16)}
        extra = rng.random()
        if extra < 0.2:
            args["skip"] = rng.randrange(1, 30)
        elif extra < 0.35:
            args["author"] = rng.choice(("Ada", "Bo", "Chidi"))
        elif extra < 0.5:
            args["grep"] = rng.choice(GREP)
        elif extra < 0.65:
            args["filePath"] = rng.choice(FILES)
        elif extra < 0.75:
            args["branch"] = rng.choice(facts["branches"])
        elif extra < 0.85:
            span = (facts["last"] - facts["first"]).days
            start = facts["first"] + dt.timedelta(days=rng.randrange(span))
            args["since"] = start.isoformat()
            args["until"] = (start + dt.timedelta(days=rng.randrange(3, 40))).isoformat()
        if rng.random() < 0.15:
            args["stat"] = True
        return "git_log", args
    if r < 0.4:
        return "git_show", {**repo, "object": _ref(rng, facts), "stat": rng.random() < 0.7}
    if r < 0.52:
        rel = rng.choice(sorted(facts["lines"]))
        n = facts["lines"][rel]
        start = rng.randrange(1, n + 1)
        span = (
            {"startLine": start, "endLine": rng.randrange(start, min(n, start + 8) + 1)}
            if rng.random() < 0.8
            else {}
        )
        return "git_blame", {**repo, "filePath": rel, **span}
    if r < 0.6:
        which = rng.random()
        if which < 0.5:
            limit = {"limit": rng.randrange(1, 9)} if rng.random() < 0.6 else {}
            return "git_branch", {**repo, **limit, **({"all": True} if rng.random() < 0.3 else {})}
        if which < 0.6:
            return "git_branch", {**repo, "mode": "show-current"}
        key = rng.choice(("merged", "noMerged"))
        return "git_branch", {
            **repo,
            key: rng.choice((True, "main", rng.choice(facts["tags"]), _ref(rng, facts))),
        }
    if r < 0.65:
        return "git_tag", {**repo, **({"limit": rng.randrange(1, 9)} if rng.random() < 0.7 else {})}
    if r < 0.69:
        return "git_status", {**repo, **({"includeUntracked": False} if rng.random() < 0.3 else {})}
    if r < 0.86:
        args = {**repo, "target": _ref(rng, facts)}
        if rng.random() < 0.6:
            args["source"] = _ref(rng, facts)
        option = rng.choice(("stat", "nameOnly", "stat", None))
        if option:
            args[option] = True
        elif rng.random() < 0.5:
            args["paths"] = rng.sample(FILES, rng.randrange(1, 3))
        return "git_diff", args
    if r < 0.96:
        return "git_reflog", {**repo, "ref": rng.choice(("HEAD", "main", *facts["branches"])),
                              "maxCount": rng.randrange(1, 20)}  # fmt: skip
    if r < 0.98:
        return "git_stash", {**repo, "mode": "list"}
    return "git_worktree", {**repo, "mode": "list", **({"verbose": True} if rng.random() < 0.5 else {})}
