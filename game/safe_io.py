"""Every file the game writes goes through here: checked before a long run, written atomically
(a temporary file beside the target, flushed, fsynced, then ``os.replace``), written through a
symlink to its target, and never over a directory, a FIFO or a device. The files it reads whole
go through :func:`read_regular`: regular files of bounded size only, so that a FIFO, a device
or a symlink to one never blocks or fills memory.

A failure raises :class:`OutputError` whose message is one line naming the file; the old file
is untouched and no temporary file is left behind.

A write killed outright (SIGKILL, a power cut) cannot clean up after itself, so temporary files
carry their writer's process id (``.NAME.PID.RANDOM.tmp``) and the next write to the same
target removes those whose writer is no longer running (:func:`clear_stale_temps`). SIGTERM is
turned into :class:`Terminated` by :func:`exit_cleanly_on_sigterm` (the command line installs
it), which unwinds like Ctrl+C: the temporary file is removed and the process exits with 143.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import signal
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import BinaryIO

__all__ = [
    "InputError",
    "OutputError",
    "Terminated",
    "atomic_write",
    "check_output",
    "clear_stale_temps",
    "exit_cleanly_on_sigterm",
    "fsync_dir",
    "one_line",
    "raise_if_terminated",
    "read_regular",
    "real_target",
    "set_aside",
    "unique_sibling",
]


#: A temporary file younger than this is never removed by another write (its writer may be on
#: another machine); older, it goes when its writer is gone (or it has no writer's id).
TEMP_MIN_AGE_S = 60.0
#: The part of a temporary file's name between ``.NAME.`` and ``.tmp``: the writer's process
#: id and ``tempfile``'s eight random characters; before ids were added, the random part alone.
_TEMP_MIDDLE = re.compile(r"([0-9]{1,10})\.[a-z0-9_]{8}", re.ASCII)
_LEGACY_MIDDLE = re.compile(r"[a-z0-9_]{8}", re.ASCII)


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread so that it unwinds like Ctrl+C (``finally`` blocks
    run: a write in progress removes its temporary file)."""


_terminated = False


def exit_cleanly_on_sigterm() -> None:
    """Make SIGTERM raise :class:`Terminated` in the main thread (call it from there).

    An exception raised in a signal handler can be swallowed: when the signal lands while
    Python code runs inside a C library's callback (pymunk's collision handlers go through
    cffi, which prints the error and carries on). So the handler also leaves a flag that long
    loops check with :func:`raise_if_terminated`.
    """

    def terminated(signum: int, frame: object) -> None:
        global _terminated
        _terminated = True
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM ends it outright
        raise Terminated()

    signal.signal(signal.SIGTERM, terminated)


def raise_if_terminated() -> None:
    """Raise :class:`Terminated` if SIGTERM arrived (and its exception was lost on the way);
    a long loop calls this once per round."""
    if _terminated:
        raise Terminated()


