"""A hostile bot for the adversarial suite: it misbehaves as BOT_ATTACK says,
always within bounds (this runs as root on a shared machine), and otherwise
plays the first legal action.

Attacks (BOT_ATTACK=name, with BOT_ARG for a parameter):
  busy          spin forever on its first decision
  sleep         never answer (sleeps)
  sigstop       stop itself (SIGSTOP) on its first decision
  forkbomb      fork BOT_ARG (default 40) sleeping children, then play
  escape        setsid double-fork: a grandchild outside the group sleeps; then play
  membomb       allocate up to 3 GiB in 64 MiB steps, then play
  diskfill      write up to 200 MiB to one file in its scratch directory, then play
  stdout        write 100 MB to stdout, then play
  network       connect to 127.0.0.1:BOT_ARG, report, then play
  snoop         try to read the files named in BOT_ARG (colon-separated), report, then play
  garbage       write garbage bytes to the referee's socket, then play
  huge          send a 10 MB message on its stream
  twice         open a second Play stream with its own secret, then play
  steal_secret  look for other bots' secrets in /proc and connect with them, then play
  flood         answer its first request with 10,000 messages
  privileges    report its uid, groups, capabilities and no_new_privs; try to unmount
                what hides things, remount / read-write, and the same from a new
                user namespace; then play
  hijack        try to rename, delete, replace and listen on its endpoint, and to find
                and reach other endpoints; then play
  write_into    try to write into every directory named in BOT_ARG (colon-separated)
                and into its own program directory; then play
  environment   report its environment's variable names, the entries of /tmp, and
                try the unix sockets named in BOT_ARG; then play
  tmpfs_bomb    write up to BOT_ARG MiB (default 512) into /dev/shm, then play
  inode_bomb    create up to 50,000 empty files in /tmp, then play
  disk_bomb     write 1 MiB files into HOME, /tmp and /dev/shm, up to 300 MiB each; then play
  hog           start 8 setsid children that spin (each stops after 120 s) and spin
                a thread of its own between turns; answer every request at once
  conn_flood    before connecting: hold 50 raw connections to its endpoint and open
                streams that never say Hello; report what the referee did; then play
  remember      note each game's hand in every writable place; report per game the
                process token and whether a note from another process was found
  fd_bomb       open up to 5,000 file descriptors, report where it stopped, then play
Reports are lines "REPORT ..." on stderr (a bot can write no file that outlives it).
"""

from __future__ import annotations

import ctypes
import os
import queue
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import grpc

from referee.v1 import referee_pb2 as pb
from referee.v1 import referee_pb2_grpc as pb_grpc

# The attack comes from the environment (tournament files, tests) or the command line.
ATTACK = os.environ.get("BOT_ATTACK") or (sys.argv[1] if len(sys.argv) > 1 else "")
ARG = os.environ.get("BOT_ARG") or (sys.argv[2] if len(sys.argv) > 2 else "")


def report(line: str) -> None:
    sys.stderr.write(f"REPORT {line}\n")
    sys.stderr.flush()


def sleep_forever() -> None:
    while True:
        time.sleep(60)


def before_play() -> None:
    """Attacks that happen before the bot connects."""
    if ATTACK == "forkbomb":
        for made in range(int(ARG or 40)):
            try:
                child = os.fork()
            except OSError as error:
                report(f"fork refused after {made} children ({error.strerror})")
                break
            if child == 0:
                sleep_forever()
        else:
            report("forked")
    elif ATTACK == "escape":
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                report(f"escaped pid {os.getpid()}")
                sleep_forever()
            os._exit(0)
        os.wait()
        time.sleep(0.2)
    elif ATTACK == "membomb":
        hoard = []
        try:
            for _ in range(48):  # at most 3 GiB
                hoard.append(bytearray(64 << 20))
            report("allocated 3 GiB")
        except MemoryError:
            report(f"MemoryError after {len(hoard) * 64} MiB")
            del hoard
    elif ATTACK == "diskfill":
        written = 0
        try:
            with open(Path(os.environ.get("TMPDIR", "/tmp")) / "fill.bin", "wb") as f:
                while written < 200 << 20:
                    f.write(b"\0" * (1 << 20))
                    written += 1 << 20
            report(f"wrote {written >> 20} MiB")
        except OSError as error:
            report(f"disk write stopped at {written >> 20} MiB: {error}")
    elif ATTACK == "stdout":
        block = b"x" * (1 << 20)
        for _ in range(100):
            sys.stdout.buffer.write(block)
        sys.stdout.flush()
    elif ATTACK == "network":
        try:
            with socket.create_connection(("127.0.0.1", int(ARG)), timeout=2):
                report("network: connected")
        except OSError as error:
            report(f"network: refused ({error})")
    elif ATTACK == "snoop":
        for name in filter(None, ARG.split(":")):
            try:
                Path(name).read_bytes()
                report(f"read {name}")
            except OSError as error:
                report(f"could not read {name}: {type(error).__name__}")
    elif ATTACK in EARLY:
        EARLY[ATTACK]()
    elif ATTACK == "garbage":
        path = os.environ["REFEREE_ADDRESS"].removeprefix("unix://")
        with socket.socket(socket.AF_UNIX) as s:
            s.connect(path)
            s.sendall(os.urandom(4096))
            time.sleep(0.2)


