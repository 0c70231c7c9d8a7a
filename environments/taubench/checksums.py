"""The pinned tau-bench retail files: names, sha256 values and where upstream publishes them.

Values are those of /work/shared/taubench/SOURCE.md (upstream commit 59a200c). Knows nothing
about loading or tools.
"""

from __future__ import annotations

UPSTREAM_COMMIT = "59a200c6d575d595120f1cb70fea53cef0632f6b"
UPSTREAM_RAW = f"https://raw.githubusercontent.com/sierra-research/tau-bench/{UPSTREAM_COMMIT}"

SHA256: dict[str, str] = {
    "users.json": "6f4fd104cc5e80b92166c4035315c31532c6cea52a90dcdf18425ee7f87c2b82",
    "orders.json": "2598a12586d28f2d6bd16bc86f4c800029b6af18e0abb5c475ef5c869c11ced1",
    "products.json": "a9eabcc1a9742c5f5288c2779acce52b9308423383ed24706bbaf0889f762a0f",
    "wiki.md": "d539fd2a46a8b8dd2e934ff9ed92f43e9f6b56bc7a718db8d2803ba8ad8f6bf7",
    "tasks_test.json": "120112510864e5c7d5cf6563db2d33ddd6c0190eb18f70d264791298d886ee58",
    "tasks_train.json": "abdcac69b80a899468b5643cc07b3e649c67a01b3df0e1378d4aa290126bb516",
    "tasks_dev.json": "586523860d58aea22c51f9094d4b80ae80fbac186243a678c69fac3aa84974af",
}

DB_FILES = ("users.json", "orders.json", "products.json")
TASK_FILES = {"test": "tasks_test.json", "train": "tasks_train.json", "dev": "tasks_dev.json"}
SPLITS = tuple(TASK_FILES)

# Files upstream publishes as they are (the task lists upstream are Python modules; the JSON
# conversions are served only by a mirror given with --base-url, or copied by hand).
UPSTREAM_URLS: dict[str, str] = {
    "users.json": f"{UPSTREAM_RAW}/tau_bench/envs/retail/data/users.json",
    "orders.json": f"{UPSTREAM_RAW}/tau_bench/envs/retail/data/orders.json",
    "products.json": f"{UPSTREAM_RAW}/tau_bench/envs/retail/data/products.json",
    "wiki.md": f"{UPSTREAM_RAW}/tau_bench/envs/retail/wiki.md",
}