def _alive(pid: int) -> bool:
    """Whether a process with id ``pid`` runs (another user's counts as running)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it exists, someone else's
        return True
    return True


def clear_stale_temps(folder: Path, name: str) -> list[Path]:
    """Remove the temporary files of earlier writes of ``folder / name`` whose writer is gone
    (killed before it could clean up); returns them. Temporaries of running writers stay.
    Never raises."""
    removed: list[Path] = []
    prefix = f".{name}."
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    now = time.time()
    for entry in entries:
        fname = entry.name
        if not (fname.startswith(prefix) and fname.endswith(".tmp")):
            continue
        middle = fname[len(prefix) : -len(".tmp")]
        ours = _TEMP_MIDDLE.fullmatch(middle)  # "PID.RANDOM"
        legacy = _LEGACY_MIDDLE.fullmatch(middle)  # "RANDOM" (no writer's id)
        try:
            if ours is None and legacy is None:  # another target's (".a.b.PID.X.tmp" for "a")
                continue
            # Never one written in the last minute (a writer elsewhere, on a shared disk, has
            # an id this machine does not know); then a dead writer's, or an old id-less one.
            stale = now - entry.stat(follow_symlinks=False).st_mtime > TEMP_MIN_AGE_S
            if stale and ours is not None:
                pid = int(ours[1])
                stale = pid != os.getpid() and not _alive(pid)
            if stale and entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except (OSError, OverflowError, ValueError):
            continue
    return removed


class OutputError(OSError):
    """A file the game should write cannot be written; the message is one line.

    Attributes:
        reason: why, without the file's name (for callers that name the file themselves).
    """

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason if reason is not None else message

    def __str__(self) -> str:
        return str(self.args[0])


class InputError(OSError):
    """A file the game should read is not a regular file of bounded size, or cannot be read;
    the message is one line naming the file.

    Attributes:
        reason: why, without the file's name.
    """

    def __init__(self, file: Path, reason: str) -> None:
        super().__init__(one_line(f"{file}: {reason}"))
        self.file = file
        self.reason = one_line(reason)

    def __str__(self) -> str:
        return str(self.args[0])


def _regular_problem(info: os.stat_result, max_bytes: int, what: str) -> str:
    """Why a file with ``info`` is not read: "" when it is a regular file within bounds."""
    if stat.S_ISDIR(info.st_mode):
        return f"is a directory, not a {what}"
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file (a FIFO, socket or device)"
    if info.st_size > max_bytes:
        return f"file is {info.st_size:,} bytes; at most {max_bytes:,}"
    return ""


def read_regular(path: str | os.PathLike[str], *, max_bytes: int, what: str = "file") -> bytes:
    """The bytes of ``path`` when it is a regular file (after symlinks) of at most
    ``max_bytes``; anything else is refused before a byte is read.

    The name is looked at (``stat``), then opened without blocking and looked at again through
    the open handle, so a FIFO, socket or device (``/dev/zero``, a symlink to it, a FIFO put in
    the file's place between the two looks) is never read: opening a FIFO for reading blocks
    until a writer comes, and a device can be endless. A file that grows past ``max_bytes``
    while it is read is refused too.

    Args:
        path: The file.
        max_bytes: The largest file read.
        what: What the file is, for messages (``"level file"``).

    Raises:
        InputError: one line naming the file and why.
    """
    file = Path(path)
    try:
        problem = _regular_problem(os.stat(file), max_bytes, what)
        if problem:
            raise InputError(file, problem)
        flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)
        fd = os.open(file, flags | getattr(os, "O_CLOEXEC", 0))
        try:
            problem = _regular_problem(os.fstat(fd), max_bytes, what)
            if problem:  # swapped for something else after the first look
                raise InputError(file, problem)
            data = _read_fd(fd, max_bytes + 1)
        finally:
            os.close(fd)
    except InputError:
        raise
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # strerror: "Too many levels of symbolic links"
            raise InputError(file, "cannot read: symbolic link loop") from exc
        raise InputError(file, f"cannot read: {exc.strerror or exc}") from exc
    except RuntimeError as exc:  # pathlib's own "symlink loop" on some Pythons
        raise InputError(file, f"cannot read: {exc}") from exc
    if len(data) > max_bytes:  # it grew after the check
        raise InputError(file, f"file is larger than {max_bytes:,} bytes")
    return data


def _read_fd(fd: int, limit: int) -> bytes:
    """Up to ``limit`` bytes from ``fd`` (fewer at the end of the file)."""
    chunks: list[bytes] = []
    left = limit
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 24))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def one_line(text: str) -> str:
    """``text`` with line breaks and other control characters escaped (``\\r``, ``\\x1b``),
    so that a file name a user typed cannot break a one-line message."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _fail(given: object, reason: str, what: str = "") -> OutputError:
    lead = f"cannot write {what} {given}" if what else f"cannot write {given}"
    return OutputError(one_line(f"{lead}: {reason}"), one_line(reason))


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def real_target(path: str | os.PathLike[str]) -> Path:
    """The file a write to ``path`` must replace: a symlink's final target (so the link stays
    a link and the file it names gets the new content); ``path`` itself otherwise.

    Raises:
        OutputError: for a symlink loop, or a target that exists and is not a regular file
            (a directory, a FIFO, a device).
    """
    if os.fspath(path) == "":  # Path("") would quietly mean the current folder
        raise _fail("''", "an empty file name")
    given = Path(path)
    try:
        target = Path(os.path.realpath(given, strict=False))
        if given.is_symlink() and target == given.absolute():
            raise _fail(given, "symbolic link loop")
        info = target.stat()
    except FileNotFoundError:
        return target
    except OutputError:
        raise
    except OSError as exc:  # a link loop, a name too long, a component that is a file, ...
        if exc.errno == errno.ELOOP:
            raise _fail(given, "symbolic link loop") from exc
        raise _fail(given, _reason(exc)) from exc
    if stat.S_ISDIR(info.st_mode):
        raise _fail(given, "it is a directory")
    if not stat.S_ISREG(info.st_mode):
        raise _fail(given, "not a regular file (a FIFO, socket or device)")
    return target


def check_output(
    path: str | os.PathLike[str],
    *,
    suffixes: Iterable[str] | None = None,
    what: str = "output",
) -> Path:
    """Make sure ``path`` can be written before a long run starts; return the real target.

    The folder must exist (nothing is created for a mistyped path) and accept a new file: a
    probe file named as the write's own temporary file will be (``.NAME.PID.XXXXXXXX.tmp``,
    so a name too long for it fails here, not after the run) is made there and removed.
    ``suffixes`` (lower case, with the dot) restricts the extension.

    Raises:
        OutputError: one line saying why not.
    """
    given = Path(path)
    if suffixes is not None:
        allowed = sorted(set(suffixes))
        suffix = given.suffix.lower()
        if suffix not in allowed:
            got = f"{given.suffix!r}" if given.suffix else "none"
            raise _fail(given, f"extension {got}; use one of {', '.join(allowed)}", what)
    target = real_target(given)
    folder = target.parent
    try:
        is_folder = folder.is_dir()
    except OSError as exc:
        raise _fail(given, _reason(exc), what) from exc
    if not is_folder:
        what_is = "is not a folder" if folder.exists() else "does not exist"
        raise _fail(given, f"folder {folder} {what_is}", what)
    try:
        fd, probe = tempfile.mkstemp(
            prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=folder
        )
    except OSError as exc:
        raise _fail(given, _reason(exc), what) from exc
    try:
        # One byte, synced: a full disk still has room for an empty file's entry.
        os.write(fd, b"\0")
        os.fsync(fd)
    except OSError as exc:
        raise _fail(given, _reason(exc), what) from exc
    finally:
        os.close(fd)
        os.unlink(probe)
    return target


def fsync_dir(folder: Path) -> None:
    """Flush a folder's entry table so a rename survives a crash (best effort)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write(
    path: str | os.PathLike[str],
    data: bytes | Callable[[BinaryIO], object],
    *,
    mode: int | None = None,
    backup: Path | None = None,
    backup_data: bytes | None = None,
) -> Path:
    """Replace the file at ``path`` with ``data`` (bytes, or a function writing to a binary
    handle) atomically, through symlinks; returns the file written.

    Args:
        path: the file to write.
        data: the new content, or a writer called with the open temporary file.
        mode: permission bits (default: the old file's, else 0o644).
        backup: also keep the old content here (written atomically too) before replacing.
        backup_data: the old content as the caller read (and checked) it, kept in ``backup``
            instead of reading the file again; None: read it here (a regular file of any size).

    The temporary file is ``.NAME.PID.RANDOM.tmp`` beside the target; one left by a writer
    that was killed is removed by the next write to the same target (see the module's
    docstring).

    Raises:
        OutputError: one line naming the file; the old file and the backup are untouched and
            no temporary file is left.
    """
    target = real_target(path)
    folder = target.parent
    temps: list[Path] = []
    try:
        if not folder.is_dir():
            raise _fail(path, f"folder {folder} does not exist")
        clear_stale_temps(folder, target.name)
        exists = target.exists()
        bits = (
            mode if mode is not None else (stat.S_IMODE(target.stat().st_mode) if exists else 0o644)
        )
        tmp = _write_temp(folder, target.name, data, bits, temps)
        if backup is not None and (exists or backup_data is not None):
            old = (
                backup_data
                if backup_data is not None
                else read_regular(target, max_bytes=sys.maxsize, what="file")
            )
            bak_target = real_target(backup)
            bak_tmp = _write_temp(bak_target.parent, bak_target.name, old, bits, temps)
            os.replace(bak_tmp, bak_target)
            temps.remove(bak_tmp)
        os.replace(tmp, target)
        temps.remove(tmp)
    except OutputError:
        raise
    except InputError as exc:
        raise _fail(path, f"cannot keep the old file: {exc.reason}") from exc
    except OSError as exc:
        raise _fail(path, _reason(exc)) from exc
    finally:
        for leftover in temps:
            with contextlib.suppress(OSError):
                leftover.unlink(missing_ok=True)
    fsync_dir(folder)
    return target


def _write_temp(
    folder: Path,
    name: str,
    data: bytes | Callable[[BinaryIO], object],
    mode: int,
    temps: list[Path],
) -> Path:
    fd, tmp_name = tempfile.mkstemp(prefix=f".{name}.{os.getpid()}.", suffix=".tmp", dir=folder)
    tmp = Path(tmp_name)
    temps.append(tmp)
    with os.fdopen(fd, "wb") as handle:
        if isinstance(data, bytes | bytearray | memoryview):
            handle.write(data)
        else:
            data(handle)
        handle.flush()
        os.fsync(handle.fileno())
    os.chmod(tmp, mode)
    return tmp


def unique_sibling(path: Path, suffix: str) -> Path:
    """A name beside ``path`` that does not exist yet: ``NAME{suffix}``, then
    ``NAME{suffix}.1``, ``NAME{suffix}.2``, ..."""
    first = path.with_name(path.name + suffix)
    if not os.path.lexists(first):
        return first
    k = 1
    while os.path.lexists(path.with_name(f"{path.name}{suffix}.{k}")):
        k += 1
    return path.with_name(f"{path.name}{suffix}.{k}")


def set_aside(path: Path, suffix: str = ".corrupt") -> Path:
    """Move a regular file out of the way under a name no earlier file has (the first set
    aside is never overwritten by a later one); returns the new name.

    Raises:
        OutputError: for a non-regular file (never moved) or a failed move.
    """
    info = os.lstat(path)
    if not stat.S_ISREG(info.st_mode):
        raise OutputError(f"{path} is not a regular file; left as it is")
    for _ in range(100):
        dest = unique_sibling(path, suffix)
        try:
            os.link(path, dest)  # fails if dest appeared meanwhile: never overwrites
        except FileExistsError:
            continue
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EXDEV, errno.EMLINK):
                raise OutputError(f"cannot set aside {path}: {_reason(exc)}") from exc
            try:
                os.replace(path, dest)  # no hard links here: a plain rename
            except OSError as exc2:
                raise OutputError(f"cannot set aside {path}: {_reason(exc2)}") from exc2
            return dest
        try:
            os.unlink(path)
        except OSError as exc:
            raise OutputError(f"cannot set aside {path}: {_reason(exc)}") from exc
        return dest
    raise OutputError(f"cannot set aside {path}: no free name")
