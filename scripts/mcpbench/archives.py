"""archive-mcp (PyPI, the SDK 1.x's low-level server): a print shop's job archives, listed, described, packed
and unpacked.

Its results are one bare text block and no structured content: a listing under a ``=`` rule (the archive's
name, format, file count and total size, then ``  - path (1.07 KB)`` a line per member), an info card with
emoji labels (format in capitals, total files, original and compressed sizes, a compression ratio as a
percentage, the first ten members with a padlock each), a packing report (inputs counted, the output path,
format, size, whether it is encrypted) and an unpacking report (archives processed, succeeded and failed,
files extracted, one paragraph per archive). The fixture is a folder of jobs (order sheets as CSV, proof
notes, press logs, small binary previews) and seventy-odd archives of them made here: ZIP (deflated or
stored), tar and tar.gz with the standard library, 7z with the server's own py7zr when the server is
installed. Packing writes to a fresh name under ``packed/`` and unpacking to a fresh folder under
``unpacked/``, both with overwrite on, so a call sent again answers as it did.
"""

from __future__ import annotations

import io
import random
import subprocess
import tarfile
import zipfile
from pathlib import Path
from typing import Any

from mcpbench.client import Call
from mcpbench.fixture import FIRST, LAST, Fixture

PAPERS = ("A4 gloss", "A3 matte", "A5 recycled", "letter bond", "card 300gsm")
STAGES = ("queued", "proofed", "printed", "trimmed", "bound", "shipped")
STAMP = (2025, 3, 14, 9, 30, 0)  # every member's date: the listings never show it, the bytes stay seeded
MTIME = 1_741_944_600


def _job_files(rng: random.Random, job: str) -> dict[str, bytes]:
    rows = ["line,paper,copies,unit_price"] + [
        f"{i},{rng.choice(PAPERS)},{rng.randrange(10, 5000)},{rng.uniform(0.02, 3.5):.3f}" for i in range(rng.randrange(3, 60))
    ]  # fmt: skip
    log = [f"2025-03-{rng.randrange(1, 29):02d} {rng.randrange(24):02d}:{rng.randrange(60):02d} press-{rng.randrange(1, 5)} "
           f"{rng.choice(STAGES)} sheets={rng.randrange(50, 20000)}" for _ in range(rng.randrange(5, 400))]  # fmt: skip
    files = {
        f"{job}/order.csv": "\n".join(rows).encode(),
        f"{job}/press.log": "\n".join(log).encode(),
        f"{job}/notes/proof.txt": (
            f"Proof for {rng.choice(FIRST)} {rng.choice(LAST)}: " + "colour ok. " * rng.randrange(1, 40)
        ).encode(),
    }
    if rng.random() < 0.6:  # a preview: noise, so it hardly compresses
        files[f"{job}/preview.bin"] = bytes(rng.randrange(256) for _ in range(rng.randrange(200, 6000)))
    if rng.random() < 0.4:
        files[f"{job}/notes/empty.txt"] = b""
    return files


def _zip(path: Path, members: dict[str, bytes], stored: bool) -> None:
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members.items():
            info = zipfile.ZipInfo(name, STAMP)
            info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
            z.writestr(info, data)


def _tar(path: Path, members: dict[str, bytes], gz: bool) -> None:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as t:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(data), MTIME
            t.addfile(info, io.BytesIO(data))
    if gz:
        import gzip

        path.write_bytes(gzip.compress(raw.getvalue(), mtime=0))
    else:
        path.write_bytes(raw.getvalue())


SEVEN = """import py7zr, sys
from pathlib import Path
root = Path(sys.argv[1])
for spec in sys.argv[2:]:
    target, *members = spec.split("|")
    with py7zr.SevenZipFile(target, "w") as z:
        for m in members:
            z.write(root / m, m)
"""


def archives_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    jobs = work / "jobs"
    store = work / "archives"
    store.mkdir(parents=True)
    (work / "packed").mkdir()
    (work / "unpacked").mkdir()
    every: dict[str, bytes] = {}
    names = [f"job-{2500 + k * 7 + rng.randrange(7)}" for k in range(24)]
    for job in names:
        every |= _job_files(rng, job)
    for name, data in every.items():
        (jobs / name).parent.mkdir(parents=True, exist_ok=True)
        (jobs / name).write_bytes(data)
    archives: list[str] = []
    sevens: list[str] = []
    for k in range(72):
        picked = rng.sample(names, rng.randrange(1, 5))
        members = {n: d for n, d in every.items() if n.split("/")[0] in picked}
        if rng.random() < 0.3:  # a partial pack: some jobs' files left out
            members = {n: d for n, d in members.items() if rng.random() < 0.6} or members
        kind = rng.choice(("zip", "zip", "stored.zip", "tar", "tar.gz", "tar.gz", "7z"))
        path = store / f"batch-{k:02d}-{picked[0]}.{kind.removeprefix('stored.')}"
        if kind.endswith("zip"):
            _zip(path, members, stored=kind == "stored.zip")
        elif kind.startswith("tar"):
            _tar(path, members, gz=kind == "tar.gz")
        else:
            sevens.append("|".join([str(path), *members]))
            continue
        archives.append(str(path))
    python = Path(binary[0]).parent / "python"
    if sevens and python.is_file():  # py7zr comes with the server; without the install no 7z is made
        subprocess.run([str(python), "-c", SEVEN, str(jobs), *sevens], check=True, capture_output=True)
        archives += [s.split("|")[0] for s in sevens]
    files = sorted(every)
    return Fixture([*binary], {"archives": sorted(archives), "jobs": str(jobs), "names": names, "files": files,
                               "packed": str(work / "packed"), "unpacked": str(work / "unpacked")})  # fmt: skip


def archives_call(rng: random.Random, fx: Fixture) -> Call:
    archives: list[str] = fx.facts["archives"]
    jobs = Path(fx.facts["jobs"])
    r = rng.random()
    if r < 0.36:
        return "list_archive", {"input": rng.choice(archives)}
    if r < 0.7:
        return "get_archive_info", {"input": rng.choice(archives)}
    fresh = f"{rng.getrandbits(40):010x}"
    if r < 0.86:
        if rng.random() < 0.4:
            inputs: Any = str(jobs / rng.choice(fx.facts["names"]))
        else:
            inputs = [str(jobs / f) for f in rng.sample(fx.facts["files"], rng.randrange(1, 7))]
        fmt = rng.choice(("zip", "7z", "tar", "tar.gz"))
        args: dict[str, Any] = {"input": inputs, "format": fmt, "overwrite": True,
                                "output": str(Path(fx.facts["packed"]) / f"{fresh}.{fmt}")}  # fmt: skip
        if fmt != "tar" and fmt != "tar.gz":
            args["compression_level"] = rng.randrange(0, 10)
            if rng.random() < 0.2:
                args["password"] = f"press-{rng.randrange(1000)}"
        return "compress", args
    picked = rng.sample(archives, rng.choice((1, 1, 1, 2, 3)))
    source: Any = picked[0] if len(picked) == 1 and rng.random() < 0.7 else picked
    return "extract", {"input": source, "output": str(Path(fx.facts["unpacked"]) / fresh), "overwrite": True}
