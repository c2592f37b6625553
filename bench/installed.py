"""deckpress as pip installs it, for the child processes the bench scripts time.

pip byte-compiles a package as it installs it. A checkout installed in editable mode on a machine that
sets PYTHONDONTWRITEBYTECODE (this one does) compiles deckpress's modules again at every run instead,
about 45 ms of each command. Imported by a script, this lets its children compile once, into a cache
folder of their own, and read the compiled modules from then on.
"""

import os
import tempfile

os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
os.environ.setdefault("PYTHONPYCACHEPREFIX", os.path.join(tempfile.gettempdir(), "deckpress-bench-pycache"))
