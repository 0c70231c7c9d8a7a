"""The harness's build backend: setuptools' own, for an editable install of the checkout only.

The harness runs where it was cloned: its Hydra configs (conf/), the worlds' data and the results live
beside the code, so a wheel of it installs a harness that cannot run (``python -m harness.run`` finds no
``conf``) and a non-editable build leaves ``build/`` in the checkout. ``pip install -e .`` (what
``make install`` does) goes through setuptools unchanged; a wheel or an sdist is refused by the first
hook a frontend calls, with one line, before any of the harness's dependencies is fetched. The monitor on
its own is a distribution of its own: ``pip install ./outcome-monitor``.
"""

from __future__ import annotations

import sys
from typing import Any, NoReturn

from setuptools import build_meta as _setuptools

MESSAGE = (
    "outcome-monitors (the experiment harness) runs from its checkout and is not built as a wheel or an "
    "sdist: run `make install` in the checkout (pip install -e . into .venv); the monitor alone is "
    "`pip install ./outcome-monitor`"
)


def _refuse(*_args: Any, **_kwargs: Any) -> NoReturn:
    # the hook runs in the frontend's subprocess: one line on stderr and a non-zero exit, no traceback
    print(f"error: {MESSAGE}", file=sys.stderr, flush=True)
    raise SystemExit(1)


# PEP 660: an editable install of the checkout, as setuptools does it
get_requires_for_build_editable = _setuptools.get_requires_for_build_editable
prepare_metadata_for_build_editable = _setuptools.prepare_metadata_for_build_editable
build_editable = _setuptools.build_editable

# PEP 517: every hook of a wheel or an sdist build refuses (a frontend may skip the optional ones)
get_requires_for_build_wheel = _refuse
prepare_metadata_for_build_wheel = _refuse
build_wheel = _refuse
get_requires_for_build_sdist = _refuse
build_sdist = _refuse
