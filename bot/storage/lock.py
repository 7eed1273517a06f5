"""One bot process per database: an OS-level lock on ``<database>.lock``.

``fcntl.flock`` on a sidecar file, taken without waiting and held for the life of the
process. The operating system releases it when the process ends in any way (exit,
crash, SIGKILL), so a killed bot never leaves a stale lock behind, and a second bot
started on the same database is refused at once with the holder's process id.

The sidecar's name comes from the database's resolved path, which covers a relative path,
another working directory and a symlink, but not a hard link (two names, one file). So
the database file itself is flocked too, as soon as it exists: any name of the same file
meets that lock. (Linux flock locks are independent of the POSIX locks SQLite takes; the
descriptor is closed only by release(), after the store is closed, because closing any
descriptor of the file drops this process's POSIX locks on it.)
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
from pathlib import Path
from types import TracebackType
from typing import Self

from bot.storage.errors import DatabaseReadOnly, StorageError


class DatabaseInUse(StorageError):
    """Another process holds the database's lock (another bot, a restore...)."""

    def __init__(self, database: Path, holder: str) -> None:
        self.database = database
        self.holder = holder
        who = f" (pid {holder})" if holder else ""
        text = (
            f"the database {database} is in use by another bot process{who}; "
            "stop that one first (one bot per database)"
        )
        super().__init__(text, key="err.storage.in_use")


def lock_path(database: str | Path) -> Path:
    """The lock file of a database: next to the real file, so two spellings of one
    database (a relative path, a symlink) share one lock."""
    return Path(f"{Path(database).resolve()}.lock")


class ProcessLock:
    """The held lock of one database; release() or process exit frees it."""

    def __init__(self, database: Path, fd: int) -> None:
        self.database = database
        self._fd: int | None = fd
        self._file_fd: int | None = None  # the flock on the database file itself

    @classmethod
    def acquire(cls, database: str | Path) -> ProcessLock:
        """Take the lock now or raise :class:`DatabaseInUse` (never waits)."""
        database = Path(database)
        path = lock_path(database)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError as exc:
            if exc.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
                raise
            raise DatabaseReadOnly(
                f"cannot open the lock file {path}: the database's folder "
                f"{path.parent} is read-only ({exc.strerror}); make it writable for the "
                "bot's user (SQLite also writes its journal files there)"
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = ""
            with contextlib.suppress(OSError):
                holder = os.pread(fd, 32, 0).decode(errors="replace").strip()
            os.close(fd)
            raise DatabaseInUse(database, holder) from None
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        lock = cls(database, fd)
        try:
            lock.lock_file()
        except BaseException:
            lock.release()
            raise
        return lock

    def lock_file(self) -> None:
        """Flock the database file itself once it exists (another name of the same file,
        a hard link, has another sidecar). Raises :class:`DatabaseInUse` when another
        process holds it. Called at acquire and by ensure()."""
        if self._file_fd is not None:
            return
        try:
            fd = os.open(self.database, os.O_RDONLY | os.O_CLOEXEC)
        except (FileNotFoundError, IsADirectoryError, PermissionError):
            return  # not there yet (first start): the sidecar covers it until it is
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise DatabaseInUse(self.database, "") from None
        self._file_fd = fd

    @staticmethod
    def held_elsewhere(database: str | Path) -> bool:
        """True when some process holds the database's lock (checked without keeping it)."""
        try:
            ProcessLock.acquire(database).release()
        except DatabaseInUse:
            return True
        return False

    def ensure(self) -> None:
        """Check that the lock file on disk is still the one this process holds; if it
        was deleted or replaced (``rm data/*``), lock the new file at that path so a
        second bot still cannot start. Raises :class:`DatabaseInUse` when another
        process got there first (this process must stop writing)."""
        if self._fd is None:
            return
        self.lock_file()
        path = lock_path(self.database)
        try:
            on_disk = os.stat(path)
        except FileNotFoundError:
            on_disk = None
        mine = os.fstat(self._fd)
        if on_disk is not None and (on_disk.st_dev, on_disk.st_ino) == (mine.st_dev, mine.st_ino):
            return
        fresh = ProcessLock.acquire(self.database)
        os.close(self._fd)
        self._fd, fresh._fd = fresh._fd, None

    def release(self) -> None:
        if self._file_fd is not None:
            fd, self._file_fd = self._file_fd, None
            os.close(fd)
        if self._fd is not None:
            fd, self._fd = self._fd, None
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
            os.close(fd)  # closing the descriptor releases the flock

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()


__all__ = ["DatabaseInUse", "ProcessLock", "lock_path"]
