"""A throw-away TinyMUX server and a minimal client, for tests that replay MUSHcode.

`MushServer` builds a private game folder from the Debian ``tinymux`` package (the same
files ``/usr/games/tinymux-install`` copies or links), listens on 127.0.0.1 only, and is
torn down completely on exit; `settings` can restore TinyMUX's default command quota.
`MushClient` logs in over a plain TCP socket, as the wizard or as any player character, and
knows when the output of a command is complete: the server's queue is empty (a player asks
a wizard's connection to watch the queue) and a unique marker line, sent after the command,
has come back.
"""

from __future__ import annotations

import codecs
import ctypes
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

TINYMUX_GAME_TEMPLATE = Path("/usr/share/tinymux/game")  # system path: Debian's TinyMUX, tests skip without
TINYMUX_BINARIES = Path("/usr/lib/tinymux/game/bin")  # system path: Debian's TinyMUX, tests skip without
WIZARD_NAME = "wizard"
WIZARD_PASSWORD = "potrzebie"  # the password of the wizard in the database Debian ships

# The template's command quota (100 commands, then one per second) would throttle a test
# that pastes a few hundred lines; a real user's paste is throttled the same way.
TEST_SERVER_SETTINGS = {
    "ip_address": "127.0.0.1",
    "command_quota_max": "100000",
    "command_quota_increment": "100000",
}


def tinymux_installed() -> bool:
    return (TINYMUX_BINARIES / "netmux").is_file() and (TINYMUX_GAME_TEMPLATE / "netmux.conf").is_file()


def _stop_with_parent() -> None:
    """Run in the child before netmux starts: the kernel sends it SIGTERM if the test process
    dies without cleaning up (netmux then saves its database and exits)."""
    pr_set_pdeathsig = 1
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


def _free_local_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _listens_on(pid: int, port: int) -> bool:
    """Whether process `pid` itself holds the listening TCP socket of `port` (Linux /proc).

    Checking that the port accepts connections is not enough: when the port was taken in
    the meantime, netmux logs "Error 98 on bind" and keeps running without listening.
    """
    listening_inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local_address, state, inode = fields[1], fields[3], fields[9]
        if state == "0A" and int(local_address.rsplit(":", 1)[1], 16) == port:  # 0A: LISTEN
            listening_inodes.add(inode)
    try:
        descriptors = list(Path(f"/proc/{pid}/fd").iterdir())
    except FileNotFoundError:
        return False
    for descriptor in descriptors:
        try:
            target = os.readlink(descriptor)
        except OSError:
            continue
        if target.startswith("socket:[") and target[len("socket:[") : -1] in listening_inodes:
            return True
    return False


