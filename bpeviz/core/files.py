"""Writing a file so that a failure leaves any old file intact (every file bpeviz writes)."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path


def write_atomic(path: str | os.PathLike[str], content: str | bytes) -> None:
    """Write ``content`` to ``path`` so that a failure leaves any old file intact.

    The data goes to a hidden temporary file beside ``path``, then replaces it; an
    OSError names ``path`` (not the temporary file) and says why it cannot be written.
    The file gets the mode a plain ``open(path, "w")`` would give it: an existing file's
    own, else 0666 less the umask (0644 under umask 022), not mkstemp's 0600.
    """
    target = Path(path)
    data = content.encode("utf-8") if isinstance(content, str) else content
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:  # a new file (or one we cannot stat: the write says why)
        mode = 0o666 & ~_umask()
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or ".")
    except OSError as err:
        raise _write_error(err, target) from None
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException as err:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(err, OSError):
            raise _write_error(err, target) from None
        raise


def _umask() -> int:
    """The process's umask, read without changing it where the system says it
    (``/proc/self/status`` on Linux 4.7+); else set and restored at once."""
    with contextlib.suppress(OSError, ValueError), \
            open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _write_error(err: OSError, target: Path) -> OSError:
    """``err`` (same class, so callers can still tell them apart) naming ``target``."""
    parent = target.parent
    if parent.exists() and not parent.is_dir():
        why = f"{parent} is a file, not a folder"
    elif not parent.is_dir():
        why = f"the folder {parent} does not exist"
    elif target.is_dir():
        why = "it is a folder"
    else:
        why = (err.strerror or str(err)).rstrip(".")
        if isinstance(err, PermissionError):
            why += f" (bpeviz writes a temporary file in {parent}, then renames it)"
    return type(err)(f"cannot write {target}: {why}")