def attempt(what: str, action: Callable[[], object]) -> None:
    """Try something forbidden; report whether it worked."""
    try:
        action()
        report(f"{what}: DONE")
    except Exception as error:
        report(f"{what}: refused ({type(error).__name__}: {error})")


def libc_call(name: str, *args: object) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if getattr(libc, name)(*args) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, os.strerror(errno))


def privileges() -> None:
    status = Path("/proc/self/status").read_text()
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    report(f"uid {os.getuid()} euid {os.geteuid()} groups {sorted(os.getgroups())}")
    report(f"CapEff {fields['CapEff'].strip()} CapBnd {fields['CapBnd'].strip()}")
    report(f"NoNewPrivs {fields['NoNewPrivs'].strip()}")
    targets = [p for p in ARG.split(":") if p] + ["/tmp", "/proc"]
    for target in targets:
        attempt(f"umount {target}", partial(libc_call, "umount2", target.encode(), 2))
    ms_remount, ms_bind = 32, 4096
    attempt(
        "remount / read-write",
        lambda: libc_call("mount", None, b"/", None, ms_remount | ms_bind, None),
    )
    attempt("write /etc/pwned", lambda: Path("/etc/pwned").write_text("x"))
    attempt("setuid 0", lambda: os.setuid(0))
    # A new user namespace gives capabilities inside it: they must open nothing.
    pid = os.fork()
    if pid == 0:
        try:
            libc_call("unshare", 0x10000000 | 0x00020000)  # CLONE_NEWUSER | CLONE_NEWNS
            report("userns: unshared")
            for target in targets:
                attempt(
                    f"userns umount {target}", partial(libc_call, "umount2", target.encode(), 2)
                )
            attempt(
                "userns remount / read-write",
                lambda: libc_call("mount", None, b"/", None, ms_remount | ms_bind, None),
            )
        except OSError as error:
            report(f"userns: refused ({error})")
        os._exit(0)
    os.waitpid(pid, 0)


def hijack() -> None:
    path = Path(os.environ["REFEREE_ADDRESS"].removeprefix("unix://"))
    attempt("rename endpoint", lambda: path.rename(path.with_name("moved.sock")))
    attempt("delete endpoint", lambda: path.unlink())
    attempt("create in endpoint dir", lambda: path.with_name("mine.sock").write_text("x"))

    def listen() -> None:
        with socket.socket(socket.AF_UNIX) as s:
            s.bind(str(path.with_name("evil.sock")))

    attempt("listen beside endpoint", listen)
    attempt("list endpoint dir", lambda: os.listdir(path.parent))
    try:
        report(f"runtime dir lists {sorted(os.listdir(path.parent.parent))}")
    except OSError as error:
        report(f"list runtime dir: refused ({error})")
    reached = 0
    for number in range(1, 40):
        other = path.parent.parent / str(number) / "referee.sock"
        if other == path:
            continue
        with socket.socket(socket.AF_UNIX) as s:
            try:
                s.connect(str(other))
                reached += 1
            except OSError:
                continue
    report(f"other endpoints reached: {reached}")


def write_into() -> None:
    places = [Path(p) for p in ARG.split(":") if p] + [Path(__file__).resolve().parent]
    for place in places:
        attempt(f"write into {place}", partial((place / "pwned.txt").write_text, "pwned"))


