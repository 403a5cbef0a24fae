"""The wide-area network between simulated regions, for test/support/regions/three-regions.ts.

This machine's kernel has no netem qdisc (CONFIG_NET_SCH_NETEM is off), so the delay between
regions is made here, in user space: one TUN device per region (layer 3, no packet info),
which the harness moves into the region's network namespace as its `wan` interface. Every
IPv4 packet a region sends is held `delay` ms, then written to the TUN device of the region
that owns its destination address: one-way delay = delay, a round trip = 2 x delay, as netem
on each region's egress would give. A cut region's packets, both ways, are dropped.

    python3 wan-hub.py DELAY_MS NAME=DEV=IPV4 ...

Prints `ready` once every device exists. Commands on stdin, one a line, each answered `ok`
(or `error <why>`) on stdout:

    cut NAME        drop everything from and to NAME (its processes keep running)
    heal NAME       NAME's packets flow again
    delay MS        the one-way delay from now on

Exits when stdin closes (the harness ended, even killed): its TUN devices go with it.
"""

import fcntl
import heapq
import os
import selectors
import socket
import struct
import sys
import time

TUNSETIFF = 0x400454CA
IFF_TUN = 0x0001
IFF_NO_PI = 0x1000


def open_tun(name: str) -> int:
    fd = os.open("/dev/net/tun", os.O_RDWR | os.O_NONBLOCK)
    fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH", name.encode(), IFF_TUN | IFF_NO_PI))
    return fd


def main() -> None:
    delay = float(sys.argv[1]) / 1000.0
    by_name: dict[str, int] = {}
    by_address: dict[bytes, str] = {}
    for spec in sys.argv[2:]:
        name, device, address = spec.split("=")
        by_name[name] = open_tun(device)
        by_address[socket.inet_aton(address)] = name
    name_of_fd = {fd: name for name, fd in by_name.items()}
    cut: set[str] = set()

    selector = selectors.DefaultSelector()
    for fd in by_name.values():
        selector.register(fd, selectors.EVENT_READ)
    stdin = sys.stdin.fileno()
    os.set_blocking(stdin, False)
    selector.register(stdin, selectors.EVENT_READ)
    sys.stdout.write("ready\n")
    sys.stdout.flush()

    # (due time, sequence, destination fd, packet): the sequence keeps FIFO order.
    queue: list[tuple[float, int, int, bytes]] = []
    sequence = 0
    pending = b""
    while True:
        timeout = None
        if queue:
            timeout = max(0.0, queue[0][0] - time.monotonic())
        for key, _ in selector.select(timeout):
            fd = key.fd
            if fd == stdin:
                chunk = os.read(stdin, 4096)
                if chunk == b"":
                    return
                pending += chunk
                while b"\n" in pending:
                    line, pending = pending.split(b"\n", 1)
                    words = line.decode().split()
                    reply = "ok"
                    if len(words) == 2 and words[0] == "cut" and words[1] in by_name:
                        cut.add(words[1])
                    elif len(words) == 2 and words[0] == "heal" and words[1] in by_name:
                        cut.discard(words[1])
                    elif len(words) == 2 and words[0] == "delay":
                        delay = float(words[1]) / 1000.0
                    else:
                        reply = f"error unknown command {line.decode()!r}"
                    sys.stdout.write(reply + "\n")
                    sys.stdout.flush()
                continue
            source = name_of_fd[fd]
            # Drain what the device holds now (non-blocking), not one packet a wake-up.
            for _ in range(256):
                try:
                    packet = os.read(fd, 65536)
                except BlockingIOError:
                    break
                if len(packet) < 20 or packet[0] >> 4 != 4:
                    continue  # IPv4 only (IPv6 router solicitations and the like)
                target = by_address.get(packet[16:20])
                if target is None or target == source or source in cut or target in cut:
                    continue
                sequence += 1
                heapq.heappush(queue, (time.monotonic() + delay, sequence, by_name[target], packet))
        now = time.monotonic()
        while queue and queue[0][0] <= now:
            _, _, target_fd, packet = heapq.heappop(queue)
            if name_of_fd[target_fd] in cut:
                continue  # cut while in flight
            try:
                os.write(target_fd, packet)
            except OSError:
                pass  # the device is down or full: a lost packet, as on a real link


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        pass
