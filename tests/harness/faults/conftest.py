"""Makes this folder's helper module (faults_fakes) importable under --import-mode=importlib."""

import sys
from pathlib import Path

_HERE = str(Path(__file__).parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
