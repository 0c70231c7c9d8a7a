"""The pinned tau-bench files of both domains: names, sha256 values and where upstream's tree holds them.

Values are those of ../shared/taubench/SOURCE.md, airline/SOURCE.md and upstream/SOURCE.md
(upstream commit 59a200c). Each domain's data folder holds its database files, its policy
(``wiki.md``) and its task lists as JSON; upstream ships the task lists as Python modules, pinned
here too, which ``fetch`` converts (``taskfile``). Knows nothing about loading or tools.
"""

from __future__ import annotations

UPSTREAM_COMMIT = "59a200c6d575d595120f1cb70fea53cef0632f6b"
UPSTREAM_RAW = f"https://raw.githubusercontent.com/sierra-research/tau-bench/{UPSTREAM_COMMIT}"
DOMAINS = ("retail", "airline")

# every file a domain's data folder holds, with its sha256
SHA256: dict[str, dict[str, str]] = {
    "retail": {
        "users.json": "6f4fd104cc5e80b92166c4035315c31532c6cea52a90dcdf18425ee7f87c2b82",
        "orders.json": "2598a12586d28f2d6bd16bc86f4c800029b6af18e0abb5c475ef5c869c11ced1",
        "products.json": "a9eabcc1a9742c5f5288c2779acce52b9308423383ed24706bbaf0889f762a0f",
        "wiki.md": "d539fd2a46a8b8dd2e934ff9ed92f43e9f6b56bc7a718db8d2803ba8ad8f6bf7",
        "tasks_test.json": "120112510864e5c7d5cf6563db2d33ddd6c0190eb18f70d264791298d886ee58",
        "tasks_train.json": "abdcac69b80a899468b5643cc07b3e649c67a01b3df0e1378d4aa290126bb516",
        "tasks_dev.json": "586523860d58aea22c51f9094d4b80ae80fbac186243a678c69fac3aa84974af",
    },
    "airline": {
        "flights.json": "444d7565c68434a3e3fb72efd717f9f9cd5c56dce227f6f56e078f1cb0ed233a",
        "reservations.json": "1cf0bbc58ad984be9de7c24dba6dd27393f94cdbd482d8524f6a54db1f561a8c",
        "users.json": "bd264e2a31e0fa35cdfef8987e70a0dd3776828b582fe90e7a44823a12eb4cea",
        "wiki.md": "56c335801c16e26b54f600f9db99eb04d31db477e86eb160341d5c66b796c5c8",
        "tasks_test.json": "fd7f8f3c8d06dd69ca10b6899e79d24b17c9ef9fb8da670a51bdc75227b0079c",
    },
}

DB_FILES: dict[str, tuple[str, ...]] = {
    "retail": ("users.json", "orders.json", "products.json"),
    "airline": ("flights.json", "reservations.json", "users.json"),
}
TASK_FILES: dict[str, dict[str, str]] = {
    "retail": {"test": "tasks_test.json", "train": "tasks_train.json", "dev": "tasks_dev.json"},
    "airline": {"test": "tasks_test.json"},
}

# upstream's task modules, as upstream serves them; the JSON task list converted from each
MODULE_SHA256: dict[str, str] = {
    "tau_bench/envs/retail/tasks_test.py": "6f09468923c6cfb6162e94fe659264d6aee70816c18d51278fb4a581db7765a4",
    "tau_bench/envs/retail/tasks_train.py": "30880ce4e8d524dd0fdd18c1d3a5713551fc8638e82673de3e0fd1ab70046c6f",
    "tau_bench/envs/retail/tasks_dev.py": "87dfe578d0271e7b0b5dfb40621a5c0dcc0e8452a75b8f3f8d1dcf0abac4ff14",
    "tau_bench/envs/airline/tasks_test.py": "14cdb6b4fe810faac9a0cc8395d3c7b32c883a979d1cde8c8003ae25a93d2ff3",
}

# upstream's published model trajectories (``historical_trajectories/``; 200 GPT-4o airline runs, 50 tasks
# x 4 trials), fetched into ``<root>/historical/``: the real traffic ``python -m harness.evaluations organic`` reads
HISTORICAL_DIR = "historical"
HISTORICAL_SHA256: dict[str, str] = {
    "gpt-4o-airline.json": "e9e6c0297660c537f83d4fd9c476ce7a9a86ecd2784874b7bfc13be598e37bfa",
}


def historical_upstream_path(name: str) -> str:
    return f"historical_trajectories/{name}"


def upstream_path(domain: str, name: str) -> str:
    """Where upstream's tree holds a data-folder file: the file itself, or the module a task list comes from."""
    if name in DB_FILES[domain]:
        return f"tau_bench/envs/{domain}/data/{name}"
    if name == "wiki.md":
        return f"tau_bench/envs/{domain}/wiki.md"
    split = next(s for s, f in TASK_FILES[domain].items() if f == name)
    return f"tau_bench/envs/{domain}/tasks_{split}.py"


SPLITS_OF: dict[str, tuple[str, ...]] = {d: tuple(files) for d, files in TASK_FILES.items()}