def environment() -> None:
    report(f"env names {sorted(os.environ)}")
    report(f"HOME {os.environ.get('HOME')} TMPDIR {os.environ.get('TMPDIR')}")
    report(f"/tmp entries {sorted(os.listdir('/tmp'))}")
    report(f"processes visible {sum(1 for name in os.listdir('/proc') if name.isdigit())}")
    for name in filter(None, ARG.split(":")):
        with socket.socket(socket.AF_UNIX) as s:
            attempt(f"connect {name}", partial(s.connect, name))


def fill(directory: Path, limit_mib: int, prefix: str) -> int:
    """Write 1 MiB files until an error or the limit; returns MiB written."""
    written = 0
    block = b"\1" * (1 << 20)
    try:
        while written < limit_mib:
            with open(directory / f"{prefix}{written}", "wb") as f:
                f.write(block)
            written += 1
    except OSError as error:
        report(f"{directory}: stopped after {written} MiB ({error.strerror})")
        return written
    report(f"{directory}: wrote {written} MiB")
    return written


def tmpfs_bomb() -> None:
    fill(Path("/dev/shm"), int(ARG or 512), "shm")


def inode_bomb() -> None:
    made = 0
    try:
        for made in range(50_000):
            open(f"/tmp/f{made}", "w").close()
        made = 50_000
        report(f"files: made {made}")
    except OSError as error:
        report(f"files: stopped after {made} ({error.strerror})")


def disk_bomb() -> None:
    home = Path(os.environ.get("HOME", "/tmp"))
    total = fill(home, 300, "home") + fill(Path("/tmp"), 300, "tmp")
    total += fill(Path("/dev/shm"), 300, "shm")
    report(f"disk total {total} MiB")


def hog() -> None:
    for _ in range(8):
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                deadline = time.monotonic() + 120
                while time.monotonic() < deadline:
                    pass
                os._exit(0)
            os._exit(0)
    threading.Thread(target=lambda: [None for _ in iter(int, 1)], daemon=True).start()
    report("hogging")


def still_open(sockets: list[socket.socket]) -> list[socket.socket]:
    """The sockets the referee has not closed (no end of stream, no error)."""
    alive = []
    for s in sockets:
        s.setblocking(False)
        try:
            while data := s.recv(65536):
                del data
        except BlockingIOError:
            alive.append(s)
        except OSError:
            pass
    return alive


def conn_flood() -> None:
    path = os.environ["REFEREE_ADDRESS"].removeprefix("unix://")
    held = []
    for _ in range(50):
        s = socket.socket(socket.AF_UNIX)
        try:
            s.connect(path)
            held.append(s)
        except OSError:
            s.close()
    time.sleep(1.0)
    open_ones = still_open(held)
    report(
        f"raw: {len(held)} connected, {len(held) - len(open_ones)} closed by the referee within 1 s"
    )
    time.sleep(6.0)  # past the handshake deadline: silent connections are closed too
    report(f"raw after 7 s: {len(still_open(open_ones))} still open")
    for s in held:
        s.close()
    # Streams that never say Hello, on a channel of their own.
    channel = grpc.insecure_channel(os.environ["REFEREE_ADDRESS"])
    stub = pb_grpc.RefereeServiceStub(channel)
    silent: queue.Queue[pb.PlayRequest | None] = queue.Queue()
    started = time.monotonic()
    try:
        for _ in stub.Play(iter(silent.get, None), timeout=15):
            pass
        report("silent stream: ended without error")
    except grpc.RpcError as error:
        report(f"silent stream: {error.code().name} after {time.monotonic() - started:.1f} s")
    channel.close()


TOKEN = os.urandom(8).hex()


def remember(start: pb.GameStart, hand: list[str]) -> None:
    """Look for notes of earlier processes, then leave notes everywhere."""
    places = [
        Path(os.environ.get("HOME", "/tmp")),
        Path("/tmp"),
        Path("/dev/shm"),
        Path(__file__).resolve().parent,
        Path("/var/tmp"),
    ]
    found = 0
    for place in places:
        try:
            for note in place.glob("note-*.txt"):
                if TOKEN not in note.name:
                    found += 1
        except OSError:
            continue
    report(f"game {start.game_id} process {TOKEN} notes from others {found}")
    for place in places:
        try:
            (place / f"note-{TOKEN}-{start.game_id}.txt").write_text(" ".join(hand))
        except OSError:
            continue