class MushServer:
    """A TinyMUX game in a temporary folder; use as a context manager.

    The server is started directly (not through ``Startmux``, which detaches it with nohup)
    in its own session, so that the whole process group, including the DNS "slave"
    helpers netmux forks, can be stopped.
    """

    def __init__(self, startup_timeout: float = 15.0, shutdown_timeout: float = 10.0,
                 settings: dict[str, str] | None = None) -> None:
        """`settings` replace netmux.conf lines; by default TEST_SERVER_SETTINGS (no quota)."""
        self.settings = {"ip_address": "127.0.0.1"} | (TEST_SERVER_SETTINGS if settings is None else settings)
        self.startup_timeout = startup_timeout
        self.shutdown_timeout = shutdown_timeout
        self.port: int | None = None
        self.game_dir: Path | None = None
        self._work_dir: Path | None = None
        self._process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> MushServer:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def start(self) -> None:
        if not tinymux_installed():
            raise FileNotFoundError(
                f"TinyMUX is not installed ({TINYMUX_BINARIES}/netmux missing); run .ci/install-tinymux.sh"
            )
        self._work_dir = Path(tempfile.mkdtemp(prefix="deckgen-tinymux-"))
        self.game_dir = self._work_dir / "game"
        shutil.copytree(TINYMUX_GAME_TEMPLATE, self.game_dir)
        bin_dir = self.game_dir / "bin"
        bin_dir.mkdir()
        for binary in TINYMUX_BINARIES.iterdir():
            (bin_dir / binary.name).symlink_to(binary)

        for _attempt in range(3):  # another process may take the free port before netmux binds it
            self.port = _free_local_port()
            self._write_config(self.game_dir / "netmux.conf", {"port": str(self.port), **self.settings})
            self._launch(bin_dir)
            if self._wait_until_listening():
                return
            self._kill_process_group()
        raise RuntimeError(f"netmux could not bind a free port on 127.0.0.1:\n{self.log_tail()}")

    def _launch(self, bin_dir: Path) -> None:
        assert self.game_dir is not None
        with open(self.game_dir / "netmux.log", "wb") as log:  # one log per attempt
            self._process = subprocess.Popen(
                [str(bin_dir / "netmux"), "-c", "netmux.conf", "-p", "netmux.pid", "-e", "-"],
                cwd=self.game_dir,
                env={**os.environ, "LD_LIBRARY_PATH": str(bin_dir)},
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=_stop_with_parent,
            )

    @staticmethod
    def _write_config(config_path: Path, settings: dict[str, str]) -> None:
        """Replace the given settings in netmux.conf, appending those the template lacks."""
        kept = [
            line for line in config_path.read_text().splitlines() if not line.strip() or line.split()[0] not in settings
        ]
        kept += [f"{key} {value}" for key, value in settings.items()]
        config_path.write_text("\n".join(kept) + "\n")

    def _wait_until_listening(self) -> bool:
        """True once netmux listens on its port; False if the port turned out to be taken."""
        assert self._process is not None and self.port is not None
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if _listens_on(self._process.pid, self.port):
                return True
            # "Error 98 on bind", then netmux exits; checked before poll() reaps netmux, so
            # that its process group can still be killed safely.
            if " on bind" in self.log_tail(lines=5):
                return False
            if self._process.poll() is not None:
                raise RuntimeError(f"netmux exited with {self._process.returncode}:\n{self.log_tail()}")
            time.sleep(0.02)
        raise TimeoutError(f"netmux did not listen on 127.0.0.1:{self.port}:\n{self.log_tail()}")

    def log_tail(self, lines: int = 30) -> str:
        if self.game_dir is None or not (self.game_dir / "netmux.log").exists():
            return ""
        text = (self.game_dir / "netmux.log").read_text(errors="replace")
        return "\n".join(text.splitlines()[-lines:])

    def client(self, negotiate_utf8: bool = True, name: str = WIZARD_NAME, password: str = WIZARD_PASSWORD,
               queue_watcher: MushClient | None = None, encoding: str = "utf-8",
               timeout: float = 10.0) -> MushClient:
        """A connection logged in as `name`; a player who is no wizard needs a wizard's
        connection as `queue_watcher` to know when the server is done (see MushClient.sync)."""
        assert self.port is not None, "server not started"
        return MushClient(self.port, negotiate_utf8=negotiate_utf8, name=name, password=password,
                          queue_watcher=queue_watcher, encoding=encoding, timeout=timeout)

    def stop(self) -> None:
        if self._process is not None:
            if not self._shutdown_politely():
                self._kill_process_group()
            self._process = None
        if self._work_dir is not None:
            shutil.rmtree(self._work_dir, ignore_errors=True)
            self._work_dir = self.game_dir = None

    def _shutdown_politely(self) -> bool:
        """``@shutdown`` as the wizard; True once netmux has exited (it stops its helpers)."""
        assert self._process is not None
        try:
            with self.client() as wizard:
                wizard.send_line("@shutdown")
            self._process.wait(timeout=self.shutdown_timeout)
        except (OSError, TimeoutError, subprocess.TimeoutExpired):
            return False
        return True

    def _kill_process_group(self) -> None:
        """Kill netmux and the helpers it forked, which share its process group.

        Only while netmux is not yet reaped: until then its pid, which is the group's id,
        cannot have been given to another process.
        """
        assert self._process is not None
        if self._process.returncode is None:
            try:
                os.killpg(self._process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self._process.wait()


# What `@ps/all/summary` prints in TinyMUX 2.12 (the system tasks listed vary):
#   ----- System Queue -----
#   [14]Test for @daily time
#   ...
#   Totals: Wait Queue...1/1  Semaphores...0/0  SQL 0/0
#           System Tasks.....7
QUEUE_SUMMARY = re.compile(
    r"(?:^|\n)----- System Queue -----\n(?:.*\n)*?"
    r"Totals: Wait Queue\.\.\.\d+/(?P<waiting>\d+) .*\n +System Tasks\.+\d+(?=\n|$)"
)

# Telnet bytes (RFC 854) and the CHARSET option (RFC 2066).
IAC, DONT, DO, WONT, WILL, SB, SE = 255, 254, 253, 252, 251, 250, 240
TELOPT_CHARSET = 42
CHARSET_REQUEST, CHARSET_ACCEPTED = 1, 2


class MushClient:
    """A logged-in wizard connection that sends and reads UTF-8, like a modern terminal.

    With ``negotiate_utf8`` the client also tells the server so through telnet CHARSET, as
    MUD clients such as Mudlet and TinTin++ do. Without it TinyMUX takes every byte for a
    Latin-1 character, like a plain ``telnet`` or ``nc`` session.
    """

    def __init__(self, port: int, negotiate_utf8: bool = True, timeout: float = 10.0,
                 name: str = WIZARD_NAME, password: str = WIZARD_PASSWORD,
                 queue_watcher: MushClient | None = None, encoding: str = "utf-8") -> None:
        self.negotiate_utf8 = negotiate_utf8
        self.queue_watcher = queue_watcher
        self.encoding = encoding  # of what is sent and read; without CHARSET TinyMUX reads Latin-1
        self.charset_agreed = False
        self.timeout = timeout
        # incremental, so that a character split across two reads is decoded whole
        self._decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
        self._socket = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        # A command and its marker are small writes in a row, on both sides. With Nagle's
        # algorithm and delayed ACKs each would wait some 40 ms for the other side's ACK:
        # send at once, and acknowledge at once (QUICKACK is reset by Linux, see recv).
        self._socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._raw = bytearray()  # received bytes not yet split into telnet and text
        self._text = ""  # received text not yet returned to a caller
        self._marker_count = 0
        if negotiate_utf8:
            # The server offers CHARSET with its banner; agree before sending any text.
            deadline = time.monotonic() + timeout
            while not self.charset_agreed:
                self._receive_more(deadline, "the server did not agree to UTF-8 through telnet CHARSET")
        self.send_line(f'connect "{name}" {password}')
        self.sync()

    def __enter__(self) -> MushClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self._socket.close()

    def send_line(self, line: str) -> None:
        if "\n" in line or "\r" in line:
            raise ValueError(f"one line at a time: {line!r}")
        self._socket.sendall(line.encode(self.encoding) + b"\r\n")

    def command(self, line: str) -> str:
        """Send one command and return its output (lines joined with "\\n", no final newline)."""
        self.send_line(line)
        return self.sync()

    def send_lines(self, lines: Iterable[str]) -> str:
        """Send commands one after another; return all their output."""
        outputs = [self.command(line) for line in lines]
        return "\n".join(output for output in outputs if output)

    def send_file(self, path: Path) -> str:
        """Paste a MUSHcode file the way a user would: each non-empty line is a command."""
        # Split at "\n" only, as a paste does: str.splitlines() also splits at U+0085, U+2028...
        lines = path.read_text(encoding=self.encoding).split("\n")
        return self.send_lines(line for line in lines if line.strip())

    def sync(self) -> str:
        """Return everything the server sends until it has nothing left to do for us.

        A typed command runs at once, but `$`-commands, ``@switch`` and ``@trigger`` put more
        work on the queue, at any depth. So ask for the queue's size (``@ps/all/summary``) and
        a marker line after it; repeat until the queue was empty. No sleeping, no guessing.
        """
        if self.queue_watcher is not None:
            return self._sync_through_watcher()
        outputs = []
        while True:
            self._marker_count += 1
            marker = f"DECKGEN-SYNC-{self._marker_count}"
            self.send_line("@ps/all/summary")
            self.send_line(f"think {marker}")
            text = self._read_until_line(marker)
            queue_report = QUEUE_SUMMARY.search(text)
            if queue_report is None:
                raise RuntimeError(f"no @ps/all/summary report (is the client a wizard?) in:\n{text}")
            outputs += [text[: queue_report.start()], text[queue_report.end() :].removeprefix("\n")]
            if queue_report["waiting"] == "0":
                return "\n".join(output for output in outputs if output)

    def _sync_through_watcher(self) -> str:
        """For a player who may not use @ps: once a first marker is back, the command has run
        and queued what it queues; the wizard waits for the queue to empty; everything that
        queue sent this player then arrives before a second marker."""
        outputs = []
        for _round in range(2):
            self._marker_count += 1
            marker = f"DECKGEN-SYNC-{self._marker_count}"
            self.send_line(f"think {marker}")
            outputs.append(self._read_until_line(marker))
            if _round == 0:
                self.queue_watcher.sync()
        return "\n".join(output for output in outputs if output)

    def _read_until_line(self, marker: str) -> str:
        deadline = time.monotonic() + self.timeout
        pattern = re.compile(rf"(?:^|\r\n){re.escape(marker)}\r\n")
        while (found := pattern.search(self._text)) is None:
            self._receive_more(deadline, f"no {marker!r} from the server")
        output, self._text = self._text[: found.start()], self._text[found.end() :]
        return output.replace("\r\n", "\n")

    def _receive_more(self, deadline: float, waiting_for: str) -> None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError(f"{waiting_for}; received so far:\n{self._text}")
        self._socket.settimeout(remaining)
        self._socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1)
        try:
            chunk = self._socket.recv(65536)
        except socket.timeout:
            return
        if not chunk:
            raise ConnectionError(f"the server closed the connection; received so far:\n{self._text}")
        self._receive(chunk)

    def _receive(self, chunk: bytes) -> None:
        """Split telnet negotiation from text, answering the CHARSET negotiation."""
        self._raw += chunk
        text = bytearray()
        position = 0
        while position < len(self._raw):
            byte = self._raw[position]
            if byte != IAC:
                text.append(byte)
                position += 1
                continue
            if position + 1 >= len(self._raw):
                break  # incomplete sequence: wait for more bytes
            verb = self._raw[position + 1]
            if verb == IAC:
                text.append(IAC)
                position += 2
            elif verb in (DO, DONT, WILL, WONT):
                if position + 2 >= len(self._raw):
                    break
                self._answer_option(verb, self._raw[position + 2])
                position += 3
            elif verb == SB:
                end = self._raw.find(bytes([IAC, SE]), position)
                if end < 0:
                    break
                self._answer_subnegotiation(bytes(self._raw[position + 2 : end]))
                position = end + 2
            else:
                position += 2  # other telnet commands (GA, NOP, ...) carry no text
        del self._raw[:position]
        self._text += self._decoder.decode(bytes(text))

    def _answer_option(self, verb: int, option: int) -> None:
        if self.negotiate_utf8 and option == TELOPT_CHARSET and verb in (DO, WILL):
            self._socket.sendall(bytes([IAC, WILL if verb == DO else DO, TELOPT_CHARSET]))

    def _answer_subnegotiation(self, payload: bytes) -> None:
        is_charset_request = len(payload) > 2 and payload[0] == TELOPT_CHARSET and payload[1] == CHARSET_REQUEST
        if not (self.negotiate_utf8 and is_charset_request):
            return
        separator, offered = payload[2:3], payload[3:]
        if b"UTF-8" in offered.upper().split(separator):
            self._socket.sendall(bytes([IAC, SB, TELOPT_CHARSET, CHARSET_ACCEPTED]) + b"UTF-8" + bytes([IAC, SE]))
            self.charset_agreed = True