def fd_bomb() -> None:
    held = []
    try:
        for _ in range(5000):
            held.append(os.open("/dev/null", os.O_RDONLY))
        report(f"fds: opened {len(held)}")
    except OSError as error:
        report(f"fds: stopped after {len(held)} ({error.strerror})")
    for fd in held:
        os.close(fd)


EARLY: dict[str, Callable[[], None]] = {
    "fd_bomb": fd_bomb,
    "privileges": privileges,
    "hijack": hijack,
    "write_into": write_into,
    "environment": environment,
    "tmpfs_bomb": tmpfs_bomb,
    "inode_bomb": inode_bomb,
    "disk_bomb": disk_bomb,
    "hog": hog,
    "conn_flood": conn_flood,
}


def other_secrets() -> list[str]:
    mine = os.environ["REFEREE_SECRET"]
    found = []
    for entry in Path("/proc").iterdir():
        try:
            for item in (entry / "environ").read_bytes().split(b"\0"):
                if item.startswith(b"REFEREE_SECRET="):
                    secret = item.split(b"=", 1)[1].decode()
                    if secret != mine and secret not in found:
                        found.append(secret)
        except OSError:
            continue
    return found


def try_stream(channel: grpc.Channel, secret: str) -> str:
    stub = pb_grpc.RefereeServiceStub(channel)
    hello = pb.PlayRequest(hello=pb.Hello(protocol_version=1, bot_name="x", secret=secret))
    try:
        for _ in stub.Play(iter([hello]), timeout=2):
            return "admitted"
        return "closed"
    except grpc.RpcError as error:
        return error.code().name


def main() -> None:
    before_play()
    outbox: queue.Queue[pb.PlayRequest | None] = queue.Queue()
    secret = os.environ["REFEREE_SECRET"]
    outbox.put(pb.PlayRequest(hello=pb.Hello(protocol_version=1, bot_name=ATTACK, secret=secret)))

    def requests() -> Iterator[pb.PlayRequest]:
        while (item := outbox.get()) is not None:
            yield item

    options = [("grpc.max_send_message_length", 64 << 20)]
    with grpc.insecure_channel(os.environ["REFEREE_ADDRESS"], options=options) as channel:
        stub = pb_grpc.RefereeServiceStub(channel)
        try:
            play(stub, requests(), outbox, secret, channel)
        except grpc.RpcError as error:
            report(f"stream ended: {error.code().name}")
            time.sleep(5)  # stay alive: the referee must tell this from a crash
        outbox.put(None)


def play(
    stub: pb_grpc.RefereeServiceStub,
    requests: Iterator[pb.PlayRequest],
    outbox: queue.Queue[pb.PlayRequest | None],
    secret: str,
    channel: grpc.Channel,
) -> None:
    first = True
    start: pb.GameStart | None = None
    first_request_of_game = False
    for message in stub.Play(requests):
        if message.WhichOneof("message") == "game_start":
            start = message.game_start
            first_request_of_game = True
        if message.WhichOneof("message") == "welcome":
            if ATTACK == "twice":
                report(f"second stream: {try_stream(channel, secret)}")
            if ATTACK == "steal_secret":
                secrets = other_secrets()
                report(f"found {len(secrets)} other secrets")
                for other in secrets:
                    report(f"with another secret: {try_stream(channel, other)}")
        if message.WhichOneof("message") != "decision_request":
            continue
        request = message.decision_request
        if ATTACK == "remember" and start is not None and first_request_of_game:
            first_request_of_game = False
            hand = [f"{c.id}:{c.rank}:{c.suit}" for c in request.observation.thief.hand]
            remember(start, hand)
        if first:
            first = False
            if ATTACK == "busy":
                while True:
                    pass
            if ATTACK == "sleep":
                sleep_forever()
            if ATTACK == "sigstop":
                os.kill(os.getpid(), signal.SIGSTOP)
            if ATTACK == "huge":
                outbox.put(pb.PlayRequest(hello=pb.Hello(bot_name="x" * (10 << 20))))
            if ATTACK == "flood":
                for i in range(10_000):
                    outbox.put(pb.PlayRequest(decision=pb.Decision(request_id=10**9 + i)))
        outbox.put(pb.PlayRequest(decision=pb.Decision(request_id=request.request_id)))


if __name__ == "__main__":
    main()
